/**
 * The one rounding rule for figures written into results: half away from
 * zero at a fixed number of decimals, so a figure reads the same in every
 * record and report.
 *
 * @module
 */

/**
 * Rounds `n` to `digits` decimals.
 *
 * @param n The value.
 * @param digits Decimals to keep. @default {3}
 * @returns The rounded value.
 *
 * @example
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { round } from "./round.ts";
 *
 * assertEquals([round(1.23456), round(99.95, 1), round(0.5, 0)], [1.235, 100, 1]);
 * ```
 */
export function round(n: number, digits = 3): number {
  const f = 10 ** digits;
  return Math.round(n * f) / f;
}
