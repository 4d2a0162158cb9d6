/**
 * The `LoadGenerator` contract: a tool that loads an HTTP server and reports
 * raw, verified figures. autocannon is the default; native generators plug in
 * the same way.
 *
 * @module
 */

import type { RemoteHost } from "./remote.ts";
import type { ClientHostShare } from "./remote_engine.ts";
import type { LoadAccounting } from "./accounting.ts";

import type { LatencyPercentiles } from "../schema/mod.ts";
import type { MeasuredPhase } from "../engine/mod.ts";
import type { HttpRequestSpec } from "../../workloads/mod.ts";

export type { LatencyPercentiles };

/**
 * What to load: the server's base URL and the requests to cycle through.
 *
 * @example One server, one request
 * ```ts
 * import type { LoadTarget } from "@rtbench/rtbench/runners";
 *
 * const target: LoadTarget = {
 *   baseUrl: "http://127.0.0.1:3000",
 *   requests: [{ path: "/", expect: { status: 200, contentType: "application/json", body: '{"ok":true}' } }],
 * };
 * ```
 */
export interface LoadTarget {
  /** For example `http://127.0.0.1:41234`. */
  readonly baseUrl: string;
  /** Requests each connection sends in order, with the responses they must get. */
  readonly requests: readonly HttpRequestSpec[];
  /** Keep the first valid response and every `sampleEvery`-th after it, for checks after the run (the engine only). */
  readonly sampleEvery?: number;
}

/**
 * Settings a load generator honours; recorded with every result.
 *
 * @example The quick profile's load
 * ```ts
 * import type { LoadSettings } from "@rtbench/rtbench/runners";
 *
 * const settings: LoadSettings = { durationSec: 3, warmupSec: 1, connections: 100, pipelining: 1, requestTimeoutSec: 10 };
 * ```
 */
export interface LoadSettings {
  /** Measured seconds. */
  readonly durationSec: number;
  /** Warm-up seconds before measuring, discarded. */
  readonly warmupSec: number;
  /** Concurrent connections. */
  readonly connections: number;
  /** Requests in flight per connection. */
  readonly pipelining: number;
  /**
   * Whether a connection carries request after request (`--keep-alive`); false: every request on a new connection,
   * sent with `Connection: close`. @default {true}
   */
  readonly keepAlive?: boolean;
  /** Seconds before a request counts as a timeout. */
  readonly requestTimeoutSec: number;
  /** Open model: requests per second on a fixed schedule; absent means the closed model. */
  readonly rate?: number;
  /** Open model: phases of constant and ramping rates (`10s@1000,30s@1000->8000`); over `rate`. */
  readonly phases?: string;
  /** Open model: evenly spaced arrivals or a Poisson process. @default {"uniform"} */
  readonly arrival?: "uniform" | "poisson";
}

/**
 * Options for one {@linkcode LoadGenerator.run}.
 *
 * @example Pinned to CPU 1, with a way to stop
 * ```ts
 * import type { LoadRunOptions } from "@rtbench/rtbench/runners";
 *
 * const pids: number[] = [];
 * const options: LoadRunOptions = { cpus: "1", signal: new AbortController().signal, onSpawn: (pid) => pids.push(pid) };
 * ```
 */
export interface LoadRunOptions {
  /** CPU list the generator is pinned to, or null. */
  readonly cpus: string | null;
  /** Stops the generator. */
  readonly signal?: AbortSignal;
  /** Called with the pid of every process the generator starts, so that its CPU can be sampled. */
  onSpawn?(pid: number): void;
  /**
   * Other machines the load runs on (`--client-host`), sharing the connections or the rate; only the engine can.
   * @ignore rtbench's own ssh connections, not part of the load generator API
   */
  readonly clientHosts?: readonly RemoteHost[];
}

/**
 * Raw figures of one measured window; failures are counted apart, never as samples.
 *
 * @example Valid responses only are samples
 * ```ts
 * import type { LoadMeasurement } from "@rtbench/rtbench/runners";
 *
 * function failures(m: LoadMeasurement): number {
 *   return m.errors + m.non2xx + m.mismatches;
 * }
 * ```
 */
