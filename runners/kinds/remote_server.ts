/**
 * A record's server on the server machine (`--server-host`): the staged file,
 * its `node_modules` and the runtime's binary copied into that host's private
 * directory, started there in a process group of its own, bound to the
 * host's address and declared ready when its port accepts a connection from
 * here.
 *
 * @module
 */

import type { ResolvedRuntime } from "../../adapters/mod.ts";
import type { ClientHostShare, RemoteHost, Topology } from "../drivers/mod.ts";
import type { CpuSets, Fact, Warning } from "../schema/mod.ts";
import { yieldToPassed } from "../platform/mod.ts";
import { type RunningServer, ServerStartError } from "./server.ts";
import { inPhase, PhaseError, SkipRecord } from "./errors.ts";
import type { ServedRecordContext } from "./record.ts";

/** What a server on another machine is started from. */
export interface RemoteServerOptions {
  /** The server machine. */
  readonly host: RemoteHost;
  /** The runtime (its binary is copied there). */
  readonly runtime: ResolvedRuntime;
  /** The server file, staged locally. */
  readonly file: string;
  /** Arguments after the file. */
  readonly args?: readonly string[];
  /** `node_modules` beside the file, when the workload has dependencies. */
  readonly nodeModules?: string;
  /** Environment of the server; `PORT` and `HOST` are added. */
  readonly env?: Readonly<Record<string, string>>;
  /** Port to listen on (`--port`); absent means one found free there. */
  readonly port?: number;
  /** Milliseconds the server may take to accept connections. */
  readonly timeoutMs: number;
  /** Stops the server when aborted. */
  readonly signal?: AbortSignal;
}

async function accepts(hostname: string, port: number): Promise<boolean> {
  try {
    (await Deno.connect({ hostname, port })).close();
    return true;
  } catch {
    return false;
  }
}

/** A port nothing answers on at the host, drawn from a range below the usual ephemeral ports. */
async function freeRemotePort(hostname: string): Promise<number> {
  for (let i = 0; i < 20; i++) {
    const port = 20000 + Math.floor(Math.random() * 12000);
    if (!(await accepts(hostname, port))) return port;
  }
  throw new ServerStartError(`Cannot start server: no free port found on ${hostname}`);
}

/**
 * The server's directory on the host: its file, `package.json` and the files staged beside it (a data layer it
 * imports), and a link to its `node_modules`.
 */
function stageOnHost(options: RemoteServerOptions): Promise<string> {
  const { host, file, signal } = options;
  const local = file.slice(0, file.lastIndexOf("/"));
  return host.stage(`server:${file}`, async (dir) => {
    const target = `${dir}/servers/${local.split("/").at(-1)}-${file.split("/").at(-1)}`;
    const beside: string[] = [];
    for await (const e of Deno.readDir(local)) if (e.isFile) beside.push(`${local}/${e.name}`);
    await host.ssh.put(beside, target, signal);
    if (options.nodeModules) {
      const modules = await host.stageNodeModules(options.nodeModules, signal);
      const link = await host.ssh.run(["ln", "-sfn", modules, `${target}/node_modules`], { signal });
      if (!link.success) throw new Error(`Cannot stage server dependencies on ${host.ssh.spec.text}`);
    }
    return target;
  }, signal);
}

/**
 * Starts a server on the server machine and resolves once its port accepts a
 * TCP connection from here; fails fast when it exits, and after `timeoutMs`.
 */
