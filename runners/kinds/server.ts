/**
 * Server lifecycle: start a server on a free loopback port in its own process
 * group, declare it ready by polling its port (and tell at once when it listens
 * on another), and stop the whole group.
 *
 * @module
 */

import type { ParallelServer, ResolvedRuntime } from "../../adapters/mod.ts";
import type { ServerSource } from "../../workloads/mod.ts";
import type { CpuSets, Fact, Phase, RunSettings } from "../schema/mod.ts";
import {
  cannotListen,
  freePort,
  listeningPorts,
  parseCpuList,
  type ProcessGroup,
  spawnGroup,
  stageServer,
  yieldToPassed,
} from "../platform/mod.ts";
import type { ServedRecordContext } from "./record.ts";
import { inPhase, PhaseError, SkipRecord } from "./errors.ts";

/** A server ready to start: the file its runtime runs, the arguments after it, and facts about how it was made. */
export interface StagedServer {
  /** The staged source file, or a native runtime's built program. */
  readonly file: string;
  /** Arguments after the file. */
  readonly args: readonly string[] | undefined;
  /** What the build says about itself (toolchain, dependencies, cached or built); empty for staged sources. */
  readonly facts: Readonly<Record<string, Fact>>;
}

/**
 * Makes a workload's server ready to run on `runtime`: a native runtime builds it (or takes the cached build),
 * any other gets a copy of the source in `dir` with its assets where its relative imports find them, next to the
 * workload's `node_modules`.
 */
export async function stageServerFor(
  runtime: ResolvedRuntime,
  source: ServerSource,
  dir: string,
  nodeModules: string | undefined,
  signal?: AbortSignal,
): Promise<StagedServer> {
  if (runtime.adapter.build) {
    const built = await runtime.adapter.build(runtime.binary, source.entry, signal);
    // `baseline` tells reports to show the record apart from the runtimes under comparison.
    const facts = { ...built.facts, ...(runtime.adapter.baseline ? { baseline: true } : {}) };
    return { file: built.executable, args: [...built.args, ...(source.args ?? [])], facts };
  }
  return { file: await stageServer(source.entry, dir, nodeModules, source), args: source.args, facts: {} };
}

/** Options for {@linkcode startServer}. */
export interface StartServerOptions {
  /** The runtime that runs the file. */
  runtime: ResolvedRuntime;
  /** Staged server file. */
  file: string;
  /** Arguments after the file. */
  args?: readonly string[];
  /** Working directory (the workspace). */
  cwd: string;
  /** Extra environment; `PORT` and `HOST` are added. */
  env?: Readonly<Record<string, string>>;
  /** CPU list the server is pinned to, or null. */
  cpus: string | null;
  /** Interface to bind. @default {"127.0.0.1"} */
  host?: string;
  /** Port to listen on (`--port`); absent means a free port. */
  port?: number;
  /** Milliseconds the server may take to accept connections. */
  timeoutMs: number;
  /** Stops the server when aborted. */
  signal?: AbortSignal;
  /** Workers of the runtime's multi-core form (`--server-cpus`); absent: the server as the runtime runs it. */
  workers?: number;
}

/** A server that accepts connections. */
export interface RunningServer {
  /** For example `http://127.0.0.1:41234`. */
  readonly baseUrl: string;
  /** The port it listens on. */
  readonly port: number;
  /** The argv it was started with (pinning excluded). */
  readonly command: readonly string[];
  /** Its process group. */
  readonly group: ProcessGroup;
  /** The runtime's multi-core form it runs in, with its worker count, under `--server-cpus`. */
  readonly parallel?: { readonly form: ParallelServer; readonly workers: number };
  /** Stops the server and everything it started. */
  stop(): Promise<void>;
  /** The machine it runs on (`--server-host`), when not this one; `group` is then its ssh connection. */
  readonly remote?: string;
  /** On another machine: its pid there, and how to run the resource sampler's helper there. */
  readonly sampled?: { readonly pid: number; via(argv: string[]): string[] };
}

