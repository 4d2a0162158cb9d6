/**
 * The resources section of the terminal table: per runtime, mean and peak of
 * the server's and the load generator's CPU, memory, threads and open files,
 * and what sampling cost.
 *
 * @module
 */

import { alignTable } from "./format.ts";
import type { MeanPeak } from "../schema/resources.ts";
import type { BenchRecord } from "../schema/result.ts";

function percent(m: MeanPeak): string {
  return `${Math.round(m.mean)}% / ${Math.round(m.peak)}%`;
}

function mib(m: MeanPeak): string {
  return `${(m.mean / 1048576).toFixed(1)} / ${(m.peak / 1048576).toFixed(1)} MiB`;
}

function count(m: MeanPeak): string {
  return `${Math.round(m.mean)} / ${m.peak}`;
}

/**
 * Renders the resources of `records` (mean / peak per cell; CPU in percent of
 * one CPU), or null when none was sampled.
 *
 * @example
 * ```ts
 * import { resourcesTable } from "./resources_table.ts";
 * console.log(resourcesTable([], (r) => r.runtime.name)); // null
 * ```
 */
export function resourcesTable(records: readonly BenchRecord[], label: (r: BenchRecord) => string): string | null {
  const sampled = records.filter((r) => r.resources?.server || r.resources?.client);
  if (sampled.length === 0) return null;
  const rows: string[][] = [[
    "resources (mean / peak)",
    "server cpu",
    "server rss",
    "threads",
    "open files",
    "client cpu",
    "sampler cpu",
  ]];
  for (const r of sampled) {
    const s = r.resources!.server;
    const c = r.resources!.client;
    const cost = r.resources!.samplerCpuPercent;
    rows.push([
      label(r),
      s ? percent(s.cpuPercent) : "",
      s ? mib(s.rssBytes) : "",
      s ? count(s.threads) : "",
      s ? count(s.openFiles) : "",
      c ? percent(c.cpuPercent) : "",
      cost === null ? "" : `${cost.toFixed(1)}%`,
    ]);
  }
  return alignTable(rows, [1, 2, 3, 4, 5, 6]);
}
