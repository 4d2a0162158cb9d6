// The load engine's counters and histograms, the same for HTTP responses and WebSocket echoes: every answer is
// counted where it fell (the warm-up, the measured window, or after it), valid answers of the window add their
// latency (µs) to the histograms of the whole window, of their phase of the schedule and of their endpoint.

import { EngineHistogram } from "./_histogram.ts";
import type { RatePhase } from "./_schedule.ts";
import { CountedSpan } from "./_span.ts";

/** Where an answer fell: before the measured window, in it, or after it closed. */
export const WARMUP = 0, WINDOW = 1, AFTER = 2;

/** How an answer compared with what it answers (the HTTP parser's and the echo check's verdicts). */
export const VALID = 0, NON_2XX = 1, MISMATCH = 2;

/** What one measured phase of the open model counted. */
export interface PhaseCounts {
  /** Length of the phase. */
  durationMs: number;
  /** Its rates, per second, at start and end. */
  fromRate: number;
  toRate: number;
  /** Requests due in the phase. */
  scheduled: number;
  /** Of those: answered, answered validly, and sent late (waiting for a connection, or the engine itself behind). */
  responses: number;
  validResponses: number;
  missedConnections: number;
  missedClient: number;
  /** Of those due, never answered (timed out, lost with their connection, or never sent); each is in the histogram. */
  unanswered: number;
  /** Latency from when each valid response's request was due, and each unanswered one at no less than the timeout. */
  histogram: [number, number][];
  /** How late each request went out after it was due, µs. */
  lateHistogram: [number, number][];
}

/** How every request of a window ended, beyond the answers (see the fields of {@linkcode Tally}). */
export interface AccountingCounts {
  /** Requests of the window never answered (timed out, lost with a connection, outstanding at the end, not sent). */
  unanswered: number;
  /** Of those, due on the schedule and never sent (open model). */
  notSent: number;
  /** Answers with no request in flight: protocol violations. */
  unasked: number;
  /** Connections with a request outstanding past the hung bound (at the end, or timed out in a closed-model window). */
  hungConnections: number;
  /** Of the hung connections (timed out, or out past the bound at the end), those never answered since they opened. */
  hungNeverAnswered?: number;
  /** The load's connections. */
  connections: number;
  /**
   * Connections still waiting for their first answer when the window opened (a request out, or not yet open) that got
   * none within the larger of the planned hung bound and twice the window's median answer after it opened; never
   * counted as hung.
   */
  neverAnsweredConnections: number;
  /** Connections the server closed while in use; closes of idle ones (a keep-alive timeout); reopenings. */
  droppedConnections: number;
  idleCloses: number;
  /** Connections whose end the server announced (`Connection: close`), absent when none. */
  announcedCloses?: number;
  reconnects: number;
  /** Time connections spent closed before they were open again. */
  reconnectMs: number;
  /** Requests in flight when the window closed (closed model). */
  outstandingAtEnd: number;
  /** The hung bound the load applied (closed model: raised from its answers' latency when the window closed). */
  hungAfterMs?: number;
}

/** What one endpoint's requests counted. */
export interface EndpointCounts {
  /** Responses in the measured window, valid or not. */
  responses: number;
  /** Of those, the valid ones. */
  validResponses: number;
  /** Valid responses in the warm-up (their side effects happened too). */
  warmupValidResponses: number;
  /** Latency (µs) of valid measured responses, `[index, count]`. */
  histogram: [number, number][];
}

interface Phase {
  readonly counts: PhaseCounts;
  readonly histogram: EngineHistogram;
  readonly late: EngineHistogram;
  readonly measured: boolean;
}

interface Endpoint {
  responses: number;
  validResponses: number;
  warmupValidResponses: number;
  readonly histogram: EngineHistogram;
}

