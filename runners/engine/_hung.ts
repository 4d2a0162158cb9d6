// The hung bound a closed-model load applies when its window closes, apart from accounting.ts so that the engine's
// program (a list of files copied to load machines) needs nothing of the schema or platform layers.

/** How many times the longest answer of a window a request still out after it may take before it counts as hung. */
export const HUNG_LATENCY_FACTOR = 2;

/**
 * The hung bound a closed-model load applies when its window closes: the planned bound (`hungAfterMs` (accounting.ts)), raised
 * to {@linkcode HUNG_LATENCY_FACTOR} times the longest time an answer of the same window took, and never more than the
 * request timeout. A request out for less than what this server's answers ordinarily took is slow, not hung; a
 * server that stops answering still leaves its requests out past the bound its answers set.
 *
 * @param plannedMs The bound planned from the window and the timeout.
 * @param longestAnswerMs The longest any answer of the window took, milliseconds (0: none).
 * @param timeoutMs The request timeout.
 * @returns The bound, milliseconds.
 *
 * @example Answers of 4 s give the requests still out 8 s; answers of 10 ms leave the planned bound
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { observedHungAfterMs } from "./_hung.ts";
 *
 * assertEquals([observedHungAfterMs(1250, 4000, 60_000), observedHungAfterMs(1250, 10, 60_000)], [8000, 1250]);
 * ```
 */
export function observedHungAfterMs(plannedMs: number, longestAnswerMs: number, timeoutMs: number): number {
  return Math.min(timeoutMs, Math.max(plannedMs, Math.ceil(HUNG_LATENCY_FACTOR * longestAnswerMs)));
}