export interface LoadMeasurement {
  /** Length of the measured window. */
  readonly durationMs: number;
  /** Length of the warm-up as it ran, when it may differ from what was asked (wrk runs whole seconds). */
  readonly warmupMs?: number;
  /** Responses received in the window, valid or not. */
  readonly responses: number;
  /** Responses with the expected status, content-type and body. */
  readonly validResponses: number;
  /** Valid responses per second. */
  readonly requestsPerSecond: number;
  /**
   * Closed model: the span of the valid responses counted in the window, where the generator can tell and the rate
   * over it is unbiased (rtbench's engine: the time their n − 1 intervals take at the sum of each connection's rate
   * over its own span, where every connection's came evenly; see `countedSpanOf`); the HTTP kind then takes the rate
   * over this span rather than over the window, so that it is not a whole number of responses over a fixed time.
   */
  readonly countedSpanMs?: number;
  /** Response bytes (headers and body) per second. */
  readonly bytesPerSecond: number;
  /** Connection errors (timeouts included). */
  readonly errors: number;
  /** Requests that timed out. */
  readonly timeouts: number;
  /** Responses whose status was not 2xx. */
  readonly non2xx: number;
  /** 2xx responses whose status, content-type or body differed from the expectation. */
  readonly mismatches: number;
  /** The first mismatching response, shortened, to say what differed. */
  readonly firstMismatch: string | null;
  /** Latency of valid responses. */
  readonly latencyUs: LatencyPercentiles | null;
  /** The latency histogram (HDR, compressed base64, microseconds), to merge runs exactly. */
  readonly latencyHistogram: string | null;
  /**
   * Keep-alive off (`--keep-alive off`): how long each new connection of the window took to open (from its connect's
   * start until the request could be written), apart from `latencyUs`, with its histogram; absent with keep-alive.
   */
  readonly connectUs?: LatencyPercentiles | null;
  /** Keep-alive off: the connect times' histogram (HDR, compressed base64, microseconds). */
  readonly connectHistogram?: string | null;
  /**
   * Keep-alive off: each request's whole time, its connect and its response (closed model: from the connect's start;
   * open model: from when it was due, as `latencyUs`), with its histogram; unanswered ones at no less than the timeout.
   */
  readonly totalLatencyUs?: LatencyPercentiles | null;
  /** Keep-alive off: the whole times' histogram (HDR, compressed base64, microseconds). */
  readonly totalLatencyHistogram?: string | null;
  /** Resolution of the latency figures. */
  readonly latencyResolution: "us" | "ms";
  /**
   * When `latencyUs` was rebuilt from this many quantiles the generator reported of its own histogram (bombardier
   * always; wrk when its histogram is too spread out to read value by value) rather than from every latency it
   * recorded: an approximation, to within the quantiles' spacing. Absent when every recorded latency was read.
   */
  readonly latencyQuantiles?: number;
  /** Responses during warm-up (not measured, but work the server did). */
  readonly warmupResponses: number;
  /**
   * Responses that came after the window closed, before the generator stopped: neither measured nor warm-up, but
   * work the server did and answered; absent when the generator cannot tell.
   */
  readonly lateResponses?: number;
  /**
   * Every request sent over the run (warm-up, window and after), answered or not (timed out, cut by a connection
   * error, in flight when the load stopped): the most work the server can have done; absent when the generator
   * cannot tell.
   */
  readonly sentRequests?: number;
  /** CPU time the generator used in the window, as percent of one core. */
  readonly clientCpuPercent: number | null;
  /** When the measured window began (epoch milliseconds), to line resource samples up with it. */
  readonly windowStartMs?: number;
  /**
   * Closed model, where each of the generator's processes on this machine opened and closed its own window on its
   * own clock and counted an answer in it by when the answer came (the engine): each process's window (epoch ms, to
   * the rounded millisecond). Its answers fall in its own, which a busy machine may open later than another's.
   */
  readonly windows?: readonly { readonly startMs: number; readonly durationMs: number }[];
  /** Open model: the measured phases, with their latency histograms to merge runs exactly. */
  readonly phases?: readonly MeasuredPhase[];
  /** How latency treats coordinated omission (see `LoadGeneratorInfo.coordinatedOmission`). */
  readonly coordinatedOmission?: "uncorrected" | "corrected" | "avoided";
  /** With `--client-host`: each load machine's share of the run and how busy its CPUs were. */
  readonly clientHosts?: readonly ClientHostShare[];
  /** Per endpoint (the requests' `endpoint` labels), when the traffic labels its requests. */
  readonly endpoints?: Readonly<Record<string, EndpointMeasurement>>;
  /** The responses kept under load (`LoadTarget.sampleEvery`): the index of the request each answered, its body. */
  readonly samples?: readonly { readonly request: number; readonly body: string }[];
  /**
   * How every request of the window ended beyond its answer: unanswered, unasked, hung, dropped, reconnected;
   * absent when the generator cannot account like this (wrk, oha, bombardier, autocannon).
   */
  readonly accounting?: LoadAccounting;
}