export async function startRemoteServer(options: RemoteServerOptions): Promise<RunningServer> {
  const { host, runtime, signal } = options;
  await host.connect(signal);
  const binary = await host.stageBinary(runtime.binary, signal);
  const dir = await stageOnHost(options);
  const port = options.port ?? await freeRemotePort(host.address);
  const command = runtime.adapter.command(binary, `${dir}/${options.file.split("/").at(-1)}`, options.args);
  const env = { ...options.env, PORT: String(port), HOST: host.address, NO_COLOR: "1" };
  const cpus = host.info.allowedCpus;
  const process = host.ssh.launch(
    ["env", ...Object.entries(env).map(([k, v]) => `${k}=${v}`), ...host.pin(cpus), ...command],
    { cwd: dir, signal, role: "server" },
  );
  const server: RunningServer = {
    baseUrl: `http://${host.address.includes(":") ? `[${host.address}]` : host.address}:${port}`,
    port,
    command,
    group: process.group,
    remote: host.ssh.spec.text,
    stop: () => process.stop(5000),
  };
  const deadline = performance.now() + options.timeoutMs;
  try {
    while (true) {
      signal?.throwIfAborted();
      if (process.group.status) {
        await process.group.finished();
        const output = process.stderr().trim().split("\n").slice(-3).join(" | ");
        const skip = /^rtbench: skip: (.+)$/m.exec(process.group.stderr())?.[1].trim();
        throw new ServerStartError(
          `Server on ${host.ssh.spec.text} exited with code ${process.group.status.code} before accepting connections${
            output ? `: ${output}` : ""
          }`,
          skip,
        );
      }
      if (await accepts(host.address, port)) {
        const pid = await process.remotePid;
        return pid > 0 ? { ...server, sampled: { pid, via: (argv) => host.ssh.argv(argv) } } : server;
      }
      if (performance.now() > deadline) {
        throw new ServerStartError(
          `Server on ${host.ssh.spec.text} did not accept connections on port ${port} within ${
            options.timeoutMs / 1000
          } s (--start-timeout)`,
        );
      }
      await new Promise((r) => setTimeout(r, 20));
    }
  } catch (error) {
    await process.stop(1000);
    throw error;
  }
}

/**
 * Starts the server of one run of a record on the server machine, in the
 * `start` phase, with the session's environment; a server that reports its
 * runtime cannot do the variant turns the record into a skip.
 */
export function startRemoteRecordServer(
  ctx: ServedRecordContext,
  host: RemoteHost,
  file: string,
  args: readonly string[] | undefined,
): Promise<RunningServer> {
  return inPhase("start", () =>
    startRemoteServer({
      host,
      runtime: ctx.runtime,
      file,
      args,
      nodeModules: ctx.nodeModules,
      env: yieldToPassed(ctx.session.env),
      port: ctx.port,
      timeoutMs: ctx.settings.startTimeoutSec * 1000,
      signal: ctx.signal,
    })).catch((error) => {
      if (error instanceof PhaseError && error.cause instanceof ServerStartError && error.cause.skipReason) {
        throw new SkipRecord(error.cause.skipReason);
      }
      throw error;
    });
}

/** The CPU sets of a record whose server or load runs elsewhere: on each machine, the CPUs allowed there. */
export function remoteCpus(topology: Topology, local: CpuSets): CpuSets {
  const clients = [...new Set(topology.clients.map((c) => c.info.allowedCpus))];
  return {
    server: topology.server ? topology.server.info.allowedCpus : local.server,
    client: topology.clients.length > 0 ? (clients.length === 1 ? clients[0] : null) : local.client,
  };
}

/** Where a record's server, load and database ran, as facts. */
export function topologyFacts(topology: Topology): Record<string, Fact> {
  return {
    ...(topology.server ? { serverHost: topology.server.ssh.spec.text } : {}),
    ...(topology.clients.length > 0 ? { clientHosts: topology.clients.map((c) => c.ssh.spec.text).join(",") } : {}),
    ...(topology.db ? { dbHost: topology.db.ssh.spec.text } : {}),
  };
}

/** A load machine at 90% of its CPUs or more: what the run measured may be that machine. */
export function saturatedHost(share: ClientHostShare, run: number): Warning | null {
  if (share.cpuBusyPercent === null || share.cpuBusyPercent < 90) return null;
  return {
    code: "client-host-saturated",
    message: `run ${run + 1}: load machine ${share.host} had its CPUs ${share.cpuBusyPercent}% busy ` +
      `(${share.processes} engine processes, ${share.connections} connections): add a --client-host`,
  };
}
