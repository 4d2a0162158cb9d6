/**
 * Welch's unequal-variances t-test on two samples of per-run values. Used by
 * `compare` to tell a real change from run-to-run noise.
 *
 * @module
 */

import { tQuantile, tTwoSidedP } from "./student_t.ts";

/**
 * The outcome of {@linkcode welchTest}: head minus base.
 *
 * @example Significant at the 5% level?
 * ```ts
 * import { assert } from "@std/assert";
 * import { type WelchResult, welchTest } from "@rtbench/rtbench/runners";
 *
 * const w: WelchResult = welchTest([100, 102, 98, 101], [90, 91, 89, 92]);
 * assert(w.p < 0.05 && w.difference < 0);
 * ```
 */
export interface WelchResult {
  /** Runs in the base sample. */
  readonly nBase: number;
  /** Runs in the head sample. */
  readonly nHead: number;
  /** Mean of the base sample. */
  readonly meanBase: number;
  /** Mean of the head sample. */
  readonly meanHead: number;
  /** `meanHead - meanBase`. */
  readonly difference: number;
  /** Confidence interval of the difference of means (Welch–Satterthwaite). */
  readonly ci: { readonly low: number; readonly high: number };
  /** Welch's t statistic (±Infinity when both samples have no spread but differ). */
  readonly t: number;
  /** Welch–Satterthwaite degrees of freedom. */
  readonly df: number;
  /** Two-sided p-value. */
  readonly p: number;
}

function meanVar(values: readonly number[]): [number, number] {
  const mean = values.reduce((a, b) => a + b, 0) / values.length;
  const variance = values.reduce((a, v) => a + (v - mean) ** 2, 0) / (values.length - 1);
  return [mean, variance];
}

/**
 * Welch's t-test of `head` against `base` (two-sided), with the
 * `1 - alpha` confidence interval of the difference of means. Needs at
 * least two values on each side.
 *
 * @param base The base sample (for rtbench, per-run values of one figure).
 * @param head The head sample.
 * @param alpha Significance level; the interval is the `1 - alpha` confidence interval.
 * @returns The means, their difference with its confidence interval, t, degrees of freedom and the p-value.
 *
 * @example R's `t.test(extra ~ group, data = sleep)` (group 1 minus group 2)
 * ```ts
 * import { welchTest } from "./welch.ts";
 * const g1 = [0.7, -1.6, -0.2, -1.2, -0.1, 3.4, 3.7, 0.8, 0.0, 2.0];
 * const g2 = [1.9, 0.8, 1.1, 0.1, -0.1, 4.4, 5.5, 1.6, 4.6, 3.4];
 * const w = welchTest(g2, g1);
 * console.log(w.t.toFixed(4), w.df.toFixed(3), w.p.toFixed(5)); // "-1.8608 17.776 0.07939"
 * ```
 */
export function welchTest(base: readonly number[], head: readonly number[], alpha = 0.05): WelchResult {
  if (base.length < 2 || head.length < 2) {
    throw new RangeError(`Welch's t-test needs at least 2 runs on each side, got ${base.length} and ${head.length}`);
  }
  const [meanBase, varBase] = meanVar(base);
  const [meanHead, varHead] = meanVar(head);
  const difference = meanHead - meanBase;
  const qb = varBase / base.length;
  const qh = varHead / head.length;
  const se = Math.sqrt(qb + qh);
  const common = { nBase: base.length, nHead: head.length, meanBase, meanHead, difference };
  if (se === 0) {
    // Both samples are constant: any difference at all is certain.
    const df = base.length + head.length - 2;
    return difference === 0
      ? { ...common, ci: { low: 0, high: 0 }, t: 0, df, p: 1 }
      : { ...common, ci: { low: difference, high: difference }, t: Math.sign(difference) * Infinity, df, p: 0 };
  }
  const df = (qb + qh) ** 2 / (qb ** 2 / (base.length - 1) + qh ** 2 / (head.length - 1));
  const t = difference / se;
  const half = tQuantile(df, alpha) * se;
  return { ...common, ci: { low: difference - half, high: difference + half }, t, df, p: tTwoSidedP(t, df) };
}
