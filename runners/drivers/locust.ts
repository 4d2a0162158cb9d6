/**
 * Locust as a {@linkcode LoadGenerator}: the distributed load tester, run
 * headless as one master and one worker per client CPU (each pinned to its
 * CPU), or with `--client-host`s one worker per CPU of each load machine. The
 * locustfile is written from the workload's own traffic (FastHttpUser, the
 * workload's requests in its order, a captured id carried from a create to
 * the requests that use it) and checks every response as rtbench's engine
 * does: status, content-type, exact body or the workload's pattern, a fault
 * reported to Locust as a failure. Each worker keeps its own counts and
 * latency histogram over the warm-up, the measured window and what came after
 * it, and prints them when the master stops it; rtbench merges them.
 *
 * `--connections` are Locust users (one connection each); `--rate` and
 * `--phases` pace every user along the phases (a user is one connection, so a
 * slow answer delays that user's next send: latency is taken from when each
 * request was due). Locust spends about 400 µs of CPU per request where wrk
 * spends a few: it suits slow workloads and many load machines, not a fast
 * server on one core (see the figures of docs/scaling-out.md).
 *
 * @module
 */

import * as hdr from "hdr-histogram-js";
import { freePort, makeTempDir, parseCpuList, removeTemp, runCommand } from "../platform/mod.ts";
import { round } from "../stats/mod.ts";
import { HISTOGRAM_OPTIONS, percentilesOf } from "../samples/mod.ts";
import {
  LOCUST_VERSION,
  locustMissing,
  type LocustPython,
  locustPython,
  type LocustWorkerOutput,
  parseWorker,
  type PartCounts,
  workerArgs,
} from "./_locust.ts";
import { requestsFor } from "./keep_alive.ts";
import { type OpenModel, openModelOf } from "./open_model.ts";
import { placeJobs } from "./remote_engine.ts";
import { hungAfterMs } from "./accounting.ts";
import { runRemoteWorkers } from "./locust_remote.ts";
import type {
  EndpointMeasurement,
  LoadGenerator,
  LoadMeasurement,
  LoadRunOptions,
  LoadSettings,
  LoadTarget,
} from "./types.ts";

export { LOCUST_VERSION };

/** The locustfile for one run: the run's settings and requests over the fixed program in `_locustfile.py`. */
export async function locustfile(target: LoadTarget, settings: LoadSettings, workers: number): Promise<string> {
  const labels = [...new Set(target.requests.flatMap((r) => r.endpoint === undefined ? [] : [r.endpoint]))];
  const model = openModelOf(settings);
  const config = {
    requests: requestsFor(target.requests, settings).map((r) => ({
      method: r.method ?? "GET",
      path: r.path,
      headers: r.headers ?? {},
      requestBody: r.body ?? null,
      status: r.expect.status,
      contentType: r.expect.contentType,
      body: r.expect.body ?? null,
      bodyPattern: r.expect.bodyPattern ?? null,
      capture: r.capture ?? null,
      endpoint: r.endpoint === undefined ? null : labels.indexOf(r.endpoint),
      endpointName: r.endpoint ?? `${r.method ?? "GET"} ${r.path}`,
    })),
    labels,
    phases: model ? model.phases.map((p) => [p.durationSec, p.fromRate, p.toRate]) : null,
    arrival: model?.arrival ?? "uniform",
    users: settings.connections,
    workers,
    warmupSec: settings.warmupSec,
    durationSec: settings.durationSec,
    timeoutSec: settings.requestTimeoutSec,
  };
  const program = new URL("./_locustfile.py", import.meta.url);
  const text = program.protocol === "file:"
    ? await Deno.readTextFile(program)
    : await fetch(program).then((r) => r.ok ? r.text() : Promise.reject(new Error(`HTTP ${r.status}`)));
  // A JSON string is a Python string literal too.
  return `RTBENCH_CONFIG = ${JSON.stringify(JSON.stringify(config))}\n${text}`;
}

function histogramOf(lists: readonly (readonly [number, number][])[]): hdr.Histogram {
  const h = hdr.build(HISTOGRAM_OPTIONS);
  for (const list of lists) {
    for (const [us, n] of list) {
      h.recordValueWithCount(Math.min(Math.max(1, us), HISTOGRAM_OPTIONS.highestTrackableValue), n);
    }
  }
  return h;
}

const encoded = (h: hdr.Histogram) => h.totalCount > 0 ? hdr.encodeIntoCompressedBase64(h) : null;

