// The load engine's clock: milliseconds from an arbitrary origin, timers, and the epoch time of a moment. The real one
// reads performance.now(); tests drive the engine's parts with a fake one that moves only when told (see
// _fake_clock.ts), so schedules, timeouts and the end of a window are tested without waiting.

/** Time and timers, as the engine's parts use them. */
export interface Clock {
  /** Milliseconds from the clock's origin. */
  now(): number;
  /** The epoch milliseconds of moment `at` of this clock. */
  epochOf(at: number): number;
  /** Calls `fn` once, `ms` from now. */
  after(ms: number, fn: () => void): Timer;
  /** Calls `fn` every `ms`. */
  every(ms: number, fn: () => void): Timer;
}

/** A timer that can be cancelled. */
export interface Timer {
  cancel(): void;
}

/** The clock of the process: performance.now() and the runtime's timers. */
export const realClock: Clock = {
  now: () => performance.now(),
  // From the same clock that bounds the window, not from a timer that fires late under load.
  epochOf: (at) => Math.round(Date.now() - performance.now() + at),
  after(ms, fn) {
    // A moment already past fires at once (Bun warns about negative delays).
    const id = setTimeout(fn, Math.max(0, ms));
    return { cancel: () => clearTimeout(id) };
  },
  every(ms, fn) {
    const id = setInterval(fn, ms);
    return { cancel: () => clearInterval(id) };
  },
};
