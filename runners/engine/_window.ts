// The load engine's measured window: when it opens and closes on the engine's clock, and where an answer falls. In the
// closed model the window is a span of time after the warm-up (and may end early, when a count of answers is
// reached); in the open model an answer belongs where its request was due: a measured phase of the schedule or not.

import type { Clock } from "./clock.ts";
import { AFTER, WARMUP, WINDOW } from "./tally.ts";

/** The measured window of one load; see the module comment. */
export class Window {
  readonly #clock: Clock;
  readonly #warmupMs: number;
  readonly #lengthMs: number;
  readonly #measured: readonly boolean[] | null;
  #from = Infinity;
  #to = Infinity;
  #stopped = false;
  #started = false;

  /**
   * A window of `lengthMs` after `warmupMs`; in the open model `measured` says which phases of the schedule are
   * measured (the warm-up's is not).
   */
  constructor(clock: Clock, warmupMs: number, lengthMs: number, measured: readonly boolean[] | null) {
    this.#clock = clock;
    this.#warmupMs = warmupMs;
    this.#lengthMs = lengthMs;
    this.#measured = measured;
  }

  /** The load starts now: the warm-up runs, then the window. */
  start(): void {
    this.#started = true;
    this.#from = this.#clock.now() + this.#warmupMs;
    this.#to = this.#from + this.#lengthMs;
  }

  /** When the window opens and closes (clock milliseconds). */
  get from(): number {
    return this.#from;
  }
  get to(): number {
    return this.#to;
  }

  /** Its length: as planned, or as it ran when it ended early. */
  get durationMs(): number {
    return this.#to - this.#from;
  }

  /** When it opened, epoch milliseconds. */
  get startEpochMs(): number {
    return this.#clock.epochOf(this.#from);
  }

  /** Where an answer received now to a request of schedule phase `phase` falls: WARMUP, WINDOW or AFTER. */
  where(now: number, phase: number): number {
    if (this.#measured !== null) return this.#measured[phase] ? WINDOW : WARMUP;
    return now < this.#from ? WARMUP : now > this.#to ? AFTER : WINDOW;
  }

  /** Whether the window has opened (errors from here on count). */
  opened(now: number): boolean {
    return now >= this.#from;
  }

  /** Whether the load has started (the warm-up runs). */
  get started(): boolean {
    return this.#started;
  }

  /** Whether the closed model may send: the load has started, the window has not closed, the load has not stopped. */
  sending(now: number): boolean {
    return this.#started && !this.#stopped && now <= this.#to;
  }

  /** Whether the load has stopped (nothing more is sent or counted as a failure). */
  get stopped(): boolean {
    return this.#stopped;
  }

  /** Ends the window now, before its time (a count of answers was reached). */
  endNow(): void {
    this.#to = Math.min(this.#to, this.#clock.now());
  }

  /** Stops the load. */
  stop(): void {
    this.#stopped = true;
  }
}
