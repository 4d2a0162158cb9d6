// One load, as the engine runs it for HTTP and WebSocket alike: connections, a pump that makes requests go out (closed
// or scheduled), the measured window, a watchdog for timeouts, and the accounting at the end. Connections report what
// happens to them (an answer, a close) and the load counts it in its tally; nothing here knows a protocol.

import type { Clock, Timer } from "./_engine_clock.ts";
import type { InFlight } from "./_engine_in_flight.ts";
import { ClosedPump, type Pump, type PumpConnection, ScheduledPump } from "./_engine_pump.ts";
import { type Arrival, type RatePhase, Schedule } from "./_engine_schedule.ts";
import { type Tally, VALID, WINDOW } from "./_engine_tally.ts";
import { Window } from "./_engine_window.ts";

/** What one load does. */
export interface LoadPlan {
  /** Closed model: warm-up, then the window (Infinity: until `answersToEnd` valid answers). */
  readonly warmupMs: number;
  readonly windowMs: number;
  /** A request unanswered this long is a timeout; its connection is closed. */
  readonly timeoutMs: number;
  /** The open model: the schedule's phases (the warm-up first, not measured), arrival spacing and its seed. */
  readonly open?: { readonly phases: readonly RatePhase[]; readonly arrival: Arrival; readonly seed: number };
  /** Valid answers in the window after which it ends; null: it runs its length. */
  readonly answersToEnd: number | null;
  /** Whether a connection that closes is opened again (else it is gone for the rest of the load). */
  readonly reconnect: boolean;
  /** Called when the window opens and when the load ends (to read CPU counters over the window). */
  readonly edges?: { open(): void; end(): void };
}

/** What the load needs of a connection (HTTP or WebSocket). */
export interface LoadConnection extends PumpConnection {
  /** Its requests in flight. */
  readonly inFlight: InFlight;
  /** Whether it is closed (reconnecting, or gone for good). */
  readonly gone: boolean;
  /** Opens it (again). */
  open(): void;
  /** Closes it from this side: its oldest request timed out. */
  abandon(): void;
  /** Closes it at the end of the load. */
  close(): void;
}

/** How a connection tells the load what happened to it. */
export interface LoadEvents {
  /** A request of schedule phase `phase` went out. */
  sent(phase: number): void;
  /** An answer, its verdict and size, to a request whose latency started at `at`, of `phase`, rotation `index`. */
  answered(verdict: number, bytes: number, at: number, phase: number, index: number): void;
  /** The connection has taken in what arrived (and may have room again). */
  progressed(c: LoadConnection): void;
  /** The connection closed: by the server (`byServer`), or by this side after a timeout. */
  closed(c: LoadConnection, byServer: boolean): void;
  /** Whether the first mismatch still wants describing. */
  wantsMismatch(): boolean;
  /** A wrong answer, described. */
  mismatch(text: string): void;
  /** Bytes that are no valid answer at all (not the protocol, cut short): a mismatch, described. */
  broken(text: string): void;
  /** Something else that went wrong, described (the first is kept). */
  failure(text: string): void;
}

/** Reconnects wait this long, so that a server refusing connections is not spun against. */
const RECONNECT_DELAY_MS = 10;

/** One load; see the module comment. */
export class Load implements LoadEvents {
  readonly tally: Tally;
  readonly window: Window;
  readonly #plan: LoadPlan;
  readonly #clock: Clock;
  readonly #pump: Pump;
  #connections: readonly LoadConnection[] = [];
  #finish: () => void = () => {};

  /** A load following `plan`, counting in `tally`, on `clock`. */
  constructor(plan: LoadPlan, clock: Clock, tally: Tally) {
    this.#plan = plan;
    this.#clock = clock;
    this.tally = tally;
    const open = plan.open;
    const warmupMs = open
      ? open.phases.filter((p) => !p.measured).reduce((a, p) => a + p.durationMs, 0)
      : plan.warmupMs;
    const windowMs = open ? open.phases.filter((p) => p.measured).reduce((a, p) => a + p.durationMs, 0) : plan.windowMs;
    this.window = new Window(clock, warmupMs, windowMs, open ? open.phases.map((p) => p.measured) : null);
    this.#pump = open
      ? new ScheduledPump(clock, new Schedule(open.phases, open.arrival, open.seed), tally, this.window)
      : new ClosedPump(clock, this.window);
  }

