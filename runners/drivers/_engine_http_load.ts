// The load engine's HTTP load: `connections` keep-alive HTTP/1.1 connections to one server. Closed model (the
// default): each connection keeps `pipelining` requests in flight, the next going out when a response is complete.
// Open model (`open`): requests are due on a schedule (constant or ramping rates, evenly spaced or Poisson); a due
// request goes out on an idle connection, or waits for one, and its latency runs from when it was due, so a stalled
// server shows its stall (no coordinated omission). Either way every response, in the warm-up and in the measured
// window, is checked against its request's expectation, and latency of valid measured responses is counted in µs.

import { EngineHistogram } from "./_engine_histogram.ts";
import { connect, runtime, type Transport } from "./_engine_transport.ts";
import {
  CAPTURE,
  type EngineRequest,
  MISMATCH,
  NON_2XX,
  ProtocolError,
  ResponseParser,
  type ResponseSink,
  usesCapture,
} from "./_engine_http.ts";
import { type Arrival, type RatePhase, Schedule } from "./_engine_schedule.ts";

/** What the harness asks one engine process to do for an HTTP server. */
export interface EngineJob {
  /** `http`. */
  readonly kind: "http";
  /** Server address. */
  readonly hostname: string;
  readonly port: number;
  /** The requests of the rotation, encoded, with their expectations. */
  readonly requests: readonly EngineRequest[];
  /** Connections this process holds. */
  readonly connections: number;
  /** Requests in flight per connection. */
  readonly pipelining: number;
  /** Seconds of warm-up, then seconds measured (closed model; the open model's phases set their own). */
  readonly warmupSec: number;
  readonly durationSec: number;
  /** A request outstanding this long is a timeout; its connection is closed and opened again. */
  readonly timeoutSec: number;
  /** Where this process's first connection starts in the rotation (processes spread over it). */
  readonly firstRequest: number;
  /** The open model: the schedule's phases (the warm-up first, not measured), arrival spacing and its seed. */
  readonly open?: { readonly phases: readonly RatePhase[]; readonly arrival: Arrival; readonly seed: number };
  /** The endpoint of each request of the rotation, by index into the endpoints; absent: no counts per endpoint. */
  readonly endpoints?: readonly number[];
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
  /** Latency from when each valid response's request was due. */
  histogram: [number, number][];
}

/** What one engine process measured. */
export interface EngineCounts {
  /** Responses completed in the measured window, valid or not. */
  responses: number;
  /** Of those, the valid ones. */
  validResponses: number;
  /** Responses, in warm-up or measured window, whose status was not 2xx. */
  non2xx: number;
  /** 2xx responses, in warm-up or measured window, that differed from the expectation. */
  mismatches: number;
  /** Connection errors in the measured window (timeouts included). */
  errors: number;
  /** Requests in the measured window that timed out (open model: also those unanswered at the end). */
  timeouts: number;
  /** Bytes of measured responses. */
  bytes: number;
  /** Responses completed during the warm-up. */
  warmupResponses: number;
  /**
   * Closed model: responses completed after the window closed but before the engine stopped (its timer fires late
   * on a busy machine); neither measured nor warm-up, but work the server did and answered.
   */
  lateResponses: number;
  /** Requests written over the whole job (warm-up, window and after), answered or not. */
  sent: number;
  /** Length of the measured window. */
  durationMs: number;
  /** When it began (epoch milliseconds). */
  windowStartMs: number;
  /** The first response that was not valid, described. */
  firstMismatch: string | null;
  /** Non-zero counts of the latency histogram (µs) of valid measured responses, `[index, count]`. */
  histogram: [number, number][];
  /** The runtime the engine ran on, `bun 1.4.5` or `deno 2.9.6`. */
  runtime: string;
  /** Open model: the measured phases. */
  phases?: PhaseCounts[];
  /** Per endpoint, by the indices of `EngineJob.endpoints`. */
  endpoints?: EndpointCounts[];
}

/** A request in the open model that was due but found no idle connection: when it was due, and its phase. */
interface Waiting {
  readonly at: number;
  readonly phase: number;
}

