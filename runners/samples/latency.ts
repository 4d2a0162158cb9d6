/**
 * Latency histograms: decode, merge and read percentiles. Runs are combined
 * by merging their histograms, never by averaging percentiles.
 *
 * @module
 */

import * as hdr from "hdr-histogram-js";
import type { LatencyPercentiles } from "../schema/mod.ts";
import { round } from "../stats/mod.ts";

/** Options every rtbench latency histogram is built with (microseconds, up to 60 s). */
export const HISTOGRAM_OPTIONS = {
  lowestDiscernibleValue: 1,
  highestTrackableValue: 60_000_000,
  numberOfSignificantValueDigits: 3,
  useWebAssembly: false,
} as const;

/** Reads the percentile table of a histogram; null when it holds no value. */
export function percentilesOf(h: hdr.Histogram): LatencyPercentiles | null {
  if (h.totalCount === 0) return null;
  const at = (p: number) => h.getValueAtPercentile(p);
  return {
    min: h.minNonZeroValue,
    p2_5: at(2.5),
    p50: at(50),
    p90: at(90),
    p97_5: at(97.5),
    p99: at(99),
    p99_9: at(99.9),
    max: h.maxValue,
    mean: round(h.mean, 2),
    stdev: round(h.stdDeviation, 2),
  };
}

/**
 * Merges encoded histograms (HDR compressed base64) and returns the
 * percentiles of all their values together.
 *
 * @example Merge two runs
 * ```ts ignore
 * const merged = mergeLatency([run1.latencyHistogram, run2.latencyHistogram]);
 * console.log(merged?.p99);
 * ```
 */
export function mergeLatency(encoded: readonly (string | null)[]): LatencyPercentiles | null {
  const total = hdr.build(HISTOGRAM_OPTIONS);
  for (const e of encoded) {
    if (!e) continue;
    const h = hdr.decodeFromCompressedBase64(e, 32, false);
    total.add(h);
  }
  return percentilesOf(total);
}
