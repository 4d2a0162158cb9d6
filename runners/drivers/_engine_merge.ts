// What the engine's processes counted, merged: their latency histograms into one HdrHistogram (exactly: the same
// buckets), their open-model phases phase by phase, the counted responses' span where it stands. Shared by the HTTP and
// WebSocket sides of the harness.

import * as hdr from "hdr-histogram-js";
import { HISTOGRAM_OPTIONS, percentilesOf, round } from "../stats/mod.ts";
import { bucketValue } from "./_engine_histogram.ts";
import type { PhaseCounts } from "./_engine_tally.ts";
import type { LoadMeasurement } from "./types.ts";

/** The latency histograms of the engine's processes, merged into one HdrHistogram (exactly: same buckets). */
export function histogramOf(parts: readonly { readonly histogram: readonly [number, number][] }[]): hdr.Histogram {
  const h = hdr.build(HISTOGRAM_OPTIONS);
  for (const p of parts) {
    for (const [index, count] of p.histogram) {
      h.recordValueWithCount(Math.min(Math.max(1, bucketValue(index)), HISTOGRAM_OPTIONS.highestTrackableValue), count);
    }
  }
  return h;
}

/** The open model's phases of every process, phase by phase: counts summed, histograms merged. */
export function mergePhases(
  parts: readonly { readonly phases?: readonly PhaseCounts[] }[],
): NonNullable<LoadMeasurement["phases"]> {
  return parts[0].phases!.map((first, i) => {
    const same = parts.map((p) => p.phases![i]);
    const sum = (
      key: "scheduled" | "responses" | "validResponses" | "missedConnections" | "missedClient" | "unanswered",
    ) => same.reduce((a, p) => a + (p[key] ?? 0), 0);
    const h = histogramOf(same);
    const late = histogramOf(same.map((p) => ({ histogram: p.lateHistogram ?? [] })));
    const valid = sum("validResponses");
    return {
      durationMs: first.durationMs,
      // Each process ran its share of the rate.
      fromRate: same.reduce((a, p) => a + p.fromRate, 0),
      toRate: same.reduce((a, p) => a + p.toRate, 0),
      scheduled: sum("scheduled"),
      responses: sum("responses"),
      validResponses: valid,
      missed: sum("missedConnections") + sum("missedClient"),
      missedConnections: sum("missedConnections"),
      missedClient: sum("missedClient"),
      achievedRate: round(valid / (first.durationMs / 1000), 2),
      latencyUs: percentilesOf(h),
      latencyHistogram: h.totalCount > 0 ? hdr.encodeIntoCompressedBase64(h) : null,
      unanswered: sum("unanswered"),
      sendLateUs: percentilesOf(late),
    };
  });
}

/**
 * The largest coefficient of variation of the gaps between counted responses for which the rate over their span
 * stands. `(n − 1)` gaps over the span is exact for answers that come evenly; the more irregular they come, the
 * more it reads high, since a gap that straddles the window's edge is likelier a long one and is left out: with
 * about 22 answers in 2 s, +0.5% at 0.3, +1.1% at 0.5, +4.8% at 1 (Poisson), +5.4% for answers in pairs (two
 * threads finishing together; `_engine_span_test.ts` simulates it). At 0.3 the bias is under the 1% the count of
 * 100 responses allows.
 */
export const MAX_COUNTED_GAP_CV = 0.3;

/**
 * Closed model: from the first to the last valid response counted, ms, where the rate over that span is unbiased:
 * one process counted them all (several processes' answers interleave however each came), at least three, and
 * they came evenly (the gaps' coefficient of variation at most {@linkcode MAX_COUNTED_GAP_CV}). Otherwise none,
 * and the rate is the count over the window.
 */
export function countedSpanOf(
  parts: readonly {
    readonly validResponses: number;
    readonly countedMs?: readonly [number, number];
    readonly countedGapCv?: number;
  }[],
): number | undefined {
  const counting = parts.filter((p) => p.validResponses > 0);
  if (counting.length !== 1) return undefined;
  const [{ validResponses, countedMs, countedGapCv }] = counting;
  if (validResponses < 3 || !countedMs || countedGapCv === undefined || countedGapCv > MAX_COUNTED_GAP_CV) {
    return undefined;
  }
  return round(countedMs[1] - countedMs[0], 3);
}
