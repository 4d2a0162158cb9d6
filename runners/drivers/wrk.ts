/**
 * wrk as a {@linkcode LoadGenerator}: C, epoll, one thread per client CPU,
 * latency in microseconds with the whole histogram read back through its Lua
 * `done()` hook.
 *
 * Verification: a Lua `response()` hook makes wrk hand every response's
 * headers and body to Lua, which costs throughput (measure it with
 * `deno task calibrate`). So the warm-up checks status, content-type and body
 * of every response, and the measured window runs the same requests without
 * the hook, exactly as a plain `wrk` run does, counting 4xx/5xx statuses.
 *
 * @module
 */

import { headUnread } from "./head_requests.ts";
import * as hdr from "hdr-histogram-js";
import { makeTempFile, parseCpuList, removeTemp, runCommand, runTool, which } from "../platform/mod.ts";
import { RESULT_MARKER, wrkScript } from "./_wrk_script.ts";
import { HISTOGRAM_OPTIONS, percentilesOf } from "../samples/mod.ts";
import { requestsFor } from "./keep_alive.ts";
import type { LoadGenerator, LoadMeasurement, LoadRunOptions, LoadSettings, LoadTarget } from "./types.ts";
import { foldWarmup, type WindowFaults } from "./warmup.ts";

/** What wrk's `done()` prints, parsed. */
export interface WrkOutput {
  /** Length of the run. */
  readonly durationUs: number;
  /** Completed requests, any status. */
  readonly requests: number;
  /** Bytes read. */
  readonly bytes: number;
  /** Socket connect errors. */
  readonly connect: number;
  /** Read errors. */
  readonly read: number;
  /** Write errors. */
  readonly write: number;
  /** Responses with status ≥ 400. */
  readonly status: number;
  /** Timeouts. */
  readonly timeout: number;
  /** Responses the Lua hook checked. */
  readonly checked: number;
  /** Responses that matched no expectation. */
  readonly mismatches: number;
  /** The first of them, shortened. */
  readonly firstMismatch: string;
  /** Latency histogram: `value:count` pairs in microseconds, comma-separated. */
  readonly latency: string;
  /** 0 when the histogram holds every distinct latency; else how many quantiles of it were read (too spread out). */
  readonly latencyQuantiles: number;
}

/** Reads the JSON line of `done()` from wrk's stdout. */
export function parseWrkOutput(stdout: string): WrkOutput {
  const line = stdout.split("\n").find((l) => l.startsWith(RESULT_MARKER));
  if (!line) throw new Error(`wrk printed no result: ${stdout.trim().slice(-200) || "(no output)"}`);
  return JSON.parse(line.slice(RESULT_MARKER.length)) as WrkOutput;
}

/** Builds an HDR histogram from wrk's `value:count` list. */
export function wrkHistogram(list: string): hdr.Histogram {
  const h = hdr.build(HISTOGRAM_OPTIONS);
  for (const pair of list.split(",")) {
    if (!pair) continue;
    const [value, count] = pair.split(":").map(Number);
    if (count > 0) h.recordValueWithCount(Math.min(Math.max(1, value), HISTOGRAM_OPTIONS.highestTrackableValue), count);
  }
  return h;
}

/** Threads wrk gets: one per client CPU, never more than connections. */
export function wrkThreads(cpus: string | null, connections: number): number {
  const count = cpus ? parseCpuList(cpus).length : Math.max(1, Math.floor(navigator.hardwareConcurrency / 2));
  return Math.max(1, Math.min(count, connections));
}

function windowFaults(o: WrkOutput): WindowFaults {
  return { responses: o.requests, non2xx: o.status, mismatches: o.mismatches, firstMismatch: o.firstMismatch };
}

/** What wrk printed for the measured window (and the warm-up before it, or null) as one {@linkcode LoadMeasurement}. */
export function wrkMeasurement(measured: WrkOutput, warm: WrkOutput | null, windowStartMs: number): LoadMeasurement {
  const histogram = wrkHistogram(measured.latency);
  const seconds = measured.durationUs / 1e6;
  const valid = Math.max(0, measured.requests - measured.status - measured.mismatches);
  return {
    // wrk runs whole seconds: what ran is recorded, and reports print it beside what was asked.
    durationMs: Math.round(measured.durationUs / 1000),
    ...(warm ? { warmupMs: Math.round(warm.durationUs / 1000) } : {}),
    responses: measured.requests,
    validResponses: valid,
    requestsPerSecond: Math.round((valid / seconds) * 100) / 100,
    bytesPerSecond: Math.round(measured.bytes / seconds),
    errors: measured.connect + measured.read + measured.write + measured.timeout,
    timeouts: measured.timeout,
    ...foldWarmup(windowFaults(measured), warm && windowFaults(warm)),
    latencyUs: percentilesOf(histogram),
    latencyHistogram: histogram.totalCount > 0 ? hdr.encodeIntoCompressedBase64(histogram) : null,
    latencyResolution: "us",
    ...(measured.latencyQuantiles > 0 ? { latencyQuantiles: measured.latencyQuantiles } : {}),
    clientCpuPercent: null,
    windowStartMs,
    // wrk corrects its histogram for coordinated omission after the fact, before its done() hook reads it.
    coordinatedOmission: "corrected",
  };
}

