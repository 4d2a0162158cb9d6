// One load, as the engine runs it for HTTP and WebSocket alike: connections, a pump that makes requests go out (closed
// or scheduled), the measured window, a watchdog for timeouts, and the accounting at the end. Connections report what
// happens to them (an answer, an answer nobody asked for, a close) and the load counts it in its tally; nothing here
// knows a protocol. Every request of the window ends answered or unanswered (timed out, lost with its connection,
// outstanding at the end, never sent), and every unanswered one enters the latency histograms at no less than the
// timeout; an answer with no request in flight is counted as unasked and adds to nothing else. A connection still
// waiting for its first answer when the window opens that gets none within the larger of the planned hung bound and
// twice the window's median answer is counted as never answered, and not as hung: whether it is hung depends on a
// bound that one late answer elsewhere can raise, and neither of those moves with one answer.

import type { Clock, Timer } from "./clock.ts";
import type { InFlight } from "./in_flight.ts";
import { ClosedPump, type Pump, type PumpConnection, ScheduledPump } from "./_pump.ts";
import { type OpenSchedule, Schedule } from "./_schedule.ts";
import { type Tally, VALID, WARMUP, WINDOW } from "./tally.ts";
import type { CountedSpan } from "./_span.ts";
import { Window } from "./_window.ts";
import { HUNG_LATENCY_FACTOR, observedHungAfterMs } from "./_hung.ts";

/** What one load does. */
export interface LoadPlan {
  /** Closed model: warm-up, then the window (Infinity: until `answersToEnd` valid answers). */
  readonly warmupMs: number;
  readonly windowMs: number;
  /** A request unanswered this long is a timeout; its connection is closed (and opened again). */
  readonly timeoutMs: number;
  /**
   * Closed model: how long the requests in flight when the window closes may take to be answered; a connection with
   * one outstanding longer than this when the accounting ends is hung. Raised, when the window closes, to what the
   * window's answers took (see `observedHungAfterMs`).
   */
  readonly hungAfterMs: number;
  /** The open model: the schedule's phases (the warm-up first, not measured), arrival spacing, seed and offset. */
  readonly open?: OpenSchedule;
  /** Valid answers in the window after which it ends; null: it runs its length. */
  readonly answersToEnd: number | null;
  /** Called when the window opens and when the load ends (to read CPU counters over the window). */
  readonly edges?: { open(): void; end(): void };
  /** Where the load starts, clock milliseconds (connections open before; processes start together); now if absent. */
  readonly startAt?: number;
}

/** What the load needs of a connection (HTTP or WebSocket). */
export interface LoadConnection extends PumpConnection {
  /** Its requests in flight. */
  readonly inFlight: InFlight;
  /** Whether it is closed (reconnecting). */
  readonly gone: boolean;
  /** The load's marks: when it last closed (NaN: never) and when it last had an answer. */
  closedAt: number;
  lastAnswerAt: number;
  /** The load's count of its valid answers of the window, from its first answer on (the rate over its span). */
  counted?: CountedSpan;
  /**
   * Keep-alive off: when its current request was written, once its own new connection was open (the closed model's
   * response latency starts there); NaN on a connection that carries request after request.
   */
  readonly writtenAt: number;
  /** Opens it (again). */
  open(): void;
  /** Closes it from this side: its oldest request timed out, or its answers cannot be paired any more. */
  abandon(): void;
  /** Closes it at the end of the load. */
  close(): void;
}

