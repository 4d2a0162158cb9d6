/**
 * Drift across consecutive runs: Mann–Kendall's test of a monotone trend in a record's per-run figures (each run
 * against every later one), with Kendall's τ and an exact two-sided p for up to 9 runs (every ordering counted),
 * the normal approximation beyond. A record whose figures fall (or rise) run after run depends on its position in
 * the suite: state accumulates between runs.
 *
 * @module
 */

/** Mann–Kendall's S, Kendall's τ and the two-sided p-value of "no trend". */
export interface Trend {
  /** Runs. */
  readonly n: number;
  /** Later runs above earlier ones, less those below. */
  readonly s: number;
  /** S over the number of pairs, from −1 (every run below the one before) to 1. */
  readonly tau: number;
  /** Two-sided p-value of no monotone trend. */
  readonly p: number;
}

function sOf(values: readonly number[]): number {
  let s = 0;
  for (let i = 0; i < values.length; i++) {
    for (let j = i + 1; j < values.length; j++) s += Math.sign(values[j] - values[i]);
  }
  return s;
}

/** How many orderings of n distinct values have each S, from −n(n−1)/2 (index 0) up: the exact null distribution. */
function exactCounts(n: number): number[] {
  // Inserting the k-th value adds 0 … k−1 inversions: the counts of inversions are a convolution.
  let counts = [1];
  for (let k = 2; k <= n; k++) {
    const next = new Array(counts.length + k - 1).fill(0);
    counts.forEach((c, i) => {
      for (let add = 0; add < k; add++) next[i + add] += c;
    });
    counts = next;
  }
  // Inversions i give S = pairs − 2i; listed from the most inversions (S lowest) up.
  return counts.reverse();
}

function normalTwoSided(z: number): number {
  // Abramowitz and Stegun 7.1.26 for erfc, enough for a p-value.
  const x = Math.abs(z) / Math.SQRT2;
  const t = 1 / (1 + 0.3275911 * x);
  const erfc = t * (0.254829592 + t * (-0.284496736 + t * (1.421413741 + t * (-1.453152027 + t * 1.061405429)))) *
    Math.exp(-x * x);
  return Math.min(1, erfc);
}

/**
 * Mann–Kendall's test of a monotone trend in `values`, in the order they were measured.
 *
 * @param values One figure of consecutive runs, at least 2.
 * @returns S, τ and the two-sided p-value (exact up to 9 values).
 *
 * @example Five runs, each below the one before: the most extreme of 120 orderings either way
 * ```ts
 * import { assertAlmostEquals, assertEquals } from "@std/assert";
 * import { kendallTrend } from "./drift.ts";
 *
 * const t = kendallTrend([9_596, 4_738, 3_450, 3_100, 2_900]);
 * assertEquals([t.s, t.tau], [-10, -1]);
 * assertAlmostEquals(t.p, 2 / 120, 1e-12);
 * ```
 */
export function kendallTrend(values: readonly number[]): Trend {
  const n = values.length;
  if (n < 2) throw new RangeError(`A trend needs at least 2 runs, got ${n}`);
  const pairs = n * (n - 1) / 2;
  const s = sOf(values);
  if (n <= 9) {
    const counts = exactCounts(n);
    const total = counts.reduce((a, c) => a + c, 0);
    // P(|S'| ≥ |S|) under no trend; S runs from −pairs to pairs in steps of 2.
    const extreme = counts.reduce((a, c, i) => a + (Math.abs(-pairs + 2 * i) >= Math.abs(s) ? c : 0), 0);
    return { n, s, tau: s / pairs, p: extreme / total };
  }
  const variance = n * (n - 1) * (2 * n + 5) / 18;
  const z = s === 0 ? 0 : (s - Math.sign(s)) / Math.sqrt(variance);
  return { n, s, tau: s / pairs, p: normalTwoSided(z) };
}