/**
 * What the requests of one endpoint (`GET /users/:id`) measured in one window.
 *
 * @example An endpoint's share of the responses
 * ```ts
 * import type { EndpointMeasurement } from "@rtbench/rtbench/runners";
 *
 * function share(e: EndpointMeasurement, total: number): number {
 *   return e.validResponses / total;
 * }
 * ```
 */
export interface EndpointMeasurement {
  /** Responses in the measured window, valid or not. */
  readonly responses: number;
  /** Of those, the valid ones. */
  readonly validResponses: number;
  /** Valid responses during the warm-up (not measured, but their side effects happened). */
  readonly warmupValidResponses: number;
  /** Valid responses per second of the measured window. */
  readonly requestsPerSecond: number;
  /** Latency of the valid measured responses. */
  readonly latencyUs: LatencyPercentiles | null;
  /** Their latency histogram (HDR, compressed base64, microseconds), to merge runs exactly. */
  readonly latencyHistogram: string | null;
}

export type { MeasuredPhase };

/**
 * An HTTP load generator.
 *
 * @example Which load generators are installed here
 * ```ts
 * import { assert } from "@std/assert";
 * import { builtinLoadGenerators, type LoadGenerator } from "@rtbench/rtbench/runners";
 *
 * const installed: LoadGenerator[] = [];
 * for (const g of builtinLoadGenerators) if (await g.available()) installed.push(g);
 * assert(installed.some((g) => g.name === "autocannon"));
 * ```
 */
export interface LoadGenerator {
  /** Name used with `--load-generator`, for example `autocannon`. */
  readonly name: string;
  /** What it checks on every response under load, for the record. */
  readonly verifies?: string;
  /** Whether, in the measured window, it checks no more than each response's status (no body, no content-type). */
  readonly statusOnly?: boolean;
  /** Whether it accounts for every request (a run's `accounting`: unanswered, unasked, dropped); only the engine does. */
  readonly accounts?: boolean;
  /** Whether it can send on a schedule (`--rate`, `--phases`); only rtbench's engine can. */
  readonly openModel?: boolean;
  /** Whether it can send requests that carry a value captured from an earlier response (`capture`). */
  readonly captures?: boolean;
  /** Whether it can send every request on a new connection, with `Connection: close` (`--keep-alive off`). */
  readonly closesConnections?: boolean;
  /** Whether this generator can run on this machine. */
  available(): Promise<boolean>;
  /** Why it cannot send this traffic with these settings, or null when it can. */
  unsupported?(target: LoadTarget, settings: LoadSettings): string | null;
  /** The generator's exact version. */
  version(): Promise<string>;
  /** What it runs on, with its version, when that is not the generator itself (`bun 1.4.5`). */
  client?(): Promise<string>;
  /** Warms up, then measures, one server; verifies every response. */
  run(target: LoadTarget, settings: LoadSettings, options: LoadRunOptions): Promise<LoadMeasurement>;
}
