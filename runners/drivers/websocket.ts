/**
 * The WebSocket load driver: runs `_websocket_child.ts` in its own Deno
 * process, pinned apart from the server, and returns its verified figures.
 *
 * @module
 */

import { runTool, toolJson } from "../platform/process.ts";
import type { LatencyPercentiles } from "./types.ts";
import denoConfig from "../../deno.json" with { type: "json" };

const CHILD = new URL("./_websocket_child.ts", import.meta.url);

/** The `ws` version rtbench is pinned to, read from the import map. */
export const WS_VERSION: string = /(\d+\.\d+\.\d+)/.exec(denoConfig.imports.ws)?.[1] ?? "unknown";

/**
 * Which WebSocket client the driver uses: `native` is the WebSocket built
 * into the Deno running the driver, `ws` the npm package under Deno's Node
 * compatibility layer.
 *
 * @example Measure with the `ws` package instead of Deno's own client
 * ```ts
 * import type { WebSocketClient } from "@rtbench/rtbench/runners";
 *
 * const client: WebSocketClient = "ws";
 * ```
 */
export type WebSocketClient = "native" | "ws";

/** The client the driver uses unless told otherwise: the faster of the two, measured by `deno task ws-ceiling`. */
export const DEFAULT_WEBSOCKET_CLIENT: WebSocketClient = "native";

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
  /** CPU list the driver is pinned to, or null. */
  readonly cpus: string | null;
  /** Stops the driver. */
  readonly signal?: AbortSignal;
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
  const windowSec = job.messages === null ? job.durationSec : 86_400;
  const budgetMs = (job.warmupSec + windowSec + 2 * job.timeoutSec + 60) * 1000;
  return toolJson<WebSocketMeasurement>(
    "WebSocket driver",
    await runTool("WebSocket driver", [Deno.execPath(), ...childArgs(job.url)], {
      cpus: options.cpus,
      stdin: JSON.stringify(job),
      timeoutMs: budgetMs,
      signal: options.signal,
      keepBytes: 1 << 20,
      env: { NO_COLOR: "1" },
    }),
  );
}
