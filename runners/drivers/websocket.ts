/**
 * The WebSocket load driver: rtbench's load engine (raw frames, one process
 * per client CPU), or `_websocket_child.ts` in a Deno process with Deno's own
 * WebSocket or the `ws` package; pinned apart from the server, every echo
 * verified byte for byte.
 *
 * @module
 */

import * as hdr from "hdr-histogram-js";
import { parseCpuList, runTool, toolJson } from "../platform/mod.ts";
import { round } from "../stats/mod.ts";
import { percentilesOf } from "../samples/mod.ts";
import { type EngineWsCounts, type EngineWsJob, histogramOf, mergePhases, WS_GUID } from "../engine/mod.ts";
import { openJob, runEngine, sharedStart, spread } from "./engine.ts";
import { hungAfterMs, type LoadAccounting, mergeAccounting } from "./accounting.ts";
import { openModelOf } from "./open_model.ts";
import type { MeasuredPhase } from "./types.ts";
import type { LatencyPercentiles } from "./types.ts";
import denoConfig from "../../deno.json" with { type: "json" };

const CHILD = new URL("./_websocket_child.ts", import.meta.url);

/** The `ws` version rtbench is pinned to, read from the import map. */
export const WS_VERSION: string = /(\d+\.\d+\.\d+)/.exec(denoConfig.imports.ws)?.[1] ?? "unknown";

/**
 * Which WebSocket client the driver uses: `engine` is rtbench's load engine
 * (raw frames over TCP on Bun, one process per client CPU), `native` the
 * WebSocket built into the Deno running the driver, `ws` the npm package
 * under Deno's Node compatibility layer.
 *
 * @example Measure with the `ws` package instead of Deno's own client
 * ```ts
 * import type { WebSocketClient } from "@rtbench/rtbench/runners";
 *
 * const client: WebSocketClient = "ws";
 * ```
 */
export type WebSocketClient = "engine" | "native" | "ws";

/** The client the driver uses unless told otherwise: the cheapest per message, measured by `runners/dev/ws_ceiling.ts`. */
export const DEFAULT_WEBSOCKET_CLIENT: WebSocketClient = "engine";

/**
 * What the driver does in one run.
 *
 * @example Ten sockets, one 64-byte message in flight each, for two seconds
 * ```ts
 * import type { WebSocketLoadJob } from "@rtbench/rtbench/runners";
 *
 * const job: WebSocketLoadJob = {
 *   url: "ws://127.0.0.1:8000/",
 *   client: "native",
 *   connections: 10,
 *   inFlight: 1,
 *   messageSize: 64,
 *   durationSec: 2,
 *   warmupSec: 1,
 *   messages: null,
 *   timeoutSec: 10,
 * };
 * ```
 */
export interface WebSocketLoadJob {
  /** For example `ws://127.0.0.1:41234/`. */
  readonly url: string;
  /** Client library. */
  readonly client: WebSocketClient;
  /** Sockets held open. */
  readonly connections: number;
  /** Messages in flight per socket. */
  readonly inFlight: number;
  /** Bytes per message; at least 8. */
  readonly messageSize: number;
  /** Measured seconds, unless `messages` ends the window. */
  readonly durationSec: number;
  /** Seconds of load before measuring, discarded. */
  readonly warmupSec: number;
  /** Verified echoes after which the measured window ends; null to measure for `durationSec`. */
  readonly messages: number | null;
  /** Seconds a handshake or an echo may take before it counts as a timeout. */
  readonly timeoutSec: number;
  /** A process whose CPU use is sampled over the same window as the driver's own, usually the server's. */
  readonly serverPid?: number;
  /** Open model (the engine only): messages per second on a fixed schedule, instead of `inFlight` per socket. */
  readonly rate?: number;
  /** Open model: phases of constant and ramping rates (`10s@20000,10s@20000->40000`); over `rate`. */
  readonly phases?: string;
  /** Open model: evenly spaced arrivals or a Poisson process. @default {"uniform"} */
  readonly arrival?: "uniform" | "poisson";
  /** Closed model: how long messages in flight at the window's end may take before their socket is hung. */
  readonly hungAfterMs?: number;
}

