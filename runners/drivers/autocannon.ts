/**
 * autocannon as a {@linkcode LoadGenerator}: runs in its own Deno process
 * (pinned apart from the server), verifies every response and reports
 * microsecond latencies.
 *
 * It cannot send each request on a new connection (`--keep-alive off`): its one way, `reconnectRate`, drops the
 * response that completes a connection's last request before counting or checking it, and a server's close after
 * `Connection: close` makes it reconnect with its requests' bookkeeping out of step.
 *
 * @module
 */

import { headUnread } from "./head_requests.ts";
import { pinnedVersion, runTool, toolJson } from "../platform/mod.ts";
import { mergeLatency } from "../samples/mod.ts";
import type { LoadGenerator, LoadMeasurement, LoadRunOptions, LoadSettings, LoadTarget } from "./types.ts";
import { foldWarmup, type WindowFaults } from "./warmup.ts";
import type { AutocannonJob, AutocannonOutput, AutocannonWindow } from "./_autocannon_child.ts";

export type { AutocannonOutput, AutocannonResult, AutocannonWindow } from "./_autocannon_child.ts";

const CHILD = new URL("./_autocannon_child.ts", import.meta.url);

/** The autocannon version rtbench is pinned to, read from the import map. */
export const AUTOCANNON_VERSION: string = pinnedVersion("autocannon");

/** Deno flags for the child: loopback network to the target only, and its config when run from a checkout. */
function childArgs(baseUrl: string): string[] {
  const host = new URL(baseUrl).host;
  const args = ["run", `--allow-net=${host}`, "--allow-env", "--allow-sys", "--allow-read", "--allow-run=cat"];
  if (CHILD.protocol === "file:") args.push(`--config=${new URL("../../deno.json", import.meta.url).pathname}`);
  return [...args, CHILD.href];
}

function windowFaults(w: AutocannonWindow): WindowFaults {
  return {
    responses: w.responses,
    non2xx: w.autocannon.non2xx,
    mismatches: w.mismatches,
    firstMismatch: w.firstMismatch,
  };
}

/** What the autocannon child saw of the window and its warm-up (or null) as a {@linkcode LoadMeasurement}. */
export function autocannonMeasurement(
  measured: AutocannonWindow,
  warm: AutocannonWindow | null,
  windowStartMs: number,
): LoadMeasurement {
  const seconds = measured.durationMs / 1000;
  return {
    durationMs: Math.round(measured.durationMs),
    responses: measured.responses,
    validResponses: measured.valid,
    requestsPerSecond: Math.round((measured.valid / seconds) * 100) / 100,
    bytesPerSecond: Math.round(measured.bytes / seconds),
    errors: measured.autocannon.errors,
    timeouts: measured.autocannon.timeouts,
    ...foldWarmup(windowFaults(measured), warm && windowFaults(warm)),
    latencyUs: mergeLatency([measured.latencyHistogram]),
    latencyHistogram: measured.latencyHistogram,
    latencyResolution: "us",
    clientCpuPercent: measured.cpuSeconds === null ? null : Math.round((measured.cpuSeconds / seconds) * 1000) / 10,
    windowStartMs,
  };
}

/**
 * The default load generator.
 *
 * @example Load a server for one second
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { autocannonGenerator } from "@rtbench/rtbench/runners";
 *
 * await using server = Deno.serve(
 *   { hostname: "127.0.0.1", port: 0, onListen() {} },
 *   () => new Response("ok", { headers: { "content-type": "text/plain" } }),
 * );
 * const m = await autocannonGenerator.run(
 *   {
 *     baseUrl: `http://127.0.0.1:${server.addr.port}`,
 *     requests: [{ path: "/", expect: { status: 200, contentType: "text/plain", body: "ok" } }],
 *   },
 *   { durationSec: 1, warmupSec: 0, connections: 10, pipelining: 1, requestTimeoutSec: 10 },
 *   { cpus: null },
 * );
 * assertEquals([m.validResponses > 0, m.mismatches, m.non2xx], [true, 0, 0]);
 * ```
 */
export const autocannonGenerator: LoadGenerator = {
  name: "autocannon",
  verifies: "status, content-type and body (exact or pattern) of every response, warm-up and measurement",
  available(): Promise<boolean> {
    return Promise.resolve(true);
  },
  unsupported(target: LoadTarget, settings: LoadSettings): string | null {
    // autocannon refuses a timeout under 1 s with no other word than "timeout must be greater than 0".
    if (settings.requestTimeoutSec < 1) return "autocannon takes a request timeout of 1 s or more (--timeout)";
    return headUnread("autocannon", target);
  },
  version(): Promise<string> {
    return Promise.resolve(AUTOCANNON_VERSION);
  },
  async run(target: LoadTarget, settings: LoadSettings, options: LoadRunOptions): Promise<LoadMeasurement> {
    const job: AutocannonJob = { target, settings };
    const budgetMs = (settings.warmupSec + settings.durationSec + settings.requestTimeoutSec + 60) * 1000;
    const output = toolJson<AutocannonOutput>(
      "autocannon",
      await runTool("autocannon", [Deno.execPath(), ...childArgs(target.baseUrl)], {
        cpus: options.cpus,
        stdin: JSON.stringify(job),
        timeoutMs: budgetMs,
        signal: options.signal,
        onSpawn: options.onSpawn,
        keepBytes: 4 << 20,
        env: { NO_COLOR: "1" },
        // rtbench's own program on its Deno: it finds its modules where rtbench's were.
        purpose: "harness",
        role: "load generator",
      }),
    );
    return autocannonMeasurement(output.measured, output.warm, output.windowStartMs);
  },
};
