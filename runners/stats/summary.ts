/**
 * Summary statistics over runs: median, mean, sample standard deviation and a
 * 95% confidence interval of the mean from Student's t distribution.
 *
 * @module
 */

import type { Summary } from "../schema/mod.ts";
import { round } from "./round.ts";
import { tQuantile } from "./student_t.ts";

/** Median of a non-empty list. */
export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/**
 * Summarizes one figure over runs. The confidence interval is t-based
 * (mean ± t·s/√n), null for a single run, and truncated at 0: every figure
 * rtbench measures (rates, times, bytes, counts) is non-negative, and two noisy
 * runs would otherwise print a negative lower bound.
 *
 * @param values One figure's value in each measured run.
 * @returns Count, median, mean, sample standard deviation, extremes and the 95% confidence interval of the mean.
 *
 * @example Summarize three runs
 * ```ts
 * import { summarize } from "./summary.ts";
 * const s = summarize([100, 110, 105]);
 * console.log(s.median, s.ci95 !== null); // 105 true
 * ```
 */
export function summarize(values: readonly number[]): Summary {
  if (values.length === 0) throw new RangeError("Cannot summarize zero runs");
  const n = values.length;
  const mean = values.reduce((a, b) => a + b, 0) / n;
  const stdev = n > 1 ? Math.sqrt(values.reduce((a, v) => a + (v - mean) ** 2, 0) / (n - 1)) : 0;
  const half = n > 1 ? tQuantile(n - 1, 0.05) * stdev / Math.sqrt(n) : 0;
  return {
    n,
    median: round(median(values)),
    mean: round(mean),
    stdev: round(stdev),
    min: Math.min(...values),
    max: Math.max(...values),
    ci95: n > 1 ? { low: round(Math.max(0, mean - half)), high: round(mean + half) } : null,
  };
}