/**
 * Raw figures of one run; failures are counted apart, never as samples.
 *
 * @example Failures are counted apart from the echoes
 * ```ts
 * import type { WebSocketMeasurement } from "@rtbench/rtbench/runners";
 *
 * function trustworthy(m: WebSocketMeasurement): boolean {
 *   return m.connected === m.connections && m.mismatches === 0 && m.timeouts === 0;
 * }
 * ```
 */
export interface WebSocketMeasurement {
  /** Length of the measured window. */
  readonly durationMs: number;
  /** Sockets asked for. */
  readonly connections: number;
  /** Sockets whose handshake succeeded. */
  readonly connected: number;
  /** Median handshake time, all sockets opened at once; null when none opened. */
  readonly connectMedianUs: number | null;
  /** Slowest handshake; null when none opened. */
  readonly connectMaxUs: number | null;
  /** Messages sent in the window. */
  readonly sentMessages: number;
  /** Echoes received in the window, valid or not. */
  readonly receivedMessages: number;
  /** Echoes identical to the message they answer, received in the window. */
  readonly validMessages: number;
  /** Valid echoes per second (server to client). */
  readonly messagesPerSecond: number;
  /** Messages sent per second (client to server). */
  readonly sentMessagesPerSecond: number;
  /** Payload bytes of valid echoes per second. */
  readonly bytesPerSecond: number;
  /** Sockets whose handshake failed or timed out. */
  readonly failedConnections: number;
  /** Open sockets closed by the server or the network before the driver closed them. */
  readonly droppedSockets: number;
  /** Messages whose echo did not come within the timeout (each ends its socket). */
  readonly timeouts: number;
  /** Echoes that differ from the message they answer, or come unasked. */
  readonly mismatches: number;
  /** The first failure of any kind, to say what went wrong. */
  readonly firstFailure: string | null;
  /** Latency of valid echoes, send to receive. */
  readonly latencyUs: LatencyPercentiles | null;
  /** The latency histogram (HDR, compressed base64, microseconds). */
  readonly latencyHistogram: string | null;
  /** Valid echoes during warm-up (not measured). */
  readonly warmupMessages: number;
  /** CPU time the driver used in the window, as percent of one core. */
  readonly clientCpuPercent: number | null;
  /** CPU time of the job's `serverPid` over the same window, as percent of one core; null without one. */
  readonly serverCpuPercent: number | null;
  /** When the measured window began (epoch milliseconds), to line resource samples up with it. */
  readonly windowStartMs?: number;
  /** Open model: the measured phases (`responses` are echoes). */
  readonly phases?: readonly MeasuredPhase[];
  /** How latency treats coordinated omission: `uncorrected` (closed model) or `avoided` (open model). */
  readonly coordinatedOmission?: "uncorrected" | "avoided";
  /** How every message of the window ended beyond its echo: unanswered, unasked, hung, dropped, reconnected. */
  readonly accounting?: LoadAccounting;
}

/**
 * Options of one {@linkcode runWebSocketDriver} call.
 *
 * @example Pinned to CPU 1
 * ```ts
 * import type { WebSocketDriverOptions } from "@rtbench/rtbench/runners";
 *
 * const options: WebSocketDriverOptions = { cpus: "1", signal: AbortSignal.timeout(60_000) };
 * ```
 */
export interface WebSocketDriverOptions {
  /** CPU list the driver is pinned to, or null; the engine runs one process per CPU of it. */
  readonly cpus: string | null;
  /** Stops the driver. */
  readonly signal?: AbortSignal;
  /** Called with the pid of every process the driver starts, so that its CPU can be sampled. */
  onSpawn?(pid: number): void;
}

/** Deno flags for the child: network to the target only, and its config when run from a checkout. */
function childArgs(url: string): string[] {
  const host = new URL(url).host;
  const args = ["run", `--allow-net=${host}`, "--allow-env", "--allow-sys", "--allow-read", "--allow-run=cat"];
  if (CHILD.protocol === "file:") args.push(`--config=${new URL("../../deno.json", import.meta.url).pathname}`);
  return [...args, CHILD.href];
}