// wrk reads durations and timeouts as whole seconds.
function wholeSeconds(sec: number): string {
  return `${Math.max(1, Math.ceil(sec))}s`;
}

async function runWrk(
  target: LoadTarget,
  settings: LoadSettings,
  options: LoadRunOptions,
  seconds: number,
  checkResponses: boolean,
): Promise<WrkOutput> {
  const script = await makeTempFile({ prefix: "rtbench-wrk-", suffix: ".lua" });
  try {
    await Deno.writeTextFile(
      script,
      wrkScript({ requests: requestsFor(target.requests, settings), pipelining: settings.pipelining, checkResponses }),
    );
    const args = [
      "wrk",
      `-t${wrkThreads(options.cpus, settings.connections)}`,
      `-c${settings.connections}`,
      `-d${wholeSeconds(seconds)}`,
      "--timeout",
      wholeSeconds(settings.requestTimeoutSec),
      "-s",
      script,
      new URL(target.requests[0].path, target.baseUrl).origin + "/",
    ];
    const budgetMs = (Math.ceil(seconds) + settings.requestTimeoutSec + 30) * 1000;
    const stdout = await runTool("wrk", args, {
      cpus: options.cpus,
      timeoutMs: budgetMs,
      signal: options.signal,
      onSpawn: options.onSpawn,
      keepBytes: 8 << 20,
    });
    return parseWrkOutput(stdout);
  } finally {
    await removeTemp(script);
  }
}

let cachedVersion: Promise<string> | undefined;

const CHECKED = "status, content-type and body of every response (a Lua response hook; a response must match " +
  "one of the workload's requests, body patterns are not checked)";

/**
 * The wrk load generator, used when `wrk` is on `PATH` (Debian: `apt-get install wrk`).
 *
 * @example Load a server for one second
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { wrkGenerator } from "@rtbench/rtbench/runners";
 *
 * if (await wrkGenerator.available()) {
 *   await using server = Deno.serve(
 *     { hostname: "127.0.0.1", port: 0, onListen() {} },
 *     () => new Response("ok", { headers: { "content-type": "text/plain" } }),
 *   );
 *   const m = await wrkGenerator.run(
 *     {
 *       baseUrl: `http://127.0.0.1:${server.addr.port}`,
 *       requests: [{ path: "/", expect: { status: 200, contentType: "text/plain", body: "ok" } }],
 *     },
 *     { durationSec: 1, warmupSec: 0, connections: 10, pipelining: 1, requestTimeoutSec: 10 },
 *     { cpus: null },
 *   );
 *   assertEquals([m.validResponses > 0, m.non2xx], [true, 0]);
 * }
 * ```
 */
export const wrkGenerator: LoadGenerator = wrkWith(false);

/**
 * wrk with the Lua response check in the measured window too: every response
 * verified, at wrk's cost of handing each one to Lua. `deno task calibrate`
 * measures it beside {@linkcode wrkGenerator} to show that cost.
 *
 * @example Its name in records
 * ```ts
 * import { wrkCheckingGenerator } from "./wrk.ts";
 * console.log(wrkCheckingGenerator.name); // "wrk+check"
 * ```
 */
export const wrkCheckingGenerator: LoadGenerator = wrkWith(true);

function wrkWith(checkMeasured: boolean): LoadGenerator {
  return {
    name: checkMeasured ? "wrk+check" : "wrk",
    statusOnly: !checkMeasured,
    // wrk opens a new connection after an answer that says Connection: close (the servers' answer when asked).
    closesConnections: true,
    verifies: checkMeasured
      ? `warm-up and measured window: ${CHECKED}`
      : `warm-up: ${CHECKED}; measured window: status of every response (wrk counts 4xx and 5xx), without the hook, ` +
        "which costs throughput",
    available(): Promise<boolean> {
      return Promise.resolve(which("wrk") !== null);
    },
    unsupported(target: LoadTarget): string | null {
      return headUnread("wrk", target);
    },
    version(): Promise<string> {
      cachedVersion ??= runCommand(["wrk", "-v"], { timeoutMs: 5000 }).then((out) =>
        // "wrk 4.2.0 [epoll] Copyright ..." (Debian: "wrk debian/4.1.0-3+b2 [epoll] ...")
        /^wrk\s+(\S+)/m.exec(out.stdout + out.stderr)?.[1] ?? "unknown"
      );
      return cachedVersion;
    },
    async run(target: LoadTarget, settings: LoadSettings, options: LoadRunOptions): Promise<LoadMeasurement> {
      let warm: WrkOutput | null = null;
      if (settings.warmupSec > 0) warm = await runWrk(target, settings, options, settings.warmupSec, true);
      const windowStartMs = Date.now();
      const measured = await runWrk(target, settings, options, settings.durationSec, checkMeasured);
      return wrkMeasurement(measured, warm, windowStartMs);
    },
  };
}
