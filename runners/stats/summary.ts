/**
 * Summary statistics over runs: median, mean, sample standard deviation and a
 * 95% confidence interval of the mean from Student's t distribution.
 *
 * @module
 */

import type { Summary } from "../schema/result.ts";

// Two-sided 95% quantiles of Student's t, by degrees of freedom 1..30.
const T95 = [
  12.706,
  4.303,
  3.182,
  2.776,
  2.571,
  2.447,
  2.365,
  2.306,
  2.262,
  2.228,
  2.201,
  2.179,
  2.160,
  2.145,
  2.131,
  2.120,
  2.110,
  2.101,
  2.093,
  2.086,
  2.080,
  2.074,
  2.069,
  2.064,
  2.060,
  2.056,
  2.052,
  2.048,
  2.045,
  2.042,
];

/**
 * The 0.975 quantile of Student's t with `df` degrees of freedom (exact table
 * up to 30, then a series expansion accurate to 1e-3).
 *
 * @example
 * ```ts
 * import { tQuantile95 } from "./summary.ts";
 * console.log(tQuantile95(2)); // 4.303
 * ```
 */
export function tQuantile95(df: number): number {
  if (!Number.isInteger(df) || df < 1) throw new RangeError(`Degrees of freedom must be a whole number ≥ 1, got ${df}`);
  if (df <= 30) return T95[df - 1];
  const z = 1.959964;
  const g1 = (z ** 3 + z) / 4;
  const g2 = (5 * z ** 5 + 16 * z ** 3 + 3 * z) / 96;
  return z + g1 / df + g2 / df ** 2;
}

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
  const half = n > 1 ? tQuantile95(n - 1) * stdev / Math.sqrt(n) : 0;
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

function round(n: number): number {
  return Math.round(n * 1000) / 1000;
}