/**
 * Runs the driver process once: connect, warm up, measure, close.
 *
 * @param job The server's URL and the load to put on it.
 * @param options Where the driver is pinned, and a signal that stops it.
 * @returns The run's verified figures: echoes per second, latency, and failures counted apart.
 *
 * @example Load an echo server for one second
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { runWebSocketDriver } from "@rtbench/rtbench/runners";
 *
 * await using server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (request) => {
 *   const { socket, response } = Deno.upgradeWebSocket(request);
 *   socket.onmessage = (event) => socket.send(event.data);
 *   return response;
 * });
 * const m = await runWebSocketDriver({
 *   url: `ws://127.0.0.1:${server.addr.port}/`,
 *   client: "native",
 *   connections: 4,
 *   inFlight: 1,
 *   messageSize: 64,
 *   durationSec: 1,
 *   warmupSec: 0,
 *   messages: null,
 *   timeoutSec: 10,
 * }, { cpus: null });
 * assertEquals([m.connected, m.mismatches], [4, 0]);
 * ```
 */
export async function runWebSocketDriver(
  job: WebSocketLoadJob,
  options: WebSocketDriverOptions,
): Promise<WebSocketMeasurement> {
  // With a message count the child ends the run itself: every echo is bounded by the timeout.
  const model = openModelOf(job);
  const windowSec = model
    ? model.phases.reduce((a, p) => a + p.durationSec, 0)
    : job.messages === null
    ? job.durationSec
    : 86_400;
  const budgetMs = (job.warmupSec + windowSec + 2 * job.timeoutSec + 60) * 1000;
  if (job.client === "engine") return await onEngine(job, options, budgetMs);
  return toolJson<WebSocketMeasurement>(
    "WebSocket driver",
    await runTool("WebSocket driver", [Deno.execPath(), ...childArgs(job.url)], {
      cpus: options.cpus,
      stdin: JSON.stringify(job),
      timeoutMs: budgetMs,
      signal: options.signal,
      onSpawn: options.onSpawn,
      keepBytes: 1 << 20,
      env: { NO_COLOR: "1" },
      // rtbench's own program on its Deno: it finds its modules where rtbench's were.
      purpose: "harness",
      role: "load generator",
    }),
  );
}

/** A handshake key and the `Sec-WebSocket-Accept` a server must answer it with (RFC 6455 §4.2.2). */
async function handshakeKey(): Promise<{ key: string; accept: string }> {
  const base64 = (bytes: Uint8Array) => btoa(String.fromCharCode(...bytes));
  const key = base64(crypto.getRandomValues(new Uint8Array(16)));
  const digest = await crypto.subtle.digest("SHA-1", new TextEncoder().encode(key + WS_GUID));
  return { key, accept: base64(new Uint8Array(digest)) };
}

/**
 * The engine's jobs for a WebSocket load `job`, its sockets spread over `processes` processes (that start together at
 * `startAtEpochMs` when given), each opening with the handshake's `key` and expecting its `accept`.
 *
 * @example One process's job
 * ```ts ignore
 * const [part] = engineWsJobs(job, { key, accept }, 1);
 * ```
 */
export function engineWsJobs(
  job: WebSocketLoadJob,
  handshake: { key: string; accept: string },
  processes: number,
  startAtEpochMs?: number,
): EngineWsJob[] {
  const url = new URL(job.url);
  const model = openModelOf(job);
  const hungMs = job.hungAfterMs ?? hungAfterMs(job.durationSec * 1000, job.timeoutSec * 1000);
  let first = 0;
  return spread(job.connections, processes).map((connections, index): EngineWsJob => {
    const part: EngineWsJob = {
      kind: "websocket",
      hostname: url.hostname.replace(/^\[|\]$/g, ""),
      port: Number(url.port || 80),
      path: `${url.pathname}${url.search}`,
      ...handshake,
      connections,
      firstSocket: first,
      inFlight: job.inFlight,
      messageSize: job.messageSize,
      warmupSec: job.warmupSec,
      durationSec: job.durationSec,
      // Each process ends its window after its share of the messages.
      messages: job.messages === null ? null : Math.ceil(job.messages * connections / job.connections),
      timeoutSec: job.timeoutSec,
      hungAfterMs: hungMs,
      ...(startAtEpochMs === undefined ? {} : { startAtEpochMs }),
      ...(model ? { open: openJob(model, job.warmupSec, processes, first, index) } : {}),
    };
    first += connections;
    return part;
  });
}