  /** Runs the load on `connections` (opening them when `openThem`), to the end of its accounting. */
  run(connections: readonly LoadConnection[], openThem: boolean): Promise<void> {
    this.#connections = connections;
    this.window.start();
    return new Promise((resolve) => {
      const watchdog = this.#clock.every(Math.min(100, this.#plan.timeoutMs / 4), () => this.#checkTimeouts());
      let timer: Timer | null = null;
      const edges = this.#plan.edges;
      const opening = edges ? this.#clock.after(this.window.from - this.#clock.now(), edges.open) : null;
      this.#finish = () => {
        this.#finish = () => {};
        edges?.end();
        opening?.cancel();
        timer?.cancel();
        watchdog.cancel();
        this.#end();
        resolve();
      };
      for (const c of connections) {
        if (openThem) c.open();
        else if (!c.gone) this.#pump.ready(c);
      }
      if (this.#pump instanceof ScheduledPump) this.#pump.start(() => this.#settle());
      else if (Number.isFinite(this.window.to)) {
        timer = this.#clock.after(this.window.to - this.#clock.now(), () => this.#finish());
      }
    });
  }

  sent(phase: number): void {
    this.tally.sent++;
    if (this.window.where(this.#clock.now(), phase) === WINDOW) this.tally.sentInWindow++;
  }

  answered(verdict: number, bytes: number, at: number, phase: number, index: number): void {
    const now = this.#clock.now();
    const where = this.window.where(now, phase);
    this.tally.answer(where, verdict, bytes, Math.round((now - at) * 1000), phase, index);
    const end = this.#plan.answersToEnd;
    if (end !== null && verdict === VALID && this.tally.validResponses >= end && this.window.sending(now)) {
      this.window.endNow();
      this.#finish();
    }
  }

  progressed(c: LoadConnection): void {
    this.#pump.ready(c);
  }

  closed(c: LoadConnection, byServer: boolean): void {
    if (this.window.stopped) return;
    if (byServer) this.tally.dropped++;
    if (this.window.opened(this.#clock.now())) this.tally.errors++;
    if (this.#plan.reconnect) this.#clock.after(RECONNECT_DELAY_MS, () => this.window.stopped || c.open());
    else if (this.#connections.every((x) => x.gone)) {
      // Nothing is left to measure with.
      this.window.endNow();
      this.#finish();
    }
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

  /** Closes every connection whose oldest request has waited longer than the timeout. */
  #checkTimeouts(): void {
    const now = this.#clock.now();
    for (const c of this.#connections) {
      if (c.gone || c.inFlight.length === 0 || now - c.inFlight.oldestAt <= this.#plan.timeoutMs) continue;
      if (this.window.opened(now)) this.tally.timeouts++;
      this.tally.failure(`a request had no answer within ${this.#plan.timeoutMs / 1000} s`);
      c.abandon();
    }
  }

  /** Open model: every request has been due; waits a little for the last answers. */
  #settle(): void {
    const until = this.#clock.now() + Math.min(this.#plan.timeoutMs, 2000);
    const check = () => {
      if (this.#outstanding() === 0 || this.#clock.now() >= until) this.#finish();
      else this.#clock.after(5, check);
    };
    check();
  }

  /** Requests of the window sent or due and not answered. */
  #outstanding(): number {
    let n = this.#pump instanceof ScheduledPump ? this.#pump.waiting() : 0;
    for (const c of this.#connections) c.inFlight.forEach((_, phase) => this.tally.measured(phase) && n++);
    return n;
  }

  /** Stops the load, counts what the open model's window left unanswered, and closes every connection. */
  #end(): void {
    if (this.#plan.open) this.tally.unansweredAtEnd = this.#outstanding();
    this.window.stop();
    if (this.#pump instanceof ScheduledPump) this.#pump.stop();
    for (const c of this.#connections) c.close();
  }
}
