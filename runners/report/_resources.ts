// Reads the server process tree's resource time series (CPU %, RSS) out of a
// record's runs for the HTML report's charts.

import type { BenchRecord } from "../schema/result.ts";

/** One sample: seconds since the run's first sample, CPU % of one core, resident bytes. */
export interface ResourcePoint {
  readonly tSec: number;
  readonly cpuPercent: number | null;
  readonly rssBytes: number | null;
}

/** The samples of one run. */
export interface RunResources {
  readonly run: number;
  readonly points: readonly ResourcePoint[];
}

/** The server's resource samples of every run of `record` that has some. */
export function serverResources(record: BenchRecord): RunResources[] {
  const out: RunResources[] = [];
  for (const run of record.runs) {
    const series = run.resources;
    const server = series?.server;
    if (!series || !server || series.tMs.length === 0) continue;
    const t0 = series.tMs[0];
    const points = series.tMs.map((t, i) => ({
      tSec: (t - t0) / 1000,
      cpuPercent: server.cpuPercent[i] ?? null,
      rssBytes: server.rssBytes[i] ?? null,
    })).filter((p) => p.cpuPercent !== null || p.rssBytes !== null);
    if (points.length > 0) out.push({ run: run.index, points });
  }
  return out;
}
