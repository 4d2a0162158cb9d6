// The load engine's pumps: what makes requests go out. The closed pump keeps every connection as full as it may be
// while the window is open (the next request goes out when an answer comes). The scheduled pump (open model) sends
// each request when the schedule says it is due, on a connection with room, round-robin; a due request that finds
// none waits for the first that frees up, and its latency still runs from when it was due.

import type { Clock, Timer } from "./clock.ts";
import type { Schedule } from "./_schedule.ts";
import type { Tally } from "./tally.ts";
import type { Window } from "./_window.ts";

/** What a pump needs of a connection. */
export interface PumpConnection {
  /** Whether it is open and has room for another request now. */
  readonly ready: boolean;
  /** Sends its next request; its latency runs from `at`, and it belongs to phase `phase` of the schedule. */
  send(at: number, phase: number): void;
  /** The scheduled pump's mark: the connection is in its queue of connections with room. */
  queued: boolean;
}

/** A pump: told when a connection has room. */
export interface Pump {
  /** Connection `c` opened, or got answers: it may have room. */
  ready(c: PumpConnection): void;
}

/** The closed model's pump: each connection sends until it is full, while the window is open. */
export class ClosedPump implements Pump {
  readonly #clock: Clock;
  readonly #window: Window;

  /** A pump sending until `window` closes. */
  constructor(clock: Clock, window: Window) {
    this.#clock = clock;
    this.#window = window;
  }

  /** Fills `c`. */
  ready(c: PumpConnection): void {
    // Past the window nothing more is sent: a request sent while the stop timer is late (a busy load machine) would
    // still run on the server, its side effects (queries, files) beyond the window's count.
    const now = this.#clock.now();
    if (!this.#window.sending(now)) return;
    while (c.ready) c.send(now, 0);
  }
}

/**
 * A due request sent this much later than its time is missed (not sent on time): timers fire a millisecond or two
 * late on a busy machine, which is in every latency anyway; ten milliseconds late means the load fell behind.
 */
export const MISSED_AFTER_MS = 10;

/** The open model's pump; see the module comment. */
export class ScheduledPump implements Pump {
  readonly #clock: Clock;
  readonly #schedule: Schedule;
  readonly #tally: Tally;
  readonly #window: Window;
  #idle: PumpConnection[] = [];
  #idleHead = 0;
  // Due requests waiting for a connection: when each was due, and its phase.
  #waitingAt: number[] = [];
  #waitingPhase: number[] = [];
  #waitingHead = 0;
  #timer: Timer | null = null;
  // The schedule's state once started: its origin, the next due time (ms from it; its phase is the schedule's), and who
  // to tell at its end.
  #startedAt = 0;
  #next: number | null = null;
  #done: (() => void) | null = null;
  readonly #timeoutMs: number;
  readonly #expired: (at: number, phase: number) => void;

  /**
   * A pump sending `schedule`'s requests, counting in `tally`, until `window` stops. A request that has waited for a
   * connection longer than `timeoutMs` since it was due is not sent any more: `expired` is told instead.
   */
  constructor(
    clock: Clock,
    schedule: Schedule,
    tally: Tally,
    window: Window,
    timeoutMs = Infinity,
    expired: (at: number, phase: number) => void = () => {},
  ) {
    this.#clock = clock;
    this.#schedule = schedule;
    this.#tally = tally;
    this.#window = window;
    this.#timeoutMs = timeoutMs;
    this.#expired = expired;
  }

  /** Runs the schedule from now; calls `done` once every request has been due. */
  start(done: () => void): void {
    this.#startedAt = this.#clock.now();
    this.#next = this.#schedule.next();
    this.#done = done;
    this.#tick();
  }

  /** Sends every request due by now; calls `done` once the last has been due. */
  #catchUp(): void {
    const now = this.#clock.now() - this.#startedAt;
    while (this.#next !== null && this.#next <= now) {
      this.#due(this.#startedAt + this.#next, this.#schedule.phase);
      this.#next = this.#schedule.next();
    }
    if (this.#next === null && this.#done !== null) {
      const done = this.#done;
      this.#done = null;
      this.#timer?.cancel();
      this.#timer = null;
      done();
    }
  }

