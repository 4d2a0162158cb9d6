/**
 * How many responses a closed-model run must count, and the rate they give,
 * so that a figure is not quantized by counting. Over a fixed window the rate
 * is a whole number of responses over the window: 21 to 23 bcrypt hashes in
 * 2 s read 10.5, 11 or 11.5/s whatever the server's true speed, and two
 * runtimes a few percent apart read the same. Two remedies, both here: the
 * rate over the counted responses' span where the load generator reports it
 * (rtbench's own engine does, from each connection's span, where every
 * connection's came evenly: see `runners/engine/_span.ts`; wrk, oha, bombardier,
 * autocannon and Locust do not), with a window long enough to
 * count {@linkcode MIN_COUNTED_OVER_SPAN}, and a window long enough to count
 * {@linkcode MIN_COUNTED_RESPONSES} where it does not.
 *
 * @module
 */

/**
 * Valid responses a closed-model run counts at least: one response more or less is then at most 1% of the figure,
 * below the spread of repeated runs on a quiet machine, so runtimes a few percent apart can be ranked.
 */
export const MIN_COUNTED_RESPONSES = 100;

/**
 * Valid responses a closed-model run counts at least where its rate is over the span between the first and the last
 * counted response (the load generator reports it, and it covers at least half the window): a count is then no longer
 * a whole number over a fixed window, and what is left is the spread of the responses' intervals, which the runs'
 * confidence interval shows. 20 responses are 19 intervals; bcrypt at its defaults counts 21–32 in 2 s.
 */
export const MIN_COUNTED_OVER_SPAN = 20;

/** The longest measured window rtbench extends a run to, in seconds, so that a very slow server bounds the suite. */
export const MAX_WINDOW_SEC = 60;

/**
 * Requests per second from one run's counts: `(n − 1)` intervals over the span between the first and the last
 * counted response when the span is known and covers at least half the window (a server that answers in bursts
 * packs its responses into a short span, which would overstate its rate), else `n` over the window.
 *
 * @param validResponses Valid responses counted in the window.
 * @param durationMs The window's length.
 * @param spanMs From the first to the last counted response, when the load generator reports it.
 * @returns Requests per second.
 *
 * @example 23 responses over 2 s, the first at 40 ms and the last at 1,980 ms
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { countedRate } from "./counted_rate.ts";
 *
 * // 22 intervals in 1.94 s = 11.340...; without the span, 23 / 2 s = 11.5.
 * assertEquals(countedRate(23, 2000, 1940).toFixed(3), "11.340");
 * assertEquals(countedRate(23, 2000), 11.5);
 * ```
 */
export function countedRate(validResponses: number, durationMs: number, spanMs?: number): number {
  if (spanMs !== undefined && validResponses >= 2 && spanMs > 0 && spanMs >= durationMs / 2) {
    return (validResponses - 1) / (spanMs / 1000);
  }
  return durationMs > 0 ? validResponses / (durationMs / 1000) : 0;
}

/** One closed-model run's counts, as far as {@linkcode windowToCount} needs them. */
export interface CountedRun {
  /** The window's length. */
  readonly durationMs: number;
  /** Valid responses counted in it. */
  readonly validResponses: number;
  /** Connection errors, timeouts included. */
  readonly errors: number;
  /** From the first to the last counted response, where the load generator reports it. */
  readonly countedSpanMs?: number;
}

/**
 * The window (seconds) to measure a run again over, so that it counts {@linkcode MIN_COUNTED_RESPONSES} (or
 * {@linkcode MIN_COUNTED_OVER_SPAN} where its rate is over the counted responses' span), or null when the run stands:
 * it counted enough, it already had the longest window, or it failed (a connection error with
 * nothing counted is the server's answer, not slowness). A run that counted nothing without any error met a server
 * slower than its window: it is measured again over the request timeout (at least twice the window), so that its
 * latency, however long, is reported.
 *
 * @param run What the run counted.
 * @param requestTimeoutSec The request timeout (`--timeout`).
 * @returns Seconds, or null.
 *
 * @example 22 bcrypt hashes in 2 s: measured again over 11 s (100 / 22 × 2 s = 9.1 s, with a fifth to spare)
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { windowToCount } from "./counted_rate.ts";
 *
 * assertEquals(windowToCount({ durationMs: 2000, validResponses: 22, errors: 0 }, 30), 11);
 * assertEquals(windowToCount({ durationMs: 2000, validResponses: 150, errors: 0 }, 30), null);
 * assertEquals(windowToCount({ durationMs: 5000, validResponses: 0, errors: 0 }, 30), 30);
 * assertEquals(windowToCount({ durationMs: 5000, validResponses: 0, errors: 100 }, 30), null);
 * // Over the span of 22 responses (1.9 s of the 2 s window), the figure is not rounded by the count: it stands.
 * assertEquals(windowToCount({ durationMs: 2000, validResponses: 22, errors: 0, countedSpanMs: 1900 }, 30), null);
 * // 10 over the span: again over 5 s (20 / 10 × 2 s = 4 s, a fifth to spare = 4.8 s, up to whole seconds).
 * assertEquals(windowToCount({ durationMs: 2000, validResponses: 10, errors: 0, countedSpanMs: 1900 }, 30), 5);
 * ```
 */
export function windowToCount(run: CountedRun, requestTimeoutSec: number): number | null {
  const sec = run.durationMs / 1000;
  const overSpan = run.countedSpanMs !== undefined && run.countedSpanMs >= run.durationMs / 2;
  const enough = overSpan ? MIN_COUNTED_OVER_SPAN : MIN_COUNTED_RESPONSES;
  if (run.validResponses >= enough || sec >= MAX_WINDOW_SEC) return null;
  if (run.validResponses === 0) {
    if (run.errors > 0) return null;
    return Math.min(MAX_WINDOW_SEC, Math.max(2 * sec, requestTimeoutSec));
  }
  // A fifth to spare: the next window counts about as fast as this one, not exactly (less on a busy machine).
  const needed = sec * enough / run.validResponses * 1.2;
  // Whole seconds, up (less a hair, so that float noise in an exact product does not add one).
  return Math.min(MAX_WINDOW_SEC, Math.ceil(needed - 1e-9));
}