/**
 * A due request sent this much later than its time is missed (not sent on time): timers fire a millisecond or two
 * late on a busy machine, which is in every latency anyway; ten milliseconds late means the load fell behind.
 */
const MISSED_AFTER_MS = 10;

/** Runs a job to the end of its measured window and returns what it counted. */
export function driveHttp(job: EngineJob): Promise<EngineCounts> {
  const encoded = job.requests.map((r) => new TextEncoder().encode(r.raw));
  const n = encoded.length;
  // Requests that carry the connection's captured value are encoded when sent.
  const templated = job.requests.map(usesCapture);
  const open = job.open;
  const capacity = job.pipelining;
  const warmupMs = open
    ? open.phases.filter((p) => !p.measured).reduce((a, p) => a + p.durationMs, 0)
    : job.warmupSec * 1000;
  const windowMs = open
    ? open.phases.filter((p) => p.measured).reduce((a, p) => a + p.durationMs, 0)
    : job.durationSec * 1000;
  const histogram = new EngineHistogram();
  const phases: { counts: PhaseCounts; histogram: EngineHistogram }[] = (open?.phases ?? []).map((p) => ({
    counts: {
      durationMs: p.durationMs,
      fromRate: p.fromRate,
      toRate: p.toRate,
      scheduled: 0,
      responses: 0,
      validResponses: 0,
      missedConnections: 0,
      missedClient: 0,
      histogram: [],
    },
    histogram: new EngineHistogram(),
  }));
  const endpointOf = job.endpoints;
  const endpoints = endpointOf
    ? Array.from({ length: Math.max(-1, ...endpointOf) + 1 }, () => ({
      responses: 0,
      validResponses: 0,
      warmupValidResponses: 0,
      histogram: new EngineHistogram(),
    }))
    : null;
  const counts: EngineCounts = {
    responses: 0,
    validResponses: 0,
    non2xx: 0,
    mismatches: 0,
    errors: 0,
    timeouts: 0,
    bytes: 0,
    warmupResponses: 0,
    lateResponses: 0,
    sent: 0,
    durationMs: windowMs,
    windowStartMs: 0,
    firstMismatch: null,
    histogram: [],
    runtime,
  };
  const started = performance.now();
  // The window's epoch start from the same clock that bounds it, not from a timer that fires late under load.
  const epochOf = (at: number) => Math.round(Date.now() - performance.now() + at);
  const measureFrom = started + warmupMs;
  const measureTo = measureFrom + windowMs;
  const timeoutMs = job.timeoutSec * 1000;
  const measured = (phase: number) => open ? open.phases[phase].measured : true;
  let stopping = false;
  const connections: Connection[] = [];
  // Open model: connections with room for a request, and due requests waiting for one.
  const idle: Connection[] = [];
  const waiting: Waiting[] = [];
  let waitingHead = 0;

  class Connection implements ResponseSink {
    // In-flight requests, oldest first, in a ring: rotation index, when it went out (closed model) or was due
    // (open model), and its phase.
    readonly #index = new Int32Array(capacity);
    readonly #sent = new Float64Array(capacity);
    readonly #phase = new Int32Array(capacity);
    #head = 0;
    #inFlight = 0;
    #next: number;
    #sentAt = 0;
    #sentPhase = 0;
    #parser = new ResponseParser(job.requests);
    #transport: Transport | null = null;
    /** Whether this side is closing the connection (a timeout), so a partial response is not the server's doing. */
    #closing = false;
    #pop = () => {
      const i = this.#index[this.#head];
      this.#sentAt = this.#sent[this.#head];
      this.#sentPhase = this.#phase[this.#head];
      this.#head = (this.#head + 1) % capacity;
      this.#inFlight--;
      return i;
    };

    constructor(first: number) {
      this.#next = first % n;
    }

    get ready(): boolean {
      return this.#transport !== null && this.#inFlight < capacity;
    }

    open(): void {
      this.#parser = new ResponseParser(job.requests);
      this.#head = 0;
      this.#inFlight = 0;
      connect(job.hostname, job.port, {
        open: (t) => {
          this.#transport = t;
          if (open) freed(this);
          else this.#fill();
        },
        data: (chunk) => {
          try {
            this.#parser.feed(chunk, this.#pop, this);
          } catch (error) {
            if (!(error instanceof ProtocolError)) throw error;
            this.mismatch(error.message);
            counts.mismatches++;
            this.#transport?.close();
            return;
          }
          if (open) freed(this);
          else this.#fill();
        },
        closed: () => {
          this.#transport = null;
          if (stopping) return;
          // The server closed the connection in the middle of a response: what it sent is a wrong, truncated answer.
          if (!this.#closing && this.#parser.partial > 0) {
            counts.mismatches++;
            this.mismatch(`truncated response: the server closed the connection after ${this.#parser.partial} bytes`);
          }
          this.#closing = false;
          if (performance.now() >= measureFrom) counts.errors++;
          // Open again, a moment later, so that a server refusing connections is not spun against.
          setTimeout(() => this.open(), 10);
        },
      });
    }

    /** Closed model: sends requests until `pipelining` are in flight. */
    #fill(): void {
      const t = this.#transport;
      // Past the window nothing more is measured: a request sent while the stop timer is late (a busy load machine)
      // would still run on the server, its side effects (queries, files) beyond the window's count.
      if (!t || stopping || (!open && performance.now() > measureTo)) return;
      while (this.#inFlight < capacity) {
        // A request carrying the captured value waits for every answer before it: one may change the value.
        if (templated[this.#skipUncaptured()] && this.#inFlight > 0) return;
        this.send(performance.now(), 0);
      }
    }

    /** Passes over requests that need a captured value the connection does not hold; returns the next to send. */
    #skipUncaptured(): number {
      for (let i = 0; i < n && templated[this.#next] && this.#parser.captured === null; i++) {
        this.#next = this.#next + 1 === n ? 0 : this.#next + 1;
      }
      return this.#next;
    }

    /** Sends the next request of the rotation; its latency runs from `at` (now, or when it was due). */
    send(at: number, phase: number): void {
      const next = this.#skipUncaptured();
      const slot = (this.#head + this.#inFlight) % capacity;
      this.#index[slot] = next;
      this.#sent[slot] = at;
      this.#phase[slot] = phase;
      this.#inFlight++;
      counts.sent++;
      const captured = this.#parser.captured;
      this.#transport!.write(
        templated[next] && captured !== null
          ? new TextEncoder().encode(job.requests[next].raw.replaceAll(CAPTURE, () => captured))
          : encoded[next],
      );
      this.#next = next + 1 === n ? 0 : next + 1;
    }

    response(index: number, verdict: number, bytes: number): void {
      const now = performance.now();
      if (verdict === NON_2XX) counts.non2xx++;
      else if (verdict === MISMATCH) counts.mismatches++;
      const e = endpoints ? endpoints[endpointOf![index]] : undefined;
      // The closed model counts what completes in the window; the open model what was due in a measured phase.
      if (open ? !measured(this.#sentPhase) : now < measureFrom) {
        counts.warmupResponses++;
        if (e && verdict === 0) e.warmupValidResponses++;
        return;
      }
      if (!open && now > measureTo) {
        counts.lateResponses++;
        return;
      }
      counts.responses++;
      counts.bytes += bytes;
      const p = open ? phases[this.#sentPhase] : undefined;
      if (p) p.counts.responses++;
      if (e) e.responses++;
      if (verdict === 0) {
        const us = Math.round((now - this.#sentAt) * 1000);
        counts.validResponses++;
        histogram.record(us);
        if (p) {
          p.counts.validResponses++;
          p.histogram.record(us);
        }
        if (e) {
          e.validResponses++;
          e.histogram.record(us);
        }
      }
    }

    wantsMismatch(): boolean {
      return counts.firstMismatch === null;
    }

    mismatch(text: string): void {
      counts.firstMismatch ??= text;
    }

    /** Requests still out (the open model counts those of measured phases as unanswered at the end). */
    outstanding(): number {
      let count = 0;
      for (let i = 0; i < this.#inFlight; i++) if (measured(this.#phase[(this.#head + i) % capacity])) count++;
      return count;
    }

    /** Closes the connection when its oldest request has waited longer than the timeout. */
    checkTimeout(now: number): void {
      if (this.#inFlight > 0 && now - this.#sent[this.#head] > timeoutMs) {
        if (now >= measureFrom) counts.timeouts++;
        this.#closing = true;
        this.#transport?.close();
        this.#transport = null;
      }
    }

    close(): void {
      this.#transport?.close();
    }
  }

  /** Open model: a connection has room; it takes the oldest waiting request, or waits for the next one due. */
  const freed = (c: Connection) => {
    while (c.ready && waitingHead < waiting.length && !stopping) {
      const w = waiting[waitingHead++];
      if (performance.now() - w.at > MISSED_AFTER_MS && measured(w.phase)) phases[w.phase].counts.missedConnections++;
      c.send(w.at, w.phase);
    }
    if (waitingHead > 1024 && waitingHead * 2 > waiting.length) {
      waiting.splice(0, waitingHead);
      waitingHead = 0;
    }
    if (c.ready && !idle.includes(c)) idle.push(c);
  };

  /** Open model: a request is due at `at`; it goes out on an idle connection or waits for one. */
  const due = (at: number, phase: number) => {
    if (measured(phase)) phases[phase].counts.scheduled++;
    let c = idle.pop();
    while (c && !c.ready) c = idle.pop();
    if (!c) {
      waiting.push({ at, phase });
      return;
    }
    if (performance.now() - at > MISSED_AFTER_MS && measured(phase)) phases[phase].counts.missedClient++;
    c.send(at, phase);
    if (c.ready) idle.push(c);
  };

  for (let c = 0; c < job.connections; c++) {
    const conn = new Connection(job.firstRequest + c);
    connections.push(conn);
    conn.open();
  }
  return new Promise((resolve) => {
    const watchdog = setInterval(() => {
      const now = performance.now();
      for (const c of connections) c.checkTimeout(now);
    }, 100);
    const finish = () => {
      stopping = true;
      clearInterval(watchdog);
      counts.windowStartMs = epochOf(measureFrom);
      if (open) {
        // Requests of a measured phase that were due but never answered count against the server.
        const unanswered = connections.reduce((a, c) => a + c.outstanding(), 0) +
          waiting.slice(waitingHead).filter((w) => measured(w.phase)).length;
        counts.timeouts += unanswered;
        counts.errors += unanswered;
        counts.phases = phases.filter((_, i) => measured(i)).map((p) => ({
          ...p.counts,
          histogram: p.histogram.sparse(),
        }));
      }
      for (const c of connections) c.close();
      counts.histogram = histogram.sparse();
      if (endpoints) counts.endpoints = endpoints.map((e) => ({ ...e, histogram: e.histogram.sparse() }));
      resolve(counts);
    };
    if (!open) {
      setTimeout(finish, measureTo - started);
      return;
    }
    const schedule = new Schedule(open.phases, open.arrival, open.seed);
    let next = schedule.next();
    let nextPhase = schedule.phase;
    const pump = () => {
      const now = performance.now() - started;
      while (next !== null && next <= now) {
        due(started + next, nextPhase);
        next = schedule.next();
        nextPhase = schedule.phase;
      }
      if (next !== null) {
        setTimeout(pump, Math.max(0, next - (performance.now() - started) - 1));
        return;
      }
      // Every request has been due: wait for the last answers, a little.
      const graceUntil = performance.now() + Math.min(timeoutMs, 2000);
      const settle = () => {
        const left = waiting.length - waitingHead + connections.reduce((a, c) => a + c.outstanding(), 0);
        if (left === 0 || performance.now() >= graceUntil) finish();
        else setTimeout(settle, 5);
      };
      settle();
    };
    pump();
  });
}
