/**
 * rtbench's own load engine as a {@linkcode LoadGenerator}: raw TCP, HTTP/1.1
 * keep-alive with pipelining, every request of the workload's traffic encoded
 * once and rotated, every response — in the warm-up and in the measured window
 * — parsed strictly and checked for status, content-type and exact body or
 * pattern, latency per response in microseconds. It runs in processes of its
 * own on Bun (pinned to its own version, from npm like the Bun under test), one
 * per client CPU, each pinned to its CPU, with the connections spread over
 * them and their histograms merged. Where Bun cannot be had it runs on Deno.
 *
 * @module
 */

import * as hdr from "hdr-histogram-js";
import { cacheDir, resolveRuntime } from "../../adapters/mod.ts";
import { parseCpuList, runTool, toolJson } from "../platform/mod.ts";
import { round } from "../stats/mod.ts";
import { percentilesOf } from "../samples/mod.ts";
import { hungAfterMs, mergeAccounting } from "./accounting.ts";
import {
  copiedPath,
  countedSpanOf,
  type EndpointCounts,
  ENGINE_FILES,
  type EngineCounts,
  type EngineJob,
  engineProgram,
  engineRequest,
  histogramOf,
  mergePhases,
  type RatePhase,
} from "../engine/mod.ts";
import { type OpenModel, openModelOf } from "./open_model.ts";
import type {
  EndpointMeasurement,
  LoadGenerator,
  LoadMeasurement,
  LoadRunOptions,
  LoadSettings,
  LoadTarget,
} from "./types.ts";
import { placeJobs, runOnHosts } from "./remote_engine.ts";
import { closesConnections, requestsFor } from "./keep_alive.ts";
import denoConfig from "../../deno.json" with { type: "json" };

/**
 * The Bun the engine runs on, whichever Bun is under test (provisioned from npm once, then cached).
 *
 * @example The engine's Bun is a fixed release
 * ```ts
 * import { assertMatch } from "@std/assert";
 * import { ENGINE_BUN_VERSION } from "@rtbench/rtbench/runners";
 *
 * assertMatch(ENGINE_BUN_VERSION, /^\d+\.\d+\.\d+$/);
 * ```
 */
export const ENGINE_BUN_VERSION = "1.4.5";

/** The runtime the engine's processes run on: its binary, argv prefix and how records name it. */
interface EngineRuntime {
  readonly argv: (child: string, host: string) => string[];
  readonly client: string;
}

let chosen: Promise<EngineRuntime> | undefined;

/** What the engine runs on, for records: `bun 1.4.5`, or Deno and why Bun could not be had. */
export async function engineClient(signal?: AbortSignal): Promise<string> {
  return (await engineRuntime(signal)).client;
}

/** Bun at the engine's version (provisioned from npm once, then cached), else the Deno running rtbench. */
function engineRuntime(signal?: AbortSignal): Promise<EngineRuntime> {
  chosen ??= (async () => {
    try {
      // Forcing Deno tries the fallback where Bun is available (and is how it is tested).
      if (Deno.env.get("RTBENCH_ENGINE_RUNTIME") === "deno") throw new Error("RTBENCH_ENGINE_RUNTIME=deno");
      const bun = await resolveRuntime({
        name: "bun",
        requested: `bun@${ENGINE_BUN_VERSION}`,
        version: ENGINE_BUN_VERSION,
      }, {
        cacheDir: cacheDir(),
        signal,
        // What runs the load needs no release line: npm is not asked.
        releases: null,
      });
      return { argv: (child) => [bun.binary, child], client: `bun ${bun.version}` };
    } catch (error) {
      signal?.throwIfAborted();
      const why = (error as Error).message.split("\n")[0].slice(0, 160);
      return {
        argv: (child, host) => [Deno.execPath(), "run", `--allow-net=${host}`, "--allow-read", child],
        client: `deno ${Deno.version.deno} (Bun ${ENGINE_BUN_VERSION} could not be had: ${why})`,
      };
    }
  })();
  return chosen;
}

/** The engine's jobs on load machines: its files and runtime staged there, each job on its slot's host and CPU. */
async function runOnRemoteHosts(
  jobs: readonly EngineJob[],
  slots: ReturnType<typeof placeJobs>,
  host: string,
  warmupSec: number,
  budgetMs: number,
  options: LoadRunOptions,
) {
  const runtime = await engineRuntime(options.signal);
  await using program = await engineProgram();
  const files = ENGINE_FILES.map((name) => ({ local: `${program.root}/${copiedPath(name)}`, path: copiedPath(name) }));
  const placed = jobs.map((job, i) => ({ ...slots[i], job }));
  return await runOnHosts<EngineCounts>(
    placed,
    files,
    (child) => runtime.argv(child, host),
    warmupSec,
    budgetMs,
    options,
  );
}

