// The ratio of two arms measured round by round, for the reproduction table: the statistics layer's paired
// log-ratio interval (geometric mean of the per-round ratios, Student's t on their logarithms), on the arms' values
// listed by round.

import { pairedRatio as pairedInterval } from "../stats/mod.ts";

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
 * The paired ratio of `a` over `b`, pair i being `a[i] / b[i]` (index i is the round); pairs where either value is
 * missing or not positive are left out. Null when no pair is left.
 */
export function pairedRatio(
  a: readonly (number | undefined)[],
  b: readonly (number | undefined)[],
): PairedRatio | null {
  const pairs: [number, number][] = [];
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    const x = a[i];
    const y = b[i];
    if (x !== undefined && y !== undefined && x > 0 && y > 0) pairs.push([x, y]);
  }
  const interval = pairedInterval(pairs);
  if (!interval) return null;
  return { ratio: interval.ratio, low: interval.ci95?.low ?? null, high: interval.ci95?.high ?? null, n: interval.n };
}
