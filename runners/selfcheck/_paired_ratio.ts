// The ratio of two arms measured round by round: the geometric mean of the per-round ratios, with a 95% interval
// from Student's t on their logarithms. One function, so that the reproduction table takes its intervals from one
// place (and from the statistics layer's paired intervals once it has them).

import { tQuantile } from "../stats/student_t.ts";

/** A paired ratio a/b: its point value and 95% interval (null with fewer than two pairs). */
export interface PairedRatio {
  /** Geometric mean of the per-pair ratios. */
  readonly ratio: number;
  /** The interval's ends, or null with one pair. */
  readonly low: number | null;
  readonly high: number | null;
  /** Pairs used. */
  readonly n: number;
}

/**
 * The paired ratio of `a` over `b`, pair i being `a[i] / b[i]`; pairs where either value is missing or not
 * positive are left out. Null when no pair is left.
 */
export function pairedRatio(
  a: readonly (number | undefined)[],
  b: readonly (number | undefined)[],
): PairedRatio | null {
  const logs: number[] = [];
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    const x = a[i];
    const y = b[i];
    if (x !== undefined && y !== undefined && x > 0 && y > 0) logs.push(Math.log(x / y));
  }
  const n = logs.length;
  if (n === 0) return null;
  const mean = logs.reduce((s, v) => s + v, 0) / n;
  if (n === 1) return { ratio: Math.exp(mean), low: null, high: null, n };
  const sd = Math.sqrt(logs.reduce((s, v) => s + (v - mean) ** 2, 0) / (n - 1));
  const half = tQuantile(n - 1, 0.05) * sd / Math.sqrt(n);
  return { ratio: Math.exp(mean), low: Math.exp(mean - half), high: Math.exp(mean + half), n };
}
