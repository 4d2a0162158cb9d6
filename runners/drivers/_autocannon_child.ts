/**
 * The autocannon load generator process. Reads its job as JSON on stdin,
 * warms up, measures, and writes what it saw of both windows as one JSON
 * object on stdout ({@linkcode AutocannonOutput}), which the parent turns into
 * a measurement. Runs pinned apart from the server, so it is its own process;
 * nothing here prints to stdout but that object.
 *
 * Every response is checked against the request's expectation (status,
 * content-type as a media type, body); only valid responses count as samples. Latency comes
 * from autocannon's per-response `hrtime` duration, recorded in microseconds
 * into an HDR histogram (autocannon's own histogram keeps whole milliseconds).
 *
 * @module
 */

import autocannon from "autocannon";
import * as hdr from "hdr-histogram-js";
import { HISTOGRAM_OPTIONS } from "../samples/latency.ts";
import { readProcText } from "../platform/procfs.ts";
import type { LoadSettings, LoadTarget } from "./types.ts";
import type { HttpRequestSpec } from "../../workloads/types.ts";
import { sameMediaType } from "../../workloads/media_type.ts";

/** The job the parent sends on stdin. */
export interface AutocannonJob {
  /** Server and requests. */
  target: LoadTarget;
  /** Load settings. */
  settings: LoadSettings;
}

/** autocannon's own result object for one window, as its callback gave it; rtbench reads these counts of it. */
export interface AutocannonResult {
  /** Connection errors, timeouts included. */
  readonly errors: number;
  /** Requests that timed out. */
  readonly timeouts: number;
  /** Responses whose status was not 2xx. */
  readonly non2xx: number;
  /** The rest of autocannon's result, kept as it came. */
  readonly [field: string]: unknown;
}

/** What the child saw of one window: autocannon's result, and rtbench's check of every response. */
export interface AutocannonWindow {
  /** How long autocannon ran, milliseconds (not rounded). */
  readonly durationMs: number;
  /** autocannon's own result. */
  readonly autocannon: AutocannonResult;
  /** Responses received, any status. */
  readonly responses: number;
  /** Responses with the expected status, content-type and body. */
  readonly valid: number;
  /** Bytes of the valid responses. */
  readonly bytes: number;
  /** 2xx responses that differed from the expectation. */
  readonly mismatches: number;
  /** The first of them, shortened, or null. */
  readonly firstMismatch: string | null;
  /** Latency of the valid responses (HDR, compressed base64, microseconds); null when none was kept (the warm-up). */
  readonly latencyHistogram: string | null;
  /** CPU seconds this process used over the window, or null where `/proc` cannot tell. */
  readonly cpuSeconds: number | null;
}

/** What the child prints: the warm-up (or null), the measured window, and when that began (epoch milliseconds). */
export interface AutocannonOutput {
  /** The warm-up, or null without one. */
  readonly warm: AutocannonWindow | null;
  /** The measured window. */
  readonly measured: AutocannonWindow;
  /** When the measured window began (epoch milliseconds). */
  readonly windowStartMs: number;
}

interface Tally {
  responses: number;
  valid: number;
  bytes: number;
  mismatches: number;
  firstMismatch: string | null;
}

async function cpuSeconds(): Promise<number | null> {
  const stat = await readProcText(`/proc/${Deno.pid}/stat`);
  if (!stat) return null;
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  // utime and stime are fields 14 and 15 of stat(5), in clock ticks (100 per second on Linux).
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

function header(headers: Record<string, string>, name: string): string | undefined {
  // autocannon keeps header names as sent; Bun sends "Content-Type".
  for (const key in headers) if (key.toLowerCase() === name) return headers[key];
  return undefined;
}

function describe(spec: HttpRequestSpec, status: number, type: string | undefined, body: string): string | null {
  const e = spec.expect;
  if (status !== e.status) return status >= 200 && status < 300 ? `status ${status}, expected ${e.status}` : null;
  if (!sameMediaType(e.contentType, type)) return `content-type "${type}", expected "${e.contentType}"`;
  if (e.body !== undefined && body !== e.body) {
    return `body ${JSON.stringify(body.slice(0, 120))}, expected ${JSON.stringify(e.body.slice(0, 120))}`;
  }
  if (e.bodyPattern !== undefined && !new RegExp(`^(?:${e.bodyPattern})$`).test(body)) {
    return `body ${JSON.stringify(body.slice(0, 120))} does not match /${e.bodyPattern}/`;
  }
  return null;
}

function load(
  job: AutocannonJob,
  seconds: number,
  histogram: hdr.Histogram | null,
): Promise<[AutocannonResult, Tally]> {
  const tally: Tally = { responses: 0, valid: 0, bytes: 0, mismatches: 0, firstMismatch: null };
  let lastValid = false;
  const requests = job.target.requests.map((spec) => ({
    method: spec.method ?? "GET",
    path: spec.path,
    headers: spec.headers,
    body: spec.body,
    onResponse(status: number, body: string, _ctx: unknown, headers: Record<string, string>) {
      const wrong = describe(spec, status, header(headers, "content-type"), body);
      lastValid = wrong === null && status === spec.expect.status;
      if (wrong !== null) {
        tally.mismatches++;
        tally.firstMismatch ??= wrong;
      }
    },
  }));
  return new Promise((resolve, reject) => {
    const instance = autocannon({
      url: job.target.baseUrl,
      connections: job.settings.connections,
      pipelining: job.settings.pipelining,
      duration: seconds,
      timeout: job.settings.requestTimeoutSec,
      requests,
    }, (error: unknown, result: AutocannonResult) => error ? reject(error) : resolve([result, tally]));
    // Fires right after onResponse for the same response.
    instance.on("response", (_client: unknown, _status: number, bytes: number, ms: number) => {
      tally.responses++;
      if (!lastValid) return;
      tally.valid++;
      tally.bytes += bytes;
      histogram?.recordValue(Math.max(1, Math.round(ms * 1000)));
    });
  });
}

/** Loads for `seconds`, keeping the valid responses' latency when `keepLatency`. */
async function measureWindow(job: AutocannonJob, seconds: number, keepLatency: boolean): Promise<AutocannonWindow> {
  const histogram = keepLatency ? hdr.build(HISTOGRAM_OPTIONS) : null;
  const cpuBefore = await cpuSeconds();
  const started = performance.now();
  const [result, tally] = await load(job, seconds, histogram);
  const durationMs = performance.now() - started;
  const cpuAfter = await cpuSeconds();
  return {
    durationMs,
    autocannon: result,
    ...tally,
    latencyHistogram: histogram && histogram.totalCount > 0 ? hdr.encodeIntoCompressedBase64(histogram) : null,
    cpuSeconds: cpuBefore === null || cpuAfter === null ? null : cpuAfter - cpuBefore,
  };
}

async function main(): Promise<void> {
  const job = JSON.parse(await new Response(Deno.stdin.readable).text()) as AutocannonJob;
  const warm = job.settings.warmupSec > 0 ? await measureWindow(job, job.settings.warmupSec, false) : null;
  const windowStartMs = Date.now();
  const measured = await measureWindow(job, job.settings.durationSec, true);
  const output: AutocannonOutput = { warm, measured, windowStartMs };
  // stdout carries only the output.
  await Deno.stdout.write(new TextEncoder().encode(JSON.stringify(output)));
}

if (import.meta.main) await main();