/** Why a server did not become ready, with its output. */
export class ServerStartError extends Error {
  /** The reason the server gave for not running (its `rtbench: skip: <reason>` line), if it gave one. */
  readonly skipReason: string | undefined;
  /** Creates the error. */
  constructor(message: string, skipReason?: string) {
    super(message);
    this.name = "ServerStartError";
    this.skipReason = skipReason;
  }
}

/** The line a server prints on stderr, before exiting, when its runtime cannot do the variant. */
const SKIP_LINE = /^rtbench: skip: (.+)$/m;

function tail(text: string): string {
  const lines = text.trim().split("\n").filter((l) => l.trim());
  return lines.slice(-3).join(" | ").slice(0, 400);
}

/** Milliseconds after a server's start, and between reads, at which the ports its processes listen on are read. */
const PORT_PROBE_MS = 500;

/**
 * A check to call while a server is not yet reachable on `port`: it reads the ports the server's processes listen on
 * (every {@linkcode PORT_PROBE_MS}) and throws once two reads in a row found them listening elsewhere and not on
 * `port`, a server that ignores `PORT`. `given` says whether the port was asked for (`--port`).
 */
function portWatch(session: number, port: number, given: boolean): () => Promise<void> {
  let due = performance.now() + PORT_PROBE_MS;
  let last = "";
  return async () => {
    if (performance.now() < due) return;
    const ports = await listeningPorts(session);
    due = performance.now() + PORT_PROBE_MS;
    const elsewhere = ports !== null && ports.length > 0 && !ports.includes(port) ? ports.join(", ") : "";
    if (elsewhere !== "" && elsewhere === last) {
      const hint = !given && ports!.length === 1 ? `, or run it with --port ${elsewhere}` : "";
      throw new ServerStartError(
        `Server listens on ${elsewhere}, not on the port given in PORT=${port}: make it read PORT${hint}`,
      );
    }
    last = elsewhere;
  };
}

/**
 * Starts a server and resolves once its port accepts a TCP connection. Polls
 * every 20 ms; fails fast when the process exits or listens on another port
 * than the one given in `PORT`, and after `timeoutMs`.
 */
export async function startServer(options: StartServerOptions): Promise<RunningServer> {
  const host = options.host ?? "127.0.0.1";
  let port: number;
  if (options.port === undefined) {
    port = freePort(host);
  } else {
    // A port someone else holds would look like a server that answers wrongly: refuse it by name.
    const why = cannotListen(host, options.port);
    if (why) throw new ServerStartError(`Cannot start server: ${why} (--port)`);
    port = options.port;
  }
  const { adapter, binary, name } = options.runtime;
  const workers = options.workers;
  if (workers !== undefined && !adapter.parallel) {
    throw new ServerStartError(`${name} has no multi-core form (--server-cpus)`, `${name} has no multi-core form`);
  }
  const unsupported = workers === undefined ? null : adapter.parallelUnsupported?.(options.file) ?? null;
  if (unsupported) throw new ServerStartError(`${name}: ${unsupported}`, unsupported);
  const form = workers === undefined
    ? undefined
    : adapter.parallel!(binary, options.file, options.args ?? [], workers, { host, port });
  const command = form?.argv ?? adapter.command(binary, options.file, options.args);
  const group = spawnGroup(command, {
    cwd: options.cwd,
    env: { ...options.env, ...form?.env, PORT: String(port), HOST: host, NO_COLOR: "1" },
    cpus: options.cpus,
    signal: options.signal,
    role: "server",
  });
  // A server bound to every interface is reached over loopback.
  const target = host === "0.0.0.0" ? "127.0.0.1" : host === "::" ? "::1" : host;
  const server: RunningServer = {
    baseUrl: `http://${target.includes(":") ? `[${target}]` : target}:${port}`,
    port,
    command,
    group,
    ...(form && workers !== undefined ? { parallel: { form, workers } } : {}),
    // Servers finish requests in flight on SIGTERM (uuid-file must not leave a file half-done); on a busy
    // machine that can take longer than the default grace, and a prompt server costs nothing here.
    stop: () => group.stop(5000),
  };
  const deadline = performance.now() + options.timeoutMs;
  const watchPort = portWatch(group.pid, port, options.port !== undefined);
  try {
    while (true) {
      options.signal?.throwIfAborted();
      if (group.status) {
        // Let the pipes drain so the last lines (a skip reason) are read; a descendant may hold them open.
        let timer: ReturnType<typeof setTimeout> | undefined;
        await Promise.race([group.finished(), new Promise((r) => timer = setTimeout(r, 1000))]);
        clearTimeout(timer);
        const output = tail(group.stderr()) || tail(group.stdout());
        throw new ServerStartError(
          `Server exited with code ${group.status.code} before accepting connections${output ? `: ${output}` : ""}`,
          SKIP_LINE.exec(group.stderr())?.[1].trim(),
        );
      }
      try {
        const conn = await Deno.connect({ hostname: target, port });
        conn.close();
        return server;
      } catch {
        // not listening yet
      }
      await watchPort();
      if (performance.now() > deadline) {
        throw new ServerStartError(
          `Server did not accept connections on port ${port} within ${options.timeoutMs / 1000} s (--start-timeout)`,
        );
      }
      await new Promise((r) => setTimeout(r, 20));
    }
  } catch (error) {
    await group.stop();
    throw error;
  }
}

