/**
 * The autocannon load generator process. Reads its job as JSON on stdin,
 * warms up, measures, and writes one JSON result on stdout. Runs pinned apart
 * from the server, so it is its own process; nothing here prints to stdout but
 * the result.
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
import { HISTOGRAM_OPTIONS, percentilesOf } from "../samples/latency.ts";
import { readProcText } from "../platform/procfs.ts";
import type { LoadMeasurement, LoadSettings, LoadTarget } from "./types.ts";
import { foldWarmup, type WindowFaults } from "./warmup.ts";
import type { HttpRequestSpec } from "../../workloads/types.ts";
import { sameMediaType } from "../../workloads/media_type.ts";

/** The job the parent sends on stdin. */
export interface AutocannonJob {
  /** Server and requests. */
  target: LoadTarget;
  /** Load settings. */
  settings: LoadSettings;
}

interface Window {
  responses: number;
  valid: number;
  bytes: number;
  mismatches: number;
  firstMismatch: string | null;
}

// deno-lint-ignore no-explicit-any
type AutocannonResult = any;

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
): Promise<[AutocannonResult, Window]> {
  const win: Window = { responses: 0, valid: 0, bytes: 0, mismatches: 0, firstMismatch: null };
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
        win.mismatches++;
        win.firstMismatch ??= wrong;
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
    }, (error: unknown, result: AutocannonResult) => error ? reject(error) : resolve([result, win]));
    // Fires right after onResponse for the same response.
    instance.on("response", (_client: unknown, _status: number, bytes: number, ms: number) => {
      win.responses++;
      if (!lastValid) return;
      win.valid++;
      win.bytes += bytes;
      histogram?.recordValue(Math.max(1, Math.round(ms * 1000)));
    });
  });
}

async function main(): Promise<void> {
  const job = JSON.parse(await new Response(Deno.stdin.readable).text()) as AutocannonJob;
  let warm: WindowFaults | null = null;
  if (job.settings.warmupSec > 0) {
    const [warmResult, warmWindow] = await load(job, job.settings.warmupSec, null);
    warm = { ...warmWindow, non2xx: warmResult.non2xx };
  }
  const histogram = hdr.build(HISTOGRAM_OPTIONS);
  const cpuBefore = await cpuSeconds();
  const windowStartMs = Date.now();
  const started = performance.now();
  const [result, win] = await load(job, job.settings.durationSec, histogram);
  const durationMs = performance.now() - started;
  const cpuAfter = await cpuSeconds();
  const seconds = durationMs / 1000;
  const measurement: LoadMeasurement = {
    durationMs: Math.round(durationMs),
    responses: win.responses,
    validResponses: win.valid,
    requestsPerSecond: Math.round((win.valid / seconds) * 100) / 100,
    bytesPerSecond: Math.round(win.bytes / seconds),
    errors: result.errors,
    timeouts: result.timeouts,
    ...foldWarmup({ ...win, non2xx: result.non2xx }, warm),
    latencyUs: percentilesOf(histogram),
    latencyHistogram: histogram.totalCount > 0 ? hdr.encodeIntoCompressedBase64(histogram) : null,
    latencyResolution: "us",
    clientCpuPercent: cpuBefore === null || cpuAfter === null
      ? null
      : Math.round(((cpuAfter - cpuBefore) / seconds) * 1000) / 10,
    windowStartMs,
  };
  // stdout carries only the result.
  await Deno.stdout.write(new TextEncoder().encode(JSON.stringify(measurement)));
}

if (import.meta.main) await main();
