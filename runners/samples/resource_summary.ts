/**
 * Means and peaks of resource samples: one run's time-weighted summary, and
 * several runs combined (means of the runs' means, the largest peak).
 *
 * @module
 */

import type { MeanPeak, ResourceSummary, RoleSeries, RoleSummary } from "../schema/mod.ts";
import { round } from "../stats/mod.ts";

/** Means (time-weighted over the intervals whose value is known) and peaks of one role's series. */
export function summarizeRole(s: RoleSeries, tMs: readonly number[]): RoleSummary {
  const weights = tMs.map((t, i) => t - (i === 0 ? 0 : tMs[i - 1]));
  // Time-weighted over the intervals whose value is known; null when none is.
  const known = (values: readonly (number | null)[]): MeanPeak | null => {
    let total = 0;
    let sum = 0;
    let peak = 0;
    values.forEach((v, i) => {
      if (v === null) return;
      total += weights[i];
      sum += v * weights[i];
      peak = Math.max(peak, v);
    });
    return total > 0 ? { mean: round(sum / total, 1), peak } : null;
  };
  const meanPeak = (values: readonly (number | null)[]): MeanPeak => known(values) ?? { mean: 0, peak: 0 };
  return {
    cpuPercent: meanPeak(s.cpuPercent),
    busiestThreadPercent: meanPeak(s.busiestThreadPercent),
    demandPercent: known(s.demandPercent),
    busiestThreadDemandPercent: known(s.busiestThreadDemandPercent),
    rssBytes: meanPeak(s.rssBytes),
    threads: meanPeak(s.threads),
    openFiles: meanPeak(s.openFiles),
  };
}

/**
 * Combines the summaries of several runs: means of the runs' means, the
 * largest peak, all samples counted.
 *
 * @example
 * ```ts
 * import { combineSummaries } from "./resource_summary.ts";
 * console.log(combineSummaries([])); // null
 * ```
 */
export function combineSummaries(summaries: readonly ResourceSummary[]): ResourceSummary | null {
  if (summaries.length === 0) return null;
  const meanOf = (values: readonly (number | null)[]) => {
    const known = values.filter((v): v is number => v !== null);
    return known.length === 0 ? null : round(known.reduce((a, b) => a + b, 0) / known.length, 1);
  };
  const role = (pick: (s: ResourceSummary) => RoleSummary | null): RoleSummary | null => {
    const roles = summaries.map(pick).filter((r): r is RoleSummary => r !== null);
    if (roles.length === 0) return null;
    const combine = (key: keyof RoleSummary): MeanPeak => {
      const known = roles.map((r) => r[key]).filter((m): m is MeanPeak => m !== null);
      return { mean: meanOf(known.map((m) => m.mean)) ?? 0, peak: Math.max(0, ...known.map((m) => m.peak)) };
    };
    const optional = (key: "demandPercent" | "busiestThreadDemandPercent") =>
      roles.some((r) => r[key] !== null) ? combine(key) : null;
    return {
      cpuPercent: combine("cpuPercent"),
      busiestThreadPercent: combine("busiestThreadPercent"),
      demandPercent: optional("demandPercent"),
      busiestThreadDemandPercent: optional("busiestThreadDemandPercent"),
      rssBytes: combine("rssBytes"),
      threads: combine("threads"),
      openFiles: combine("openFiles"),
    };
  };
  return {
    intervalMs: summaries[0].intervalMs,
    samples: summaries.reduce((a, s) => a + s.samples, 0),
    server: role((s) => s.server),
    client: role((s) => s.client),
    samplerCpuPercent: meanOf(summaries.map((s) => s.samplerCpuPercent)),
    harnessCpuPercent: meanOf(summaries.map((s) => s.harnessCpuPercent)),
  };
}