/**
 * Workers of the server's multi-core form under `--server-cpus`: one per server CPU (all of them when not
 * pinned); undefined without the flag.
 */
export function serverWorkers(settings: RunSettings, cpus: CpuSets): number | undefined {
  const asked = settings.serverCpus;
  if (asked === undefined) return undefined;
  if (cpus.server) return parseCpuList(cpus.server).length;
  return asked === "all" ? navigator.hardwareConcurrency : asked;
}

/**
 * How a server of this record's (or variant's) runtime starts: pinned to the
 * server CPUs, with the session's environment, on the suite's host and port,
 * within `--start-timeout`.
 */
export function serverOptions(
  ctx: Pick<ServedRecordContext, "session" | "cpus" | "host" | "port" | "settings" | "signal">,
  runtime: ResolvedRuntime,
  file: string,
  args: readonly string[] | undefined,
  cwd: string,
): StartServerOptions {
  return {
    runtime,
    file,
    args,
    cwd,
    env: yieldToPassed(ctx.session.env),
    cpus: ctx.cpus.server,
    host: ctx.host,
    port: ctx.port,
    timeoutMs: ctx.settings.startTimeoutSec * 1000,
    signal: ctx.signal,
    workers: serverWorkers(ctx.settings, ctx.cpus),
  };
}

/**
 * Starts the server of one run of a record, in the `start` phase: pinned to
 * the record's server CPUs, with the session's environment, host and port. A
 * server that reports its runtime cannot do the variant (see `ServerSource`)
 * turns the record into a skip.
 */
export function startRecordServer(
  ctx: ServedRecordContext,
  file: string,
  args: readonly string[] | undefined,
): Promise<RunningServer> {
  return inPhase("start", () => startServer(serverOptions(ctx, ctx.runtime, file, args, ctx.workDir))).catch(
    (error) => {
      if (error instanceof PhaseError && error.cause instanceof ServerStartError && error.cause.skipReason) {
        throw new SkipRecord(error.cause.skipReason);
      }
      throw error;
    },
  );
}

/** The error for a server that exited while `during` (its exit code and its last lines of output). */
export function serverExited(server: RunningServer, phase: Phase, during: string): PhaseError {
  const status = server.group.status!;
  // 255 is ssh's own failure: the connection to the server's machine, not the server.
  if (server.remote && status.code === 255) {
    return new PhaseError(phase, `The ssh connection to ${server.remote} was lost during ${during}`);
  }
  const how = status.signal ? `was killed by ${status.signal}` : `exited with code ${status.code}`;
  const output = tail(server.group.stderr()) || tail(server.group.stdout());
  return new PhaseError(phase, `Server ${how} during ${during}${output ? `: ${output}` : ""}`);
}
