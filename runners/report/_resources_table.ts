// What reports show of the resources a record used: the summary table (mean
// and peak per runtime of the server's and the load generator's CPU, memory,
// threads and open files, and what sampling cost), and the server process
// tree's time series (CPU %, RSS) for the HTML report's charts.

import type { BenchRecord, MeanPeak } from "../schema/mod.ts";
import type { ViewTable } from "./_view_table.ts";

/** One point of a series: seconds since the run's first sample, CPU % of one core, resident bytes. */
export interface ResourcePoint {
  /** Seconds since the run's first sample. */
  readonly tSec: number;
  /** CPU, percent of one core. */
  readonly cpuPercent: number | null;
  /** Resident memory, bytes. */
  readonly rssBytes: number | null;
}

/** The samples of one run. */
export interface RunResources {
  /** The run's index. */
  readonly run: number;
  /** Its samples, in time order. */
  readonly points: readonly ResourcePoint[];
}

/**
 * The server's resource samples of every run of `record` that has some.
 *
 * @example The stored results were taken without samples
 * ```ts
 * import { serverResources } from "./_resources_table.ts";
 * import { readResultFile } from "../schema/read.ts";
 * const [record] = (await readResultFile("fixtures/results/base.json")).records;
 * console.log(serverResources(record)); // []
 * ```
 */
export function serverResources(record: BenchRecord): RunResources[] {
  const out: RunResources[] = [];
  for (const run of record.runs) {
    const series = run.resources;
    const server = series?.server;
    if (!series || !server || series.tMs.length === 0) continue;
    // Each value holds over its interval (from the previous sample to this one): drawn as a step, so the series
    // spans the whole sampled window, from its first sample (0) to its last.
    const points = series.tMs.flatMap((t, i) => {
      const value = { cpuPercent: server.cpuPercent[i] ?? null, rssBytes: server.rssBytes[i] ?? null };
      return [{ tSec: (i === 0 ? 0 : series.tMs[i - 1]) / 1000, ...value }, { tSec: t / 1000, ...value }];
    }).filter((p) => p.cpuPercent !== null || p.rssBytes !== null);
    if (points.length > 0) out.push({ run: run.index, points });
  }
  return out;
}

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
 * The resources of `records` (mean / peak per cell; CPU in percent of one
 * CPU), one row per record that was sampled, or null when none was.
 *
 * @example Nothing sampled, no table
 * ```ts
 * import { resourcesTable } from "./_resources_table.ts";
 * console.log(resourcesTable([], (r) => r.runtime.name)); // null
 * ```
 */
export function resourcesTable(records: readonly BenchRecord[], label: (r: BenchRecord) => string): ViewTable | null {
  const sampled = records.filter((r) => r.resources?.server || r.resources?.client);
  if (sampled.length === 0) return null;
  const headers = ["server cpu", "server rss", "threads", "open files", "client cpu", "sampler cpu"];
  return {
    columns: [
      { header: "resources (mean / peak)", numeric: false },
      ...headers.map((header) => ({ header, numeric: true })),
    ],
    rows: sampled.map((r) => {
      const s = r.resources!.server;
      const c = r.resources!.client;
      const cost = r.resources!.samplerCpuPercent;
      return [
        label(r),
        s ? percent(s.cpuPercent) : "",
        s ? mib(s.rssBytes) : "",
        s ? count(s.threads) : "",
        s ? count(s.openFiles) : "",
        c ? percent(c.cpuPercent) : "",
        cost === null ? "" : `${cost.toFixed(1)}%`,
      ];
    }),
  };
}