  #tick = (): void => {
    this.#timer = null;
    if (this.#window.stopped) return;
    this.#catchUp();
    if (this.#next === null) return;
    // A millisecond early (timers fire late), but never before the next request is due: no spinning.
    const wait = this.#next - (this.#clock.now() - this.#startedAt);
    this.#timer = this.#clock.after(Math.max(wait - 1, Math.min(1, wait)), this.#tick);
  };

  /** Stops sending. */
  stop(): void {
    this.#timer?.cancel();
  }

  /** A request is due at `at`: it goes out on a connection with room, or waits for one. */
  #due(at: number, phase: number): void {
    this.#tally.scheduled(phase);
    const c = this.#takeIdle();
    if (c === null) {
      this.#waitingAt.push(at);
      this.#waitingPhase.push(phase);
      return;
    }
    this.#late(at, phase, false);
    c.send(at, phase);
    if (c.ready) this.#queue(c);
  }

  /** Connection `c` has room: it takes the oldest waiting requests, or waits for the next one due. */
  ready(c: PumpConnection): void {
    while (c.ready && this.#waitingHead < this.#waitingAt.length && !this.#window.stopped) {
      const at = this.#waitingAt[this.#waitingHead];
      const phase = this.#waitingPhase[this.#waitingHead++];
      if (this.#clock.now() - at > this.#timeoutMs) {
        this.#expired(at, phase);
        continue;
      }
      this.#late(at, phase, true);
      c.send(at, phase);
    }
    if (this.#waitingHead > 1024 && this.#waitingHead * 2 > this.#waitingAt.length) {
      this.#waitingAt.splice(0, this.#waitingHead);
      this.#waitingPhase.splice(0, this.#waitingHead);
      this.#waitingHead = 0;
    }
    if (c.ready) this.#queue(c);
    // Timers fire a millisecond apart at best, answers more often at high rates: requests due since the last timer go
    // out with an answer rather than all at once at the next timer.
    if (this.#done !== null && !this.#window.stopped) this.#catchUp();
  }

  /** Due requests still waiting for a connection. */
  waiting(): number {
    return this.#waitingAt.length - this.#waitingHead;
  }

  /** Takes every request of a measured phase still waiting (they will never be sent): when each was due, its phase. */
  drainWaiting(): { at: number; phase: number }[] {
    const out: { at: number; phase: number }[] = [];
    for (let i = this.#waitingHead; i < this.#waitingAt.length; i++) {
      if (this.#tally.measured(this.#waitingPhase[i])) {
        out.push({ at: this.#waitingAt[i], phase: this.#waitingPhase[i] });
      }
    }
    this.#waitingAt = [];
    this.#waitingPhase = [];
    this.#waitingHead = 0;
    return out;
  }

  /** Counts how late a request due at `at` goes out now. */
  #late(at: number, phase: number, waitedForConnection: boolean): void {
    const late = this.#clock.now() - at;
    this.#tally.sentLate(phase, Math.round(late * 1000));
    if (late > MISSED_AFTER_MS) this.#tally.missed(phase, waitedForConnection);
  }

  #queue(c: PumpConnection): void {
    if (c.queued) return;
    c.queued = true;
    this.#idle.push(c);
  }

  /** The connection that has waited longest with room, or null. */
  #takeIdle(): PumpConnection | null {
    while (this.#idleHead < this.#idle.length) {
      const c = this.#idle[this.#idleHead++];
      c.queued = false;
      if (c.ready) {
        this.#compact();
        return c;
      }
    }
    this.#compact();
    return null;
  }

  #compact(): void {
    if (this.#idleHead === this.#idle.length) {
      this.#idle.length = 0;
      this.#idleHead = 0;
    } else if (this.#idleHead > 1024 && this.#idleHead * 2 > this.#idle.length) {
      this.#idle.splice(0, this.#idleHead);
      this.#idleHead = 0;
    }
  }
}