/** How a connection tells the load what happened to it. */
export interface LoadEvents {
  /** The load's counters (responses kept for checks after the load go straight there). */
  readonly tally: Tally;
  /** The connection is open (again) and may send. */
  opened(c: LoadConnection): void;
  /** A request of schedule phase `phase` went out; its latency runs from `at` (in the closed model: now). */
  sent(at: number, phase: number): void;
  /** Keep-alive off: the new connection of `c`'s request is open, `ms` after it began connecting. */
  connected(c: LoadConnection, ms: number): void;
  /** An answer on `c`, its verdict and size, to a request whose latency started at `at`, of `phase`, rotation `index`. */
  answered(c: LoadConnection, verdict: number, bytes: number, at: number, phase: number, index: number): void;
  /** A request (latency from `at`, of `phase`) will never be answered: the server answered a later one instead. */
  skipped(at: number, phase: number): void;
  /** An answer came with no request in flight: described; the connection closes itself. */
  unasked(text: string): void;
  /** The connection has taken in what arrived (and may have room again). */
  progressed(c: LoadConnection): void;
  /**
   * The connection closed: by the `server`, by this side (`us`), at the end the server `announced` (an HTTP answer
   * that ended the connection's use, whichever side closed), or it never opened (`refused`: the connection or its
   * handshake failed). Its requests in flight are lost.
   */
  closed(c: LoadConnection, how: CloseCause): void;
  /** Whether the first mismatch still wants describing. */
  wantsMismatch(): boolean;
  /** A wrong answer, described. */
  mismatch(text: string): void;
  /** Bytes that are no valid answer at all (not the protocol, cut short): a mismatch, described. */
  broken(text: string): void;
  /** Something else that went wrong, described (the first is kept). */
  failure(text: string): void;
}

/** How a connection's close came about; see {@linkcode LoadEvents.closed}. */
export type CloseCause = "server" | "us" | "announced" | "refused";

/** Reconnects wait this long, so that a server refusing connections is not spun against (an announced close: none). */
const RECONNECT_DELAY_MS = 10;
/**
 * After the last answer, the load listens this long for answers nobody asked for (a server that answers twice is
 * one answer ahead on that connection for the rest of the load: the surplus shows when the requests stop).
 */
export const QUIET_MS = 100;
/** A server's close of a connection idle this long is its keep-alive timeout, not a drop. */
export const IDLE_CLOSE_MS = 1000;

/** One load; see the module comment. */
export class Load implements LoadEvents {
  readonly tally: Tally;
  readonly window: Window;
  readonly #plan: LoadPlan;
  readonly #clock: Clock;
  readonly #pump: Pump;
  #connections: readonly LoadConnection[] = [];
  #finish: () => void = () => {};
  #ending = false;
  /** The longest time an answer of the window took, ms; and the hung bound in force. */
  #longestAnswerMs = 0;
  #hungMs: number;
  /** Connections with an answer since they last opened: a hung one without is one the server never served. */
  readonly #served = new WeakSet<LoadConnection>();
  /** The connections still waiting for their first answer when the window opened; each one's first answer from then. */
  #unservedAtOpen: readonly LoadConnection[] = [];
  readonly #answeredAfterOpen = new WeakMap<LoadConnection, number>();
  /** Each connection's hung requests, and of those the ones it had no answer to since it opened. */
  readonly #hung = new Map<LoadConnection, { all: number; unserved: number }>();

  /** A load following `plan`, counting in `tally`, on `clock`. */
  constructor(plan: LoadPlan, clock: Clock, tally: Tally) {
    this.#plan = plan;
    this.#clock = clock;
    this.tally = tally;
    this.#hungMs = plan.hungAfterMs;
    const open = plan.open;
    const warmupMs = open
      ? open.phases.filter((p) => !p.measured).reduce((a, p) => a + p.durationMs, 0)
      : plan.warmupMs;
    const windowMs = open ? open.phases.filter((p) => p.measured).reduce((a, p) => a + p.durationMs, 0) : plan.windowMs;
    this.window = new Window(clock, warmupMs, windowMs, open ? open.phases.map((p) => p.measured) : null);
    this.#pump = open
      ? new ScheduledPump(
        clock,
        new Schedule(open.phases, open.arrival, open.seed, open.offset ?? 0),
        tally,
        this.window,
        plan.timeoutMs,
        (at, phase) => this.#expired(at, phase),
      )
      : new ClosedPump(clock, this.window);
  }