/** Everything one engine process counts; see the module comment. */
export class Tally {
  /** Answers in the window, valid or not; of those the valid ones; their bytes. */
  responses = 0;
  validResponses = 0;
  bytes = 0;
  /** Answers anywhere whose status was not 2xx, or that differed from their expectation. */
  non2xx = 0;
  mismatches = 0;
  firstMismatch: string | null = null;
  /** The first thing that went wrong of any kind (a mismatch, a drop, a timeout), described. */
  firstFailure: string | null = null;
  /** Answers in the warm-up, and the valid ones among them. */
  warmupResponses = 0;
  warmupValidResponses = 0;
  /** Answers after the window closed (the engine's stop fires late on a busy machine). */
  lateResponses = 0;
  /**
   * Each connection's valid answers of the window (see `_span.ts`): the closed model's rate is taken over their
   * spans where they came evenly, which no whole count of answers over a fixed window rounds.
   */
  readonly spans: CountedSpan[] = [];
  /** Connection errors and timeouts from the window's start on. */
  errors = 0;
  timeouts = 0;
  /**
   * Connections the server closed from the window's start on while they were in use: with requests in flight, or
   * within a second of their last answer (a keep-alive connection closed after an answer). `idleCloses`: closed after
   * being idle longer (a server's keep-alive timeout), not held against it. `reconnects`: connections opened again,
   * and the time they spent closed, ms (no request waits on a closed connection in the closed model).
   */
  dropped = 0;
  idleCloses = 0;
  /** Connections whose server announced their end (`Connection: close`) from the window's start on: no failure. */
  announcedCloses = 0;
  reconnects = 0;
  reconnectMs = 0;
  /** Requests sent over the whole load, and those counted as the window's (see `sentInWindow`). */
  sent = 0;
  sentInWindow = 0;
  /**
   * Requests of the window never answered: timed out (an answer after its timeout is one), lost with a connection
   * that closed, still outstanding when the accounting ended, or never sent (`notSent`, open model). Each is in the
   * latency histograms at no less than the timeout.
   */
  unanswered = 0;
  notSent = 0;
  /** Answers that came with no request in flight (or more than were sent): protocol violations, never counted. */
  unasked = 0;
  /** Requests in flight when the window closed (closed model). */
  outstandingAtEnd = 0;
  /**
   * Connections with a request outstanding longer than the hung bound: when the accounting ended, or (closed model) a
   * request that timed out in the window, the timeout being no less than the bound.
   */
  hung = 0;
  /** Of the hung connections (timed out, or out past the bound at the end), those never answered since they opened. */
  hungNeverAnswered = 0;
  /** The load's connections, and those never answered (see `AccountingCounts.neverAnsweredConnections`). */
  connections = 0;
  neverAnswered = 0;
  /** The hung bound applied, ms (null: the planned one). */
  hungAfterMs: number | null = null;
  /** CPU time the engine used over the window, µs, where the runtime can tell. */
  cpuUs: number | null = null;
  /** Valid responses kept to be checked after the load: the first, then every `sampleEvery`-th (0: none). */
  sampleEvery = 0;
  readonly samples: { index: number; body: string }[] = [];
  #validSeen = 0;
  readonly histogram: EngineHistogram = new EngineHistogram();
  /**
   * Keep-alive off: the connect of each new connection opened for a request of the window (µs, to open), and each
   * request's whole time (its connect, then its response; unanswered ones at no less than the timeout).
   */
  readonly connects: EngineHistogram = new EngineHistogram();
  readonly totals: EngineHistogram = new EngineHistogram();
  /** Whether each request has a connection of its own (keep-alive off): the two histograms above are kept. */
  perRequest = false;
  readonly #phases: Phase[];
  readonly #endpointOf: readonly number[] | undefined;
  readonly #endpoints: Endpoint[] | null;

