// Reads the server process tree's resource time series (CPU %, RSS) out of a
// record for the HTML report's charts. Resource sampling is being added to
// the result schema separately; until its shape is settled this reads it
// defensively, from the record or from each run, and returns nothing when a
// record has no samples. Keep every assumption about that shape in this file.

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

// The server's samples inside a `resources`-like value: an array of samples,
// `{ server: [...] }`, `{ server: { samples: [...] } }` or `{ samples: [...] }`.
function serverSamples(value: unknown): unknown[] | null {
  if (Array.isArray(value)) return value;
  if (!isObject(value)) return null;
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
