// What the engine's processes counted, merged: their latency histograms into one HdrHistogram (exactly: the same
// buckets), their open-model phases phase by phase, the counted responses' span where it stands. Shared by the HTTP and
// WebSocket sides of the harness.

import * as hdr from "hdr-histogram-js";
import { round } from "../stats/mod.ts";
import { HISTOGRAM_OPTIONS, percentilesOf } from "../samples/mod.ts";
import { bucketValue } from "./_histogram.ts";
import type { PhaseCounts } from "./tally.ts";
import type { LoadPhase } from "../schema/mod.ts";

/**
 * One measured phase of an open-model run, with why requests were late and its histogram to merge runs exactly.
 *
 * @example Why a phase's requests went out late
 * ```ts
 * import type { MeasuredPhase } from "@rtbench/rtbench/runners";
 *
 * const why = (p: MeasuredPhase) => p.missedConnections >= p.missedClient ? "connections" : "client";
 * ```
 */
export interface MeasuredPhase extends LoadPhase {
  /** Requests that went out late because every connection was waiting for an answer. */
  readonly missedConnections: number;
  /** Requests that went out late because the load itself fell behind its schedule. */
  readonly missedClient: number;
  /** The phase's latency histogram (HDR, compressed base64, microseconds). */
  readonly latencyHistogram: string | null;
}

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
): MeasuredPhase[] {
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
 * Closed model: the time the counted responses' `n − 1` intervals take at the rate over the connections' spans (see
 * `_span.ts`), ms, where every engine process that counted a response reports that rate; with one connection,
 * from its first to its last counted response. Otherwise none, and the rate is the count over the window.
 *
 * @param parts Each process's counts.
 */
export function countedSpanOf(
  parts: readonly { readonly validResponses: number; readonly countedRate?: number }[],
): number | undefined {
  const counting = parts.filter((p) => p.validResponses > 0);
  if (counting.length === 0 || counting.some((p) => p.countedRate === undefined)) return undefined;
  const rate = counting.reduce((a, p) => a + p.countedRate!, 0);
  const n = counting.reduce((a, p) => a + p.validResponses, 0);
  return rate > 0 && n >= 2 ? round((n - 1) / rate * 1000, 3) : undefined;
}