/** The argv that runs a program of the engine's (`child`) on the engine's runtime, allowed to reach `host` only. */
export async function engineCommand(signal?: AbortSignal): Promise<(child: string, host: string) => string[]> {
  return (await engineRuntime(signal)).argv;
}

/** Splits `total` connections over `parts` processes as evenly as possible. */
export function spread(total: number, parts: number): number[] {
  return Array.from({ length: parts }, (_, i) => Math.floor(total / parts) + (i < total % parts ? 1 : 0))
    .filter((n) => n > 0);
}

/**
 * Runs one engine process per job, the i-th pinned to `cpus[i]`, and returns
 * what each printed. `host` is the only address the Deno fallback may reach.
 */
export async function runEngine<T>(
  jobs: readonly object[],
  cpus: readonly (number | null)[],
  host: string,
  budgetMs: number,
  options: { readonly signal?: AbortSignal; onSpawn?(pid: number): void },
): Promise<T[]> {
  const runtime = await engineRuntime(options.signal);
  await using child = await engineProgram();
  return await Promise.all(jobs.map(async (job, i) =>
    toolJson<T>(
      "rtbench engine",
      await runTool("rtbench engine", runtime.argv(child.path, host), {
        cpus: cpus[i] === null || cpus[i] === undefined ? null : String(cpus[i]),
        stdin: JSON.stringify(job),
        timeoutMs: budgetMs,
        signal: options.signal,
        onSpawn: options.onSpawn,
        keepBytes: 8 << 20,
        env: { NO_COLOR: "1" },
        role: "load engine",
      }),
    )
  ));
}

/**
 * One process's share of an open model: every phase at `1/processes` of its
 * rate, after a warm-up at the first phase's starting rate; Poisson seeds
 * differ per process, and evenly spaced schedules are staggered (process
 * `index` by `index/processes` of an interval), so that their arrivals do
 * not coincide.
 */
export function openJob(
  model: OpenModel,
  warmupSec: number,
  processes: number,
  seed: number,
  index = 0,
): NonNullable<EngineJob["open"]> {
  const share = (rate: number) => rate / processes;
  const measured: RatePhase[] = model.phases.map((p) => ({
    durationMs: p.durationSec * 1000,
    fromRate: share(p.fromRate),
    toRate: share(p.toRate),
    measured: true,
  }));
  const warmup: RatePhase[] = warmupSec > 0
    ? [{
      durationMs: warmupSec * 1000,
      fromRate: measured[0].fromRate || measured[0].toRate,
      toRate: measured[0].fromRate || measured[0].toRate,
      measured: false,
    }]
    : [];
  // Process i of P sends its evenly spaced requests i/P of an interval after process 0: together, evenly spaced too.
  return { phases: [...warmup, ...measured], arrival: model.arrival, seed: seed + 1, offset: index / processes };
}

/** When the engine's processes start their load together: time for each to start and open its connections. */
export function sharedStart(processes: number, connections: number): number | undefined {
  return processes > 1 ? Date.now() + 300 + Math.min(700, connections) : undefined;
}

/** Each endpoint's counts over the engine's processes: summed, histograms merged. */
function mergeEndpoints(
  parts: readonly EngineCounts[],
  labels: readonly string[],
  durationMs: number,
): Record<string, EndpointMeasurement> {
  return Object.fromEntries(labels.map((label, i) => {
    const same = parts.map((p) => p.endpoints![i]);
    const sum = (key: keyof Omit<EndpointCounts, "histogram">) => same.reduce((a, e) => a + e[key], 0);
    const h = histogramOf(same);
    return [label, {
      responses: sum("responses"),
      validResponses: sum("validResponses"),
      warmupValidResponses: sum("warmupValidResponses"),
      requestsPerSecond: sum("validResponses") / (durationMs / 1000),
      latencyUs: percentilesOf(h),
      latencyHistogram: h.totalCount > 0 ? hdr.encodeIntoCompressedBase64(h) : null,
    }];
  }));
}