  /** Counters for the schedule's `phases` (none in the closed model) and the requests' endpoints, when labelled. */
  constructor(phases: readonly RatePhase[], endpointOf?: readonly number[]) {
    this.#phases = phases.map((p) => ({
      counts: {
        durationMs: p.durationMs,
        fromRate: p.fromRate,
        toRate: p.toRate,
        scheduled: 0,
        responses: 0,
        validResponses: 0,
        missedConnections: 0,
        missedClient: 0,
        unanswered: 0,
        histogram: [],
        lateHistogram: [],
      },
      histogram: new EngineHistogram(),
      late: new EngineHistogram(),
      measured: p.measured,
    }));
    this.#endpointOf = endpointOf;
    this.#endpoints = endpointOf
      ? Array.from({ length: Math.max(-1, ...endpointOf) + 1 }, () => ({
        responses: 0,
        validResponses: 0,
        warmupValidResponses: 0,
        histogram: new EngineHistogram(),
      }))
      : null;
  }

  /** How every request of the window ended, beyond the answers. */
  accounting(): AccountingCounts {
    return {
      unanswered: this.unanswered,
      notSent: this.notSent,
      unasked: this.unasked,
      hungConnections: this.hung,
      ...(this.hungNeverAnswered > 0 ? { hungNeverAnswered: this.hungNeverAnswered } : {}),
      connections: this.connections,
      neverAnsweredConnections: this.neverAnswered,
      droppedConnections: this.dropped,
      idleCloses: this.idleCloses,
      ...(this.announcedCloses > 0 ? { announcedCloses: this.announcedCloses } : {}),
      reconnects: this.reconnects,
      reconnectMs: Math.round(this.reconnectMs),
      outstandingAtEnd: this.outstandingAtEnd,
      ...(this.hungAfterMs === null ? {} : { hungAfterMs: this.hungAfterMs }),
    };
  }

  /** Whether phase `phase` of the schedule is measured (always, in the closed model). */
  measured(phase: number): boolean {
    return this.#phases.length === 0 || this.#phases[phase].measured;
  }

  /** A new connection's count of its valid answers of the window, kept with the others. */
  span(): CountedSpan {
    const s = new CountedSpan();
    this.spans.push(s);
    return s;
  }

  /**
   * One answer: `where` it fell, its verdict, size, latency (µs), phase, the rotation index it answers, when it came
   * (clock ms), and its connection's count of valid answers of the window.
   */
  answer(
    where: number,
    verdict: number,
    bytes: number,
    us: number,
    phase: number,
    index: number,
    at: number,
    span?: CountedSpan,
  ): void {
    if (verdict !== VALID) this.verdict(verdict);
    const e = this.#endpoints === null || index < 0 ? undefined : this.#endpoints[this.#endpointOf![index]];
    if (where === WARMUP) {
      this.warmupResponses++;
      if (verdict === VALID) {
        this.warmupValidResponses++;
        if (e) e.warmupValidResponses++;
      }
      return;
    }
    if (where === AFTER) {
      this.lateResponses++;
      return;
    }
    this.responses++;
    this.bytes += bytes;
    const p = this.#phases.length > 0 ? this.#phases[phase] : undefined;
    if (p) p.counts.responses++;
    if (e) e.responses++;
    if (verdict !== VALID) return;
    this.validResponses++;
    span?.add(at);
    this.histogram.record(us);
    if (p) {
      p.counts.validResponses++;
      p.histogram.record(us);
    }
    if (e) {
      e.validResponses++;
      e.histogram.record(us);
    }
  }

  /** Counts an answer's verdict, wherever it fell: a non-2xx status or a mismatch counts whenever it comes. */
  verdict(verdict: number): void {
    if (verdict === NON_2XX) this.non2xx++;
    else if (verdict === MISMATCH) this.mismatches++;
  }

  /** Whether the next valid response is one to keep (the first, then every `sampleEvery`-th). */
  wantsSample(): boolean {
    return this.sampleEvery > 0 && this.#validSeen++ % this.sampleEvery === 0;
  }

  /** Whether the first mismatch still wants describing (so that a description is built once). */
  wantsMismatch(): boolean {
    return this.firstMismatch === null;
  }

  /** Keeps the description of the first thing that went wrong. */
  mismatch(text: string): void {
    this.firstMismatch ??= text;
    this.firstFailure ??= text;
  }

  /** Keeps the description of the first failure of any kind. */
  failure(text: string): void {
    this.firstFailure ??= text;
  }

  /** A request of `phase` fell due on the schedule. */
  scheduled(phase: number): void {
    if (this.measured(phase)) this.#phases[phase].counts.scheduled++;
  }

  /** A request of `phase` went out late: it waited for a connection, or the engine itself was behind. */
  missed(phase: number, waitedForConnection: boolean): void {
    if (!this.measured(phase)) return;
    if (waitedForConnection) this.#phases[phase].counts.missedConnections++;
    else this.#phases[phase].counts.missedClient++;
  }

  /** A request of `phase` went out `us` after it was due (open model). */
  sentLate(phase: number, us: number): void {
    if (this.measured(phase)) this.#phases[phase].late.record(us);
  }

  /** A request of the window was never answered; it enters the latency histograms at `us` (no less than its timeout). */
  lost(us: number, phase: number): void {
    this.unanswered++;
    this.histogram.record(us);
    if (this.perRequest) this.totals.record(us);
    const p = this.#phases.length > 0 ? this.#phases[phase] : undefined;
    if (p) {
      p.counts.unanswered++;
      p.histogram.record(us);
    }
  }

  /** The measured phases' counts, histograms sparse (open model). */
  phases(): PhaseCounts[] {
    return this.#phases.filter((p) => p.measured).map((p) => ({
      ...p.counts,
      histogram: p.histogram.sparse(),
      lateHistogram: p.late.sparse(),
    }));
  }

  /** Each endpoint's counts, histograms sparse; undefined when the requests carry no endpoint. */
  endpoints(): EndpointCounts[] | undefined {
    return this.#endpoints?.map((e) => ({ ...e, histogram: e.histogram.sparse() }));
  }
}