/** The job on rtbench's load engine: one process per client CPU, sockets and messages shared out, counts merged. */
async function onEngine(
  job: WebSocketLoadJob,
  options: WebSocketDriverOptions,
  budgetMs: number,
): Promise<WebSocketMeasurement> {
  const url = new URL(job.url);
  const cpus = options.cpus ? parseCpuList(options.cpus) : [null];
  if (openModelOf(job) && job.client !== "engine") {
    throw new TypeError("--rate and --phases need the engine's WebSocket client");
  }
  const jobs = engineWsJobs(job, await handshakeKey(), cpus.length, sharedStart(cpus.length, job.connections));
  const parts = await runEngine<EngineWsCounts>(jobs, cpus, url.host, budgetMs, options);
  return mergeWebSocket(job, parts, jobs[0].hungAfterMs);
}

/**
 * Sums the counts of the engine's processes and merges their histograms: what the WebSocket driver returns on the
 * engine, from the counts each process reported for `job`; `hungMs` is the hung bound the load used.
 *
 * @example The engine's counts of a WebSocket load run in process, as one measurement
 * ```ts ignore
 * const m = mergeWebSocket(job, [await driveWebSocket(engineJob, clock, net.connect)], 1000);
 * ```
 */
export function mergeWebSocket(
  job: WebSocketLoadJob,
  parts: readonly EngineWsCounts[],
  hungMs: number,
): WebSocketMeasurement {
  const sum = (key: keyof EngineWsCounts) => parts.reduce((a, p) => a + (p[key] as number), 0);
  const h = histogramOf(parts);
  const connect = parts.flatMap((p) => p.connectUs).sort((a, b) => a - b);
  const durationMs = Math.max(...parts.map((p) => p.durationMs));
  const seconds = durationMs / 1000;
  const valid = sum("validMessages");
  const cpu = parts.every((p) => p.cpuUs !== null) ? sum("cpuUs") : null;
  return {
    durationMs,
    connections: job.connections,
    connected: connect.length,
    connectMedianUs: connect.length > 0 ? connect[Math.floor((connect.length - 1) / 2)] : null,
    connectMaxUs: connect.length > 0 ? connect.at(-1)! : null,
    sentMessages: sum("sentMessages"),
    receivedMessages: sum("receivedMessages"),
    validMessages: valid,
    messagesPerSecond: seconds > 0 ? round(valid / seconds, 2) : 0,
    sentMessagesPerSecond: seconds > 0 ? round(sum("sentMessages") / seconds, 2) : 0,
    bytesPerSecond: seconds > 0 ? Math.round((valid * job.messageSize) / seconds) : 0,
    failedConnections: sum("failedConnections"),
    droppedSockets: sum("droppedSockets"),
    timeouts: sum("timeouts"),
    mismatches: sum("mismatches"),
    firstFailure: parts.find((p) => p.firstFailure !== null)?.firstFailure ?? null,
    latencyUs: percentilesOf(h),
    latencyHistogram: h.totalCount > 0 ? hdr.encodeIntoCompressedBase64(h) : null,
    warmupMessages: sum("warmupMessages"),
    clientCpuPercent: cpu === null || durationMs <= 0 ? null : round(cpu / 1000 / durationMs * 100, 1),
    serverCpuPercent: null,
    windowStartMs: Math.min(...parts.map((p) => p.windowStartMs)),
    coordinatedOmission: parts[0].phases ? "avoided" : "uncorrected",
    ...(parts[0].phases ? { phases: mergePhases(parts) } : {}),
    accounting: mergeAccounting(
      parts.map((p) => p.accounting),
      sum("receivedMessages"),
      hungMs,
      job.timeoutSec * 1000,
    ),
  };
}
