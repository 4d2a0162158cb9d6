// Reads the server process tree's resource time series (CPU %, RSS) out of a
// record for the HTML report's charts. Resource sampling is being added to
// the result schema separately (each run's `resources`: `{ intervalMs, tMs[],
// server: { cpuPercent[], rssBytes[], ... } }`, columns of equal length);
// until that lands this reads it defensively — also as arrays of sample
// objects — and returns nothing when a record has no samples. Keep every
// assumption about that shape in this file.

import type { BenchRecord } from "../result.ts";

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

type Loose = Record<string, unknown>;

function isObject(v: unknown): v is Loose {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

function finite(v: unknown): number | null {
  return typeof v === "number" && Number.isFinite(v) ? v : null;
}

// Columns (`{ tMs: [...], server: { cpuPercent: [...], rssBytes: [...] } }`) as sample objects.
function fromColumns(value: Loose): Loose[] | null {
  const server = value.server;
  if (!Array.isArray(value.tMs) || !isObject(server)) return null;
  const cpu = Array.isArray(server.cpuPercent) ? server.cpuPercent : [];
  const rss = Array.isArray(server.rssBytes) ? server.rssBytes : [];
  if (cpu.length === 0 && rss.length === 0) return null;
  return value.tMs.map((tMs, i) => ({ tMs, cpuPercent: cpu[i], rssBytes: rss[i] }));
}

// The server's samples inside a `resources`-like value: columns as above, an
// array of samples, `{ server: [...] }`, `{ server: { samples: [...] } }` or `{ samples: [...] }`.
function serverSamples(value: unknown): unknown[] | null {
  if (Array.isArray(value)) return value;
  if (!isObject(value)) return null;
  const columns = fromColumns(value);
  if (columns) return columns;
  if ("server" in value) return serverSamples(value.server);
  if (Array.isArray(value.samples)) return value.samples;
  return null;
}

function timeMs(sample: Loose): number | null {
  for (const key of ["tMs", "elapsedMs", "timeMs", "offsetMs", "atMs"]) {
    const v = finite(sample[key]);
    if (v !== null) return v;
  }
  for (const key of ["tSec", "elapsedSec", "t"]) {
    const v = finite(sample[key]);
    if (v !== null) return v * 1000;
  }
  for (const key of ["at", "time", "timestamp"]) {
    const v = sample[key];
    if (typeof v === "string" && !Number.isNaN(Date.parse(v))) return Date.parse(v);
  }
  return null;
}

function toPoints(samples: readonly unknown[]): ResourcePoint[] {
  const raw = samples.filter(isObject).map((s) => ({
    t: timeMs(s),
    cpuPercent: finite(s.cpuPercent),
    rssBytes: finite(s.rssBytes),
  }));
  if (raw.some((p) => p.t === null)) {
    // No usable clock: assume the samples are evenly spaced by the default interval.
    raw.forEach((p, i) => p.t = i * 250);
  }
  const t0 = Math.min(...raw.map((p) => p.t!));
  return raw
    .filter((p) => p.cpuPercent !== null || p.rssBytes !== null)
    .map((p) => ({ tSec: (p.t! - t0) / 1000, cpuPercent: p.cpuPercent, rssBytes: p.rssBytes }))
    .sort((a, b) => a.tSec - b.tSec);
}

/** The server's resource samples of every run of `record` that has some. */
export function serverResources(record: BenchRecord): RunResources[] {
  const out: RunResources[] = [];
  for (const run of record.runs) {
    const loose = run as unknown as Loose;
    const samples = serverSamples(loose.resources) ?? serverSamples(loose.serverResources);
    if (samples && samples.length > 0) {
      const points = toPoints(samples);
      if (points.length > 0) out.push({ run: run.index, points });
    }
  }
  if (out.length > 0) return out;
  // A record-level series, possibly one per run.
  const loose = record as unknown as Loose;
  const value = loose.resources ?? loose.serverResources;
  if (isObject(value) && Array.isArray(value.runs)) {
    value.runs.forEach((r, i) => {
      const samples = serverSamples(r);
      if (samples && samples.length > 0) out.push({ run: i, points: toPoints(samples) });
    });
    return out.filter((r) => r.points.length > 0);
  }
  const samples = serverSamples(value);
  if (samples && samples.length > 0) {
    const points = toPoints(samples);
    if (points.length > 0) out.push({ run: 0, points });
  }
  return out;
}
