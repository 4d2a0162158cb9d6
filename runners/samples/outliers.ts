/**
 * Outliers among runs by the modified Z-score (Iglewicz and Hoaglin): robust
 * to the outliers themselves, because it measures distance in median
 * absolute deviations from the median. rtbench reports outliers, never drops them.
 *
 * @module
 */

import { median } from "../stats/mod.ts";

/** Modified Z-score above which a run is reported as an outlier (Iglewicz and Hoaglin). */
export const OUTLIER_Z = 3.5;

/**
 * Indices of outliers by modified Z-score, `0.6745 · (x − median) / MAD`;
 * none when the median absolute deviation is zero.
 *
 * @example
 * ```ts
 * import { outlierIndices } from "./outliers.ts";
 * console.log(outlierIndices([10, 11, 10, 12, 11, 90])); // [5]
 * ```
 */
export function outlierIndices(values: readonly number[]): number[] {
  if (values.length < 3) return [];
  const m = median(values);
  const mad = median(values.map((v) => Math.abs(v - m)));
  if (mad === 0) return [];
  return values.flatMap((v, i) => Math.abs(0.6745 * (v - m) / mad) > OUTLIER_Z ? [i] : []);
}