/** The open model's phases over every worker: counts summed, histograms merged, rates as asked. */
function phasesOf(parts: readonly LocustWorkerOutput[], model: OpenModel): NonNullable<LoadMeasurement["phases"]> {
  return model.phases.map((phase, i) => {
    const same = parts.map((p) => p.phases[i]);
    const total = (key: "responses" | "valid" | "missedConnections" | "missedClient") =>
      same.reduce((a, p) => a + p[key], 0);
    const h = histogramOf(same.map((p) => p.histogram));
    return {
      durationMs: phase.durationSec * 1000,
      fromRate: phase.fromRate,
      toRate: phase.toRate,
      scheduled: Math.round((phase.fromRate + phase.toRate) / 2 * phase.durationSec),
      responses: total("responses"),
      validResponses: total("valid"),
      missed: total("missedConnections") + total("missedClient"),
      missedConnections: total("missedConnections"),
      missedClient: total("missedClient"),
      achievedRate: round(total("valid") / phase.durationSec, 2),
      latencyUs: percentilesOf(h),
      latencyHistogram: encoded(h),
    };
  });
}

/** The workers' outputs as one measurement: counts summed, histograms merged, faults of every part counted. */
export function mergeWorkers(
  parts: readonly LocustWorkerOutput[],
  labels: readonly string[],
  settings: LoadSettings,
): LoadMeasurement {
  const ran = parts.filter((p) => p.windowStartMs !== null);
  const durationMs = Math.max(1, ...ran.map((p) => p.durationMs));
  const seconds = durationMs / 1000;
  const sum = (part: keyof LocustWorkerOutput["parts"] | "all", key: keyof PartCounts) =>
    parts.reduce(
      (a, p) =>
        a + (part === "all" ? p.parts.warmup[key] + p.parts.window[key] + p.parts.late[key] : p.parts[part][key]),
      0,
    );
  const h = histogramOf(parts.map((p) => p.histogram));
  const valid = sum("window", "valid");
  // Each worker's CPU over the window, or Locust's own CPU warning's figure when it is higher.
  const cpus = parts.map((p) => Math.max(p.cpuPercent ?? -1, p.cpuWarning ?? -1)).filter((c) => c >= 0);
  const model = openModelOf(settings);
  const endpoints: Record<string, EndpointMeasurement> = Object.fromEntries(labels.map((label, i) => {
    const same = parts.map((p) => p.endpoints[i]);
    const eh = histogramOf(same.map((e) => e.histogram));
    const eValid = same.reduce((a, e) => a + e.valid, 0);
    return [label, {
      responses: same.reduce((a, e) => a + e.responses, 0),
      validResponses: eValid,
      warmupValidResponses: same.reduce((a, e) => a + e.warmupValid, 0),
      requestsPerSecond: eValid / seconds,
      latencyUs: percentilesOf(eh),
      latencyHistogram: encoded(eh),
    }];
  }));
  const mismatchParts = parts.map((p) => p.firstMismatch).filter((m): m is string => m !== null);
  return {
    durationMs,
    responses: sum("window", "responses"),
    validResponses: valid,
    requestsPerSecond: round(valid / seconds, 2),
    bytesPerSecond: Math.round(sum("window", "bytes") / seconds),
    // Faults of the warm-up and of the responses after the window count as the window's do: a wrong answer is wrong.
    // A request still out when the workers stopped was never answered: a failure Locust itself does not report.
    errors: sum("all", "errors") + parts.reduce((a, p) => a + (p.outstanding ?? 0), 0),
    timeouts: sum("all", "timeouts"),
    non2xx: sum("all", "non2xx"),
    mismatches: sum("all", "mismatches"),
    firstMismatch: mismatchParts[0] ?? null,
    latencyUs: percentilesOf(h),
    latencyHistogram: encoded(h),
    latencyResolution: "us",
    warmupResponses: sum("warmup", "responses"),
    lateResponses: sum("late", "responses"),
    sentRequests: parts.reduce((a, p) => a + p.sent, 0),
    // The busiest worker, as Locust's own CPU warning judges a worker (percent of one core).
    clientCpuPercent: cpus.length > 0 ? Math.max(...cpus) : null,
    windowStartMs: Math.min(...ran.map((p) => p.windowStartMs!), Date.now()),
    coordinatedOmission: model ? "avoided" : "uncorrected",
    ...(labels.length > 0 ? { endpoints } : {}),
    ...(model ? { phases: phasesOf(parts, model) } : {}),
  };
}

/** The master's argv: headless, waiting for `workers`, `users` spawned at once, stopping after the load. */
function masterArgs(
  python: string,
  file: string,
  bind: string,
  port: number,
  workers: number,
  target: LoadTarget,
  settings: LoadSettings,
): string[] {
  const model = openModelOf(settings);
  const loadSec = model ? model.phases.reduce((a, p) => a + p.durationSec, 0) : settings.durationSec;
  // Workers stop sending at the window's end; the master gives answers in flight the engine's hung bound more, then
  // stops them: a request still out then is counted unanswered, as the engine counts its hung connections.
  const graceSec = hungAfterMs(loadSec * 1000, settings.requestTimeoutSec * 1000) / 1000;
  const runSec = Math.ceil(settings.warmupSec + loadSec + graceSec);
  return [
    python,
    "-m",
    "locust",
    "-f",
    file,
    "--master",
    "--headless",
    "--master-bind-host",
    bind,
    "--master-bind-port",
    String(port),
    "--expect-workers",
    String(workers),
    "--expect-workers-max-wait",
    "60",
    "--users",
    String(settings.connections),
    "--spawn-rate",
    String(settings.connections * 20),
    "--run-time",
    `${runSec}s`,
    "--host",
    target.baseUrl,
    "--only-summary",
    "--loglevel",
    "WARNING",
    "--exit-code-on-error",
    "0",
  ];
}

