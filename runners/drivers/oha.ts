/**
 * oha as a {@linkcode LoadGenerator}: Rust and tokio, one worker thread per
 * client CPU. Its JSON summary gives exact status-code and error counts; its
 * percentiles are too few to merge runs, so rtbench also has it store every
 * successful request in an SQLite file (written after the run, read with
 * `node:sqlite`) and builds the microsecond histogram from those durations.
 *
 * oha sends one fixed request without pipelining and reads no bodies: it
 * verifies the exact status of every response.
 *
 * @module
 */

import * as hdr from "hdr-histogram-js";
import { DatabaseSync } from "node:sqlite";
import { makeTempFile, parseCpuList, removeTemp, runCommand, runTool, toolJson, which } from "../platform/mod.ts";
import { HISTOGRAM_OPTIONS, percentilesOf } from "../samples/mod.ts";
import { closesConnections, requestsFor } from "./keep_alive.ts";
import type { LoadGenerator, LoadMeasurement, LoadRunOptions, LoadSettings, LoadTarget } from "./types.ts";

/** The parts of `oha --output-format json` rtbench reads. */
export interface OhaOutput {
  /** Totals. */
  readonly summary: {
    /** Length of the run in seconds. */
    readonly total: number;
    /** Response bytes. */
    readonly totalData: number;
  };
  /** Responses by status code. */
  readonly statusCodeDistribution: Readonly<Record<string, number>>;
  /** Failed requests by reason. */
  readonly errorDistribution: Readonly<Record<string, number>>;
}

// Requests in flight when the duration ends are cut off by oha; they are neither responses nor errors.
const DEADLINE = /aborted due to deadline/i;

/** Builds a histogram (µs) from the durations oha stored, for one status. */
export function ohaHistogram(dbPath: string, status: number): hdr.Histogram {
  const h = hdr.build(HISTOGRAM_OPTIONS);
  const db = new DatabaseSync(dbPath, { readOnly: true });
  try {
    const rows = db.prepare(
      "SELECT CAST(round(duration * 1000000) AS INTEGER) AS us, count(*) AS n FROM oha WHERE status = ? GROUP BY us",
    ).all(status) as { us: number; n: number }[];
    for (const { us, n } of rows) {
      h.recordValueWithCount(Math.min(Math.max(1, us), HISTOGRAM_OPTIONS.highestTrackableValue), n);
    }
  } finally {
    db.close();
  }
  return h;
}

function statuses(o: OhaOutput): [number, number][] {
  return Object.entries(o.statusCodeDistribution).map(([s, n]) => [Number(s), n]);
}

function count(o: OhaOutput | null, keep: (status: number) => boolean): number {
  return o ? statuses(o).filter(([s]) => keep(s)).reduce((a, [, n]) => a + n, 0) : 0;
}

/** oha's output for the window and its warm-up (or null) as a {@linkcode LoadMeasurement}: other statuses are faults. */
export function ohaMeasurement(
  measured: OhaOutput,
  warm: OhaOutput | null,
  expected: number,
  latency: hdr.Histogram,
  windowStartMs: number,
): LoadMeasurement {
  const failures = Object.entries(measured.errorDistribution).filter(([why]) => !DEADLINE.test(why));
  const valid = count(measured, (s) => s === expected);
  const seconds = measured.summary.total;
  const non2xx = count(measured, (s) => s < 200 || s > 299) + count(warm, (s) => s < 200 || s > 299);
  const wrong = count(measured, (s) => s >= 200 && s <= 299 && s !== expected) +
    count(warm, (s) => s >= 200 && s <= 299 && s !== expected);
  const wrongStatus = [...statuses(measured), ...(warm ? statuses(warm) : [])].find(([s]) => s !== expected)?.[0];
  return {
    durationMs: Math.round(seconds * 1000),
    responses: count(measured, () => true),
    validResponses: valid,
    requestsPerSecond: Math.round((valid / seconds) * 100) / 100,
    bytesPerSecond: Math.round(measured.summary.totalData / seconds),
    errors: failures.reduce((a, [, n]) => a + n, 0),
    timeouts: failures.filter(([why]) => /timeout|timed out/i.test(why)).reduce((a, [, n]) => a + n, 0),
    non2xx,
    mismatches: wrong,
    firstMismatch: wrong > 0 ? `status ${wrongStatus}, expected ${expected}` : null,
    latencyUs: percentilesOf(latency),
    latencyHistogram: latency.totalCount > 0 ? hdr.encodeIntoCompressedBase64(latency) : null,
    latencyResolution: "us",
    warmupResponses: count(warm, () => true),
    clientCpuPercent: null,
    windowStartMs,
  };
}

