// A clock for the engine's tests: time stands still until `advance` moves it, firing every timer that falls due on the
// way, in order. Not part of the engine's program.

import type { Clock, Timer } from "./clock.ts";

interface Pending {
  at: number;
  readonly fn: () => void;
  readonly every: number | null;
  cancelled: boolean;
}

/** A {@linkcode Clock} that moves only when told. */
export class FakeClock implements Clock {
  #now = 0;
  #timers: Pending[] = [];
  readonly #minTimerMs: number;

  /** A clock whose timers fire no sooner than `minTimerMs` after they are set, as Bun's and Deno's do (1 ms). */
  constructor(minTimerMs = 0) {
    this.#minTimerMs = minTimerMs;
  }

  /** Milliseconds since the clock was made. */
  now(): number {
    return this.#now;
  }

  /** A fixed epoch: moment 0 is 1,000,000 ms after the epoch. */
  epochOf(at: number): number {
    return Math.round(1_000_000 + at);
  }

  /** A timer due `ms` from now. */
  after(ms: number, fn: () => void): Timer {
    return this.#add(ms, fn, null);
  }

  /** A timer due every `ms`. */
  every(ms: number, fn: () => void): Timer {
    return this.#add(ms, fn, ms);
  }

  #add(ms: number, fn: () => void, every: number | null): Timer {
    const pending: Pending = { at: this.#now + Math.max(this.#minTimerMs, ms), fn, every, cancelled: false };
    this.#timers.push(pending);
    return { cancel: () => pending.cancelled = true };
  }

  /** Moves time forward by `ms`, firing each timer due on the way at its own time. */
  advance(ms: number): void {
    const until = this.#now + ms;
    while (true) {
      this.#timers = this.#timers.filter((t) => !t.cancelled);
      const next = this.#timers.reduce<Pending | null>((a, t) => a === null || t.at < a.at ? t : a, null);
      if (next === null || next.at > until) break;
      this.#now = Math.max(this.#now, next.at);
      if (next.every === null) next.cancelled = true;
      else next.at += Math.max(next.every, 1e-3);
      next.fn();
    }
    this.#now = until;
  }

  /** Timers still pending. */
  get pending(): number {
    return this.#timers.filter((t) => !t.cancelled).length;
  }
}
