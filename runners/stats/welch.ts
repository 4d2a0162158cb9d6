/**
 * Welch's unequal-variances t-test on two samples of per-run values, with the
 * Student's t distribution it needs (CDF and quantile for fractional degrees
 * of freedom). Used by `compare` to tell a real change from run-to-run noise.
 *
 * @module
 */

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

// Continued fraction of the regularized incomplete beta function (modified Lentz).
function betaContinuedFraction(a: number, b: number, x: number): number {
  const tiny = 1e-300;
  let c = 1;
  let d = 1 - (a + b) * x / (a + 1);
  if (Math.abs(d) < tiny) d = tiny;
  d = 1 / d;
  let h = d;
  for (let m = 1; m <= 300; m++) {
    const m2 = 2 * m;
    let aa = m * (b - m) * x / ((a + m2 - 1) * (a + m2));
    d = 1 + aa * d;
    if (Math.abs(d) < tiny) d = tiny;
    c = 1 + aa / c;
    if (Math.abs(c) < tiny) c = tiny;
    d = 1 / d;
    h *= d * c;
    aa = -(a + m) * (a + b + m) * x / ((a + m2) * (a + m2 + 1));
    d = 1 + aa * d;
    if (Math.abs(d) < tiny) d = tiny;
    c = 1 + aa / c;
    if (Math.abs(c) < tiny) c = tiny;
    d = 1 / d;
    const step = d * c;
    h *= step;
    if (Math.abs(step - 1) < 1e-15) break;
  }
  return h;
}

// Lanczos approximation (g = 7, n = 9), accurate to ~1e-15 for positive arguments.
const LANCZOS = [
  0.99999999999980993,
  676.5203681218851,
  -1259.1392167224028,
  771.32342877765313,
  -176.61502916214059,
  12.507343278686905,
  -0.13857109526572012,
  9.9843695780195716e-6,
  1.5056327351493116e-7,
];

function logGamma(z: number): number {
  if (z < 0.5) return Math.log(Math.PI / Math.sin(Math.PI * z)) - logGamma(1 - z);
  const x = z - 1;
  let sum = LANCZOS[0];
  for (let i = 1; i < 9; i++) sum += LANCZOS[i] / (x + i);
  const t = x + 7.5;
  return 0.5 * Math.log(2 * Math.PI) + (x + 0.5) * Math.log(t) - t + Math.log(sum);
}

function incompleteBeta(a: number, b: number, x: number): number {
  if (x <= 0) return 0;
  if (x >= 1) return 1;
  const front = Math.exp(logGamma(a + b) - logGamma(a) - logGamma(b) + a * Math.log(x) + b * Math.log(1 - x));
  // The continued fraction converges fast only on one side of the mean; use the symmetry otherwise.
  return x < (a + 1) / (a + b + 2)
    ? front * betaContinuedFraction(a, b, x) / a
    : 1 - front * betaContinuedFraction(b, a, 1 - x) / b;
}

/**
 * Two-sided tail probability of Student's t: P(|T| ≥ |t|) with `df` degrees
 * of freedom (any positive real).
 *
 * @example
 * ```ts
 * import { tTwoSidedP } from "./welch.ts";
 * console.log(tTwoSidedP(4.303, 2).toFixed(3)); // "0.050"
 * ```
 */
export function tTwoSidedP(t: number, df: number): number {
  if (!(df > 0)) throw new RangeError(`Degrees of freedom must be > 0, got ${df}`);
  if (!Number.isFinite(t)) return Number.isNaN(t) ? NaN : 0;
  return incompleteBeta(df / 2, 0.5, df / (df + t * t));
}

/**
 * The quantile of Student's t with `df` degrees of freedom (any positive
 * real) at two-sided level `1 - alpha`: the q with P(|T| ≥ q) = alpha.
 *
 * @example
 * ```ts
 * import { tQuantile } from "./welch.ts";
 * console.log(tQuantile(10, 0.05).toFixed(3)); // "2.228"
 * ```
 */
export function tQuantile(df: number, alpha = 0.05): number {
  if (!(alpha > 0 && alpha < 1)) throw new RangeError(`alpha must be between 0 and 1, got ${alpha}`);
  let low = 0;
  let high = 1;
  while (tTwoSidedP(high, df) > alpha) high *= 2;
  for (let i = 0; i < 200 && high - low > 1e-12 * high; i++) {
    const mid = (low + high) / 2;
    if (tTwoSidedP(mid, df) > alpha) low = mid;
    else high = mid;
  }
  return (low + high) / 2;
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
