// What the engine's processes counted, merged: their latency histograms into one HdrHistogram (exactly: the same
// buckets), their open-model phases phase by phase, their counted responses' spans into one. Shared by the HTTP and
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
 * Closed model: from the first to the last valid response the processes counted, ms, when they counted at least two:
 * the earliest first to the latest last, each read from its own process's window start. Every process counted over a
 * window of the same length, but a busy machine opens one 350–430 ms after another; on one clock (epoch ms) their
 * union would stretch the span by that offset and the rate over it would read low by as much (a fifth of a 2 s
 * window), where the count over the window does not.
 */
export function countedSpanOf(
  parts: readonly { readonly validResponses: number; readonly countedMs?: readonly [number, number] }[],
): number | undefined {
  const counted = parts.flatMap((p) => p.countedMs ? [p.countedMs] : []);
  if (parts.reduce((a, p) => a + p.validResponses, 0) < 2 || counted.length === 0) return undefined;
  const first = Math.min(...counted.map(([from]) => from));
  const last = Math.max(...counted.map(([, to]) => to));
  return round(last - first, 3);
}
