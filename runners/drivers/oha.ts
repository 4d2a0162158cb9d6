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
      const m = await runOha(target, settings, options, settings.durationSec, db);
      const statuses = (o: OhaOutput) => Object.entries(o.statusCodeDistribution).map(([s, n]) => [Number(s), n]);
      const count = (o: OhaOutput, keep: (status: number) => boolean) =>
        statuses(o).filter(([s]) => keep(s)).reduce((a, [, n]) => a + n, 0);
      const failures = Object.entries(m.errorDistribution).filter(([why]) => !DEADLINE.test(why));
      const valid = count(m, (s) => s === expected);
      const histogram = ohaHistogram(db, expected);
      const seconds = m.summary.total;
      const non2xx = count(m, (s) => s < 200 || s > 299) + (warm ? count(warm, (s) => s < 200 || s > 299) : 0);
      const wrong = count(m, (s) => s >= 200 && s <= 299 && s !== expected) +
        (warm ? count(warm, (s) => s >= 200 && s <= 299 && s !== expected) : 0);
      const wrongStatus = [...statuses(m), ...(warm ? statuses(warm) : [])].find(([s]) => s !== expected)?.[0];
      return {
        durationMs: Math.round(seconds * 1000),
        responses: count(m, () => true),
        validResponses: valid,
        requestsPerSecond: Math.round((valid / seconds) * 100) / 100,
        bytesPerSecond: Math.round(m.summary.totalData / seconds),
        errors: failures.reduce((a, [, n]) => a + n, 0),
        timeouts: failures.filter(([why]) => /timeout|timed out/i.test(why)).reduce((a, [, n]) => a + n, 0),
        non2xx,
        mismatches: wrong,
        firstMismatch: wrong > 0 ? `status ${wrongStatus}, expected ${expected}` : null,
        latencyUs: percentilesOf(histogram),
        latencyHistogram: histogram.totalCount > 0 ? hdr.encodeIntoCompressedBase64(histogram) : null,
        latencyResolution: "us",
        warmupResponses: warm ? count(warm, () => true) : 0,
        clientCpuPercent: null,
        windowStartMs,
      };
    } finally {
      await removeTemp(db);
    }
  },
};