/** Keep-alive off: the connect times and the requests' whole times of every process, merged. */
function perRequestLatencies(parts: readonly EngineCounts[]): Partial<LoadMeasurement> {
  const connect = histogramOf(parts.map((p) => ({ histogram: p.connectHistogram ?? [] })));
  const total = histogramOf(parts.map((p) => ({ histogram: p.totalHistogram ?? [] })));
  return {
    connectUs: percentilesOf(connect),
    connectHistogram: connect.totalCount > 0 ? hdr.encodeIntoCompressedBase64(connect) : null,
    totalLatencyUs: percentilesOf(total),
    totalLatencyHistogram: total.totalCount > 0 ? hdr.encodeIntoCompressedBase64(total) : null,
  };
}

/**
 * Sums the counts of the engine's processes and merges their histograms into one measurement: what
 * {@linkcode engineGenerator} returns, from the counts each process reported for `job` (`labels` name its requests).
 *
 * @example The engine's counts of a load run in process, as one measurement
 * ```ts ignore
 * const m = mergeEngineCounts([await driveHttp(job, clock, net.connect)], ["GET /"], job);
 * ```
 */
export function mergeEngineCounts(
  parts: readonly EngineCounts[],
  labels: readonly string[],
  job: EngineJob,
): LoadMeasurement {
  const h = histogramOf(parts);
  const sum = (key: keyof EngineCounts) => parts.reduce((a, p) => a + (p[key] as number), 0);
  const durationMs = Math.max(...parts.map((p) => p.durationMs));
  const validResponses = sum("validResponses");
  const cpuUs = parts.every((p) => p.cpuUs !== null) ? sum("cpuUs") : null;
  // The open model counts an answer by when its request was due, not by when it came: no span, no windows.
  const countedSpanMs = parts[0].phases ? undefined : countedSpanOf(parts);
  return {
    durationMs,
    responses: sum("responses"),
    validResponses,
    requestsPerSecond: validResponses / (durationMs / 1000),
    ...(countedSpanMs === undefined ? {} : { countedSpanMs }),
    bytesPerSecond: sum("bytes") / (durationMs / 1000),
    errors: sum("errors"),
    timeouts: sum("timeouts"),
    non2xx: sum("non2xx"),
    mismatches: sum("mismatches"),
    firstMismatch: parts.find((p) => p.firstMismatch !== null)?.firstMismatch ?? null,
    latencyUs: percentilesOf(h),
    latencyHistogram: h.totalCount > 0 ? hdr.encodeIntoCompressedBase64(h) : null,
    latencyResolution: "us",
    warmupResponses: sum("warmupResponses"),
    lateResponses: sum("lateResponses"),
    sentRequests: sum("sent"),
    clientCpuPercent: cpuUs === null || durationMs <= 0 ? null : round(cpuUs / 1000 / durationMs * 100, 1),
    accounting: mergeAccounting(
      parts.map((p) => p.accounting),
      sum("responses"),
      job.hungAfterMs,
      job.timeoutSec * 1000,
    ),
    windowStartMs: Math.min(...parts.map((p) => p.windowStartMs)),
    ...(parts[0].phases ? {} : { windows: parts.map((p) => ({ startMs: p.windowStartMs, durationMs: p.durationMs })) }),
    ...(parts[0].connectHistogram ? perRequestLatencies(parts) : {}),
    coordinatedOmission: parts[0].phases ? "avoided" : "uncorrected",
    ...(parts[0].phases ? { phases: mergePhases(parts) } : {}),
    ...(parts[0].endpoints ? { endpoints: mergeEndpoints(parts, labels, durationMs) } : {}),
    ...(job.sampleEvery
      ? { samples: parts.flatMap((p) => (p.samples ?? []).map((s) => ({ request: s.index, body: s.body }))) }
      : {}),
  };
}

/**
 * The engine's jobs for a load of `target` under `settings`, its connections spread over `processes` processes (that
 * start together at `startAtEpochMs` when given), and the labels of the traffic's endpoints: what each engine process
 * is handed.
 *
 * @example One process's job for ten connections
 * ```ts ignore
 * const { jobs } = engineJobs(target, settings, 1);
 * ```
 */