/** Runs the master and the local workers, each pinned to its CPU; returns what the workers printed. */
async function runLocal(
  py: LocustPython,
  file: string,
  target: LoadTarget,
  settings: LoadSettings,
  options: LoadRunOptions,
  budgetMs: number,
): Promise<LocustWorkerOutput[]> {
  const cpus = options.cpus ? parseCpuList(options.cpus) : [null];
  const port = freePort("127.0.0.1");
  const common = {
    signal: options.signal,
    onSpawn: options.onSpawn,
    timeoutMs: budgetMs,
    keepBytes: 1 << 20,
    role: "load generator",
  };
  const master = runCommand(masterArgs(py.python, file, "127.0.0.1", port, cpus.length, target, settings), {
    ...common,
    cpus: options.cpus,
  });
  const workers = cpus.map((cpu) =>
    runCommand([py.python, ...workerArgs(file, "127.0.0.1", port)], {
      ...common,
      cpus: cpu === null ? null : String(cpu),
    })
  );
  const [m, ...outs] = await Promise.all([master, ...workers]);
  options.signal?.throwIfAborted();
  if (!m.success) throw new Error(`locust master failed: ${lastLines(m.stderr + m.stdout, m.timedOut, budgetMs)}`);
  return outs.map((o, i) => parseWorker(`locust worker ${i + 1}`, o.stdout, lastLines(o.stderr, o.timedOut, budgetMs)));
}

function lastLines(text: string, timedOut: boolean, budgetMs: number): string {
  if (timedOut) return `did not finish within ${budgetMs / 1000} s`;
  return text.trim().split("\n").filter(Boolean).slice(-3).join(" ");
}

/**
 * Locust as a load generator (`--load-generator locust`): installed by
 * rtbench into a virtual environment of its own (pip, the pinned release),
 * run as a master and one worker per client CPU.
 *
 * @example Its pinned release
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { locustGenerator } from "@rtbench/rtbench/runners";
 *
 * assertEquals(await locustGenerator.version(), "2.47.0");
 * ```
 */
export const locustGenerator: LoadGenerator = {
  name: "locust",
  openModel: true,
  captures: true,
  // FastHttpUser's client closes a connection whose answer says Connection: close, as the servers' do when asked.
  closesConnections: true,
  verifies: "status, content-type and exact body or pattern of every response, in the warm-up, the measured " +
    "window and after it (Python in the locustfile rtbench writes; a fault is a Locust failure)",
  available: () => Promise.resolve(locustMissing() === null),
  version: () => Promise.resolve(LOCUST_VERSION),
  async client(): Promise<string> {
    const py = await locustPython();
    return `python ${py.pythonVersion} (venv ${py.python.replace(/\/bin\/python$/, "")})`;
  },
  unsupported(target: LoadTarget, settings: LoadSettings): string | null {
    if (settings.pipelining > 1) return "a Locust user sends one request at a time (no --pipelining)";
    return target.baseUrl === "" || new URL(target.baseUrl).protocol === "http:" ? null : "only http:// targets";
  },
  async run(target: LoadTarget, settings: LoadSettings, options: LoadRunOptions): Promise<LoadMeasurement> {
    const reason = this.unsupported!(target, settings);
    if (reason) throw new Error(reason);
    const py = await locustPython(options.signal);
    const labels = [...new Set(target.requests.flatMap((r) => r.endpoint === undefined ? [] : [r.endpoint]))];
    const model = openModelOf(settings);
    const loadSec = model ? model.phases.reduce((a, p) => a + p.durationSec, 0) : settings.durationSec;
    const budgetMs = (settings.warmupSec + loadSec + settings.requestTimeoutSec + 90) * 1000;
    const dir = await makeTempDir({ prefix: "rtbench-locust-" });
    try {
      const file = `${dir}/locustfile.py`;
      if (options.clientHosts?.length) {
        const slots = placeJobs(options.clientHosts);
        await Deno.writeTextFile(file, await locustfile(target, settings, slots.length));
        const { parts, shares } = await runRemoteWorkers(
          py,
          file,
          slots,
          (bind, port) => masterArgs(py.python, file, bind, port, slots.length, target, settings),
          budgetMs,
          options,
        );
        return { ...mergeWorkers(parts, labels, settings), clientHosts: shares };
      }
      const cpus = options.cpus ? parseCpuList(options.cpus).length : 1;
      await Deno.writeTextFile(file, await locustfile(target, settings, cpus));
      return mergeWorkers(await runLocal(py, file, target, settings, options, budgetMs), labels, settings);
    } finally {
      await removeTemp(dir);
    }
  },
};