  /** Runs the load on `connections` (opening them when `openThem`), to the end of its accounting. */
  run(connections: readonly LoadConnection[], openThem: boolean): Promise<void> {
    this.#connections = connections;
    for (const c of connections) {
      c.closedAt = NaN;
      c.lastAnswerAt = this.#clock.now();
    }
    return new Promise((resolve) => {
      const timers: Timer[] = [];
      this.#finish = () => {
        this.#finish = () => {};
        this.#plan.edges?.end();
        for (const t of timers) t.cancel();
        this.#end();
        resolve();
      };
      if (openThem) { for (const c of connections) c.open(); }
      const start = () => timers.push(...this.#start());
      const wait = (this.#plan.startAt ?? -Infinity) - this.#clock.now();
      if (wait > 0) timers.push(this.#clock.after(wait, start));
      else start();
    });
  }

  /** Opens the window and starts the pump, the watchdog and the window's end; returns their timers. */
  #start(): Timer[] {
    this.window.start();
    const timers = [
      this.#clock.every(Math.min(100, this.#plan.timeoutMs / 4), () => this.#checkTimeouts()),
      this.#clock.after(this.window.from - this.#clock.now(), () => this.#windowOpened()),
    ];
    const edges = this.#plan.edges;
    if (edges) timers.push(this.#clock.after(this.window.from - this.#clock.now(), edges.open));
    for (const c of this.#connections) if (!c.gone) this.#pump.ready(c);
    if (this.#pump instanceof ScheduledPump) {
      // Every request has been due: each still out gets its full timeout.
      this.#pump.start(() => this.#drain(this.#plan.timeoutMs));
    } else if (Number.isFinite(this.window.to)) {
      timers.push(this.#clock.after(this.window.to - this.#clock.now(), () => this.#windowClosed()));
    }
    return timers;
  }

  opened(c: LoadConnection): void {
    if (!Number.isNaN(c.closedAt)) {
      this.tally.reconnects++;
      this.tally.reconnectMs += this.#clock.now() - c.closedAt;
      c.closedAt = NaN;
    }
    c.lastAnswerAt = this.#clock.now();
    this.#served.delete(c);
    if (this.window.started) this.#pump.ready(c);
  }

  sent(at: number, phase: number): void {
    this.tally.sent++;
    if (this.window.where(at, phase) === WINDOW) this.tally.sentInWindow++;
  }

  connected(c: LoadConnection, ms: number): void {
    if (this.window.where(this.#clock.now(), c.inFlight.phaseOfOldest) === WINDOW) {
      this.tally.connects.record(Math.round(ms * 1000));
    }
  }

  answered(c: LoadConnection, verdict: number, bytes: number, at: number, phase: number, index: number): void {
    const now = this.#clock.now();
    c.lastAnswerAt = now;
    this.#served.add(c);
    const where = this.window.where(now, phase);
    // The request's whole time: from when it went out (a new connection's connect included), or was due.
    const totalUs = Math.round((now - at) * 1000);
    if (where !== WARMUP && now - at > this.#plan.timeoutMs && !this.window.stopped) {
      // An answer after its timeout is a timeout: it adds to no figure but the unanswered.
      this.tally.verdict(verdict);
      this.#timedOut(c);
      this.tally.lost(totalUs, phase);
      return;
    }
    if (this.window.opened(now) && !this.#answeredAfterOpen.has(c)) this.#answeredAfterOpen.set(c, now);
    // Keep-alive off, closed model: the response's latency starts when its bytes were written, its connect timed
    // apart (and in the total). The open model's latency runs from when the request was due, connect and all.
    const written = c.writtenAt;
    const perRequest = !Number.isNaN(written);
    const us = perRequest && !this.#plan.open ? Math.round((now - written) * 1000) : totalUs;
    this.tally.answer(where, verdict, bytes, us, phase, index, now, c.counted ??= this.tally.span());
    if (where === WINDOW) this.#longestAnswerMs = Math.max(this.#longestAnswerMs, now - at);
    if (perRequest && where === WINDOW && verdict === VALID) this.tally.totals.record(totalUs);
    const end = this.#plan.answersToEnd;
    if (end !== null && verdict === VALID && this.tally.validResponses >= end && this.window.sending(now)) {
      this.window.endNow();
      this.#drain(this.#hungBound());
    }
  }

  skipped(at: number, phase: number): void {
    const now = this.#clock.now();
    if (this.#plan.open ? this.tally.measured(phase) : this.window.opened(now)) {
      this.tally.lost(this.#censored(now, at), phase);
    }
  }

  unasked(text: string): void {
    this.tally.unasked++;
    this.tally.failure(text);
  }

  progressed(c: LoadConnection): void {
    this.#pump.ready(c);
  }

  closed(c: LoadConnection, how: CloseCause): void {
    if (this.window.stopped) return;
    const now = this.#clock.now();
    const inUse = c.inFlight.length > 0 || now - c.lastAnswerAt < IDLE_CLOSE_MS;
    if (this.window.opened(now)) {
      if (how === "announced") this.tally.announcedCloses++;
      else this.tally.errors++;
      if (how === "server" && inUse) this.tally.dropped++;
      else if (how === "server") this.tally.idleCloses++;
    }
    this.#lose(c, now);
    if (Number.isNaN(c.closedAt)) c.closedAt = now;
    this.#clock.after(how === "announced" ? 0 : RECONNECT_DELAY_MS, () => this.window.stopped || c.open());
  }

  wantsMismatch(): boolean {
    return this.tally.wantsMismatch();
  }

  mismatch(text: string): void {
    this.tally.mismatch(text);
  }

  broken(text: string): void {
    this.tally.mismatches++;
    this.tally.mismatch(text);
  }

  failure(text: string): void {
    this.tally.failure(text);
  }

  /** The requests in flight on `c` will never be answered: those of the window are counted unanswered. */
  #lose(c: LoadConnection, now: number): void {
    const open = this.#plan.open !== undefined;
    c.inFlight.forEach((at, phase) => {
      if (open ? this.tally.measured(phase) : this.window.opened(now)) this.tally.lost(this.#censored(now, at), phase);
    });
    c.inFlight.clear();
  }

  /** Open model: a request waited for a connection past its timeout; it is not sent any more. */
  #expired(at: number, phase: number): void {
    if (!this.tally.measured(phase)) return;
    this.tally.notSent++;
    this.tally.lost(this.#censored(this.#clock.now(), at), phase);
  }

  /** The latency an unanswered request enters the histograms at: its wait so far, and no less than the timeout. */
  #censored(now: number, at: number): number {
    return Math.round(Math.max(now - at, this.#plan.timeoutMs) * 1000);
  }

  /**
   * A request of the window timed out. In the closed model its connection hung too: the request was out longer than
   * the hung bound (never more than the timeout), and a connection stuck mid-window is no better than one stuck at its
   * end (the open model's requests run from when they were due: unanswered says it).
   */
  #timedOut(c: LoadConnection): void {
    this.tally.timeouts++;
    if (!this.#plan.open) this.#hang(c, !this.#served.has(c));
  }

  /** Closed model: `c` hung (`unserved`: with no answer since it opened); counted at the end, see `#countHung`. */
  #hang(c: LoadConnection, unserved: boolean): void {
    const h = this.#hung.get(c) ?? { all: 0, unserved: 0 };
    h.all++;
    if (unserved) h.unserved++;
    this.#hung.set(c, h);
  }

  /** The window opens: the connections waiting for their first answer since they opened now are watched. */
  #windowOpened(): void {
    this.#unservedAtOpen = this.#connections.filter((c) => !this.#served.has(c) && (c.inFlight.length > 0 || !c.ready));
  }

  /**
   * Counts the connections never answered, and the hung ones among the others: a connection the server never served
   * is judged as such, whether or not its request outlived a hung bound that other answers raised. Of the connections
   * waiting for their first answer when the window opened, one is never answered when that answer did not come within
   * `waitMs` of the window's opening (a first answer later than that is none, as an answer after its timeout is none).
   * `waitMs` is the larger of the planned hung bound and twice the window's median answer: a slow server leaves no
   * connection unserved, and the warm-up gives a server time to take its connections in; neither moves with one
   * answer, as the raised bound does.
   */
  #countHung(waitMs: number): void {
    const deadline = this.window.from + waitMs;
    const never = new Set(this.#unservedAtOpen.filter((c) => !(this.#answeredAfterOpen.get(c)! <= deadline)));
    this.tally.connections = this.#connections.length;
    this.tally.neverAnswered = never.size;
    for (const [c, h] of this.#hung) {
      if (never.has(c)) continue;
      this.tally.hung += h.all;
      this.tally.hungNeverAnswered += h.unserved;
    }
  }

  /** Closes every connection whose oldest request has waited longer than the timeout. */
  #checkTimeouts(): void {
    const now = this.#clock.now();
    for (const c of this.#connections) {
      if (c.gone || c.inFlight.length === 0 || now - c.inFlight.oldestAt <= this.#plan.timeoutMs) continue;
      if (this.#plan.open ? this.tally.measured(c.inFlight.phaseOfOldest) : this.window.opened(now)) this.#timedOut(c);
      this.tally.failure(`a request had no answer within ${this.#plan.timeoutMs / 1000} s`);
      c.abandon();
    }
  }

  /** Closed model: the window has closed; the requests in flight are counted and get the hung bound to finish. */
  #windowClosed(): void {
    this.tally.outstandingAtEnd = this.#connections.reduce((a, c) => a + c.inFlight.length, 0);
    this.#drain(this.#hungBound());
  }

  /**
   * Closed model, at the window's end: the hung bound raised to what the window's answers took, recorded. A request
   * out no longer than this server's answers ordinarily take is slow, not hung.
   */
  #hungBound(): number {
    if (this.#plan.open || this.#ending) return this.#hungMs;
    this.#hungMs = observedHungAfterMs(this.#plan.hungAfterMs, this.#longestAnswerMs, this.#plan.timeoutMs);
    this.tally.hungAfterMs = this.#hungMs;
    return this.#hungMs;
  }

  /** Waits up to `graceMs` for the requests still out, then listens for unasked answers, then ends. */
  #drain(graceMs: number): void {
    if (this.#ending) return;
    this.#ending = true;
    const until = this.#clock.now() + graceMs;
    const check = () => {
      if (this.#outstanding() === 0 || this.#clock.now() >= until) this.#clock.after(QUIET_MS, () => this.#finish());
      else this.#clock.after(5, check);
    };
    check();
  }

  /** Requests sent or due and not answered. */
  #outstanding(): number {
    let n = this.#pump instanceof ScheduledPump ? this.#pump.waiting() : 0;
    for (const c of this.#connections) n += c.inFlight.length;
    return n;
  }

  /** Counts what is still unanswered and the hung connections, stops the load and closes every connection. */
  #end(): void {
    const now = this.#clock.now();
    // The median of the window's answers, before the requests still out join the histogram.
    const waitMs = Math.max(this.#plan.hungAfterMs, HUNG_LATENCY_FACTOR * this.tally.histogram.quantile(0.5) / 1000);
    for (const c of this.#connections) {
      // Hung is the closed model's question (the open model's requests run from when they were due: unanswered says it).
      if (!this.#plan.open && c.inFlight.length > 0 && now - c.inFlight.oldestAt > this.#hungMs) {
        // Its first request since it opened may still be out: the server never served it (a server that takes in
        // new connections slower than they come leaves them in the kernel's accept queue, requests written, unread).
        this.#hang(c, !this.#served.has(c));
      }
      this.#lose(c, now);
    }
    this.#countHung(waitMs);
    if (this.#pump instanceof ScheduledPump) {
      this.#pump.stop();
      for (const w of this.#pump.drainWaiting()) {
        this.tally.notSent++;
        this.tally.lost(this.#censored(now, w.at), w.phase);
      }
    }
    this.window.stop();
    for (const c of this.#connections) c.close();
  }
}