export function engineJobs(
  target: LoadTarget,
  settings: LoadSettings,
  processes: number,
  startAtEpochMs?: number,
): { jobs: EngineJob[]; labels: string[] } {
  const url = new URL(target.baseUrl);
  const requests = requestsFor(target.requests, settings).map((r) => engineRequest(url.host, r));
  const labels = [...new Set(target.requests.flatMap((r) => r.endpoint === undefined ? [] : [r.endpoint]))];
  const endpoints = labels.length > 0
    ? target.requests.map((r) => r.endpoint === undefined ? labels.length : labels.indexOf(r.endpoint))
    : undefined;
  const model = openModelOf(settings);
  let first = 0;
  const jobs = spread(settings.connections, processes).map((connections, index): EngineJob => {
    const job: EngineJob = {
      kind: "http",
      hostname: url.hostname.replace(/^\[|\]$/g, ""),
      port: Number(url.port || 80),
      requests,
      connections,
      pipelining: settings.pipelining,
      ...(closesConnections(settings) ? { keepAlive: false } : {}),
      warmupSec: settings.warmupSec,
      durationSec: settings.durationSec,
      timeoutSec: settings.requestTimeoutSec,
      hungAfterMs: hungAfterMs(settings.durationSec * 1000, settings.requestTimeoutSec * 1000),
      firstRequest: first,
      ...(target.sampleEvery ? { sampleEvery: target.sampleEvery } : {}),
      ...(startAtEpochMs === undefined ? {} : { startAtEpochMs }),
      ...(endpoints ? { endpoints } : {}),
      ...(model ? { open: openJob(model, settings.warmupSec, processes, first, index) } : {}),
    };
    first += connections;
    return job;
  });
  return { jobs, labels };
}

/**
 * rtbench's load engine, the default `--load-generator`.
 *
 * @example Load a server for one second, every response checked
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { engineGenerator } from "@rtbench/rtbench/runners";
 *
 * await using server = Deno.serve(
 *   { hostname: "127.0.0.1", port: 0, onListen() {} },
 *   () => new Response("ok", { headers: { "content-type": "text/plain" } }),
 * );
 * const m = await engineGenerator.run(
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
export const engineGenerator: LoadGenerator = {
  name: "rtbench",
  openModel: true,
  captures: true,
  accounts: true,
  closesConnections: true,
  verifies: "status, content-type, the headers the traffic names and exact body or pattern (and the values per key " +
    "the traffic gives) of every response, in the warm-up and the measured window; responses the traffic samples are " +
    "checked again after the run",
  available: () => Promise.resolve(true),
  version: () => Promise.resolve(denoConfig.version),
  client: () => engineClient(),
  unsupported(target: LoadTarget, settings: LoadSettings): string | null {
    // The open model sends on whichever connection is free: it cannot hold back a request for an earlier answer.
    if (openModelOf(settings) && settings.pipelining > 1 && target.requests.some((r) => r.capture !== undefined)) {
      return "a captured value with --pipelining above 1 needs the closed model";
    }
    return new URL(target.baseUrl || "http://127.0.0.1").protocol === "http:" || target.baseUrl === ""
      ? null
      : "only http:// targets";
  },
  async run(target: LoadTarget, settings: LoadSettings, options: LoadRunOptions): Promise<LoadMeasurement> {
    const cpus = options.cpus ? parseCpuList(options.cpus) : [null];
    const model = openModelOf(settings);
    // On load machines (--client-host) one process per CPU of each, the connections spread over all of them.
    const slots = options.clientHosts?.length ? placeJobs(options.clientHosts) : null;
    const processes = slots ? slots.length : cpus.length;
    const startAtEpochMs = slots ? undefined : sharedStart(processes, settings.connections);
    const { jobs, labels } = engineJobs(target, settings, processes, startAtEpochMs);
    const loadSec = model ? model.phases.reduce((a, p) => a + p.durationSec, 0) : settings.durationSec;
    const budgetMs = (settings.warmupSec + loadSec + settings.requestTimeoutSec + 60) * 1000;
    if (slots) {
      const { parts, shares: hosts } = await runOnRemoteHosts(
        jobs,
        slots,
        new URL(target.baseUrl).hostname,
        settings.warmupSec,
        budgetMs,
        options,
      );
      // Their windows are dated by the load machines' clocks, not this one's, where side effects are dated. The counted
      // span stays: each process's is read from its own window's start, whatever its clock.
      const { windows: _elsewhere, ...measured } = mergeEngineCounts(parts, labels, jobs[0]);
      return { ...measured, clientHosts: hosts };
    }
    const parts = await runEngine<EngineCounts>(jobs, cpus, new URL(target.baseUrl).host, budgetMs, options);
    return mergeEngineCounts(parts, labels, jobs[0]);
  },
};