async function runOha(
  target: LoadTarget,
  settings: LoadSettings,
  options: LoadRunOptions,
  seconds: number,
  db: string | null,
): Promise<OhaOutput> {
  const spec = requestsFor(target.requests, settings)[0];
  const cpus = options.cpus ? parseCpuList(options.cpus).length : Math.max(1, navigator.hardwareConcurrency >> 1);
  const args = [
    "oha",
    "--no-tui",
    // humantime durations: whole milliseconds.
    `-z${Math.max(1, Math.round(seconds * 1000))}ms`,
    `-c${settings.connections}`,
    `--worker-threads=${cpus}`,
    `-t${Math.max(1, Math.round(settings.requestTimeoutSec * 1000))}ms`,
    `--method=${spec.method ?? "GET"}`,
    // oha's own way: it drops each connection after its request (the header tells the server as the others do).
    ...(closesConnections(settings) ? ["--disable-keepalive"] : []),
    ...Object.entries(spec.headers ?? {}).flatMap(([k, v]) => ["-H", `${k}: ${v}`]),
    ...(spec.body === undefined ? [] : ["-d", spec.body]),
    ...(db ? [`--db-url=${db}`] : []),
    "--output-format=json",
    new URL(spec.path, target.baseUrl).href,
  ];
  const budgetMs = (seconds + settings.requestTimeoutSec + 60) * 1000;
  return toolJson<OhaOutput>(
    "oha",
    await runTool("oha", args, {
      cpus: options.cpus,
      timeoutMs: budgetMs,
      signal: options.signal,
      onSpawn: options.onSpawn,
      keepBytes: 1 << 20,
      env: { NO_COLOR: "1" },
    }),
  );
}

let cachedVersion: Promise<string> | undefined;

/**
 * The oha load generator, used when `oha` is on `PATH` (`cargo install oha`).
 *
 * @example Is oha installed?
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { ohaGenerator } from "@rtbench/rtbench/runners";
 *
 * assertEquals(typeof await ohaGenerator.available(), "boolean");
 * ```
 */
export const ohaGenerator: LoadGenerator = {
  name: "oha",
  statusOnly: true,
  closesConnections: true,
  verifies: "exact status of every response, warm-up and measurement (oha reads no bodies)",
  available(): Promise<boolean> {
    return Promise.resolve(which("oha") !== null);
  },
  version(): Promise<string> {
    cachedVersion ??= runCommand(["oha", "--version"], { timeoutMs: 5000 }).then((out) =>
      /oha (\S+)/.exec(out.stdout + out.stderr)?.[1] ?? "unknown"
    );
    return cachedVersion;
  },
  unsupported(target: LoadTarget, settings: LoadSettings): string | null {
    if (settings.pipelining > 1) return "oha does not pipeline HTTP/1.1 requests";
    if (target.requests.length > 1) {
      return `oha sends one fixed request; this workload cycles through ${target.requests.length}`;
    }
    return null;
  },
  async run(target: LoadTarget, settings: LoadSettings, options: LoadRunOptions): Promise<LoadMeasurement> {
    const reason = this.unsupported!(target, settings);
    if (reason) throw new Error(reason);
    const expected = target.requests[0].expect.status;
    let warm: OhaOutput | null = null;
    if (settings.warmupSec > 0) warm = await runOha(target, settings, options, settings.warmupSec, null);
    const db = await makeTempFile({ prefix: "rtbench-oha-", suffix: ".db" });
    try {
      // oha creates its own table; it wants the file absent.
      await Deno.remove(db);
      const windowStartMs = Date.now();
      const measured = await runOha(target, settings, options, settings.durationSec, db);
      return ohaMeasurement(measured, warm, expected, ohaHistogram(db, expected), windowStartMs);
    } finally {
      await removeTemp(db);
    }
  },
};
