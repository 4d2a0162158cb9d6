/**
 * Holm's step-down correction for testing many figures at once: with twenty independent tests at α = 0.05, one
 * "significant" difference is expected by chance alone. Holm controls the chance of any false verdict across the
 * whole family at α, and never rejects less than Bonferroni does.
 *
 * @module
 */

/**
 * Holm-adjusted p-values, in the order given: the i-th smallest p is multiplied by (m − i) (i from 0), made
 * non-decreasing in that order and capped at 1. Compare each with α.
 *
 * @param ps Two-sided p-values of one family of tests.
 * @returns The adjusted p-values, index for index.
 *
 * @example R's `p.adjust(c(0.01, 0.04, 0.03, 0.005), "holm")`
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { holmAdjust } from "./holm.ts";
 *
 * assertEquals(holmAdjust([0.01, 0.04, 0.03, 0.005]).map((p) => +p.toFixed(3)), [0.03, 0.06, 0.06, 0.02]);
 * ```
 */
export function holmAdjust(ps: readonly number[]): number[] {
  const m = ps.length;
  const order = ps.map((p, i) => [p, i] as const).sort((a, b) => a[0] - b[0]);
  const adjusted = new Array<number>(m);
  let running = 0;
  order.forEach(([p, i], rank) => {
    running = Math.max(running, Math.min(1, (m - rank) * p));
    adjusted[i] = running;
  });
  return adjusted;
}
