/**
 * The WebSocket driver's ceiling (`runners/dev/ws_ceiling.ts`): how fast the
 * driver itself can go. Finds the fastest of the `ws` echo servers, then
 * loads it with every client — the load engine's raw frames, Deno's own
 * WebSocket, the `ws` package — at rising in-flight counts, and prints the
 * messages per second reached with both sides' CPU use (sampled the same
 * way for every client) beside each figure. A driver near
 * 100 % of its core is the bottleneck, not the server. "Per driver core" is
 * messages per second divided by the driver's share of its core: what the
 * driver would reach with its core to itself, a steadier figure than
 * messages per second on a shared machine.
 *
 * @module
 */

import { cacheDir, parseRuntimeSpecs, type ResolvedRuntime, resolveRuntime } from "../../adapters/mod.ts";
import { isSkip, wsEcho } from "../../workloads/mod.ts";
import {
  allowedCpus,
  installDependencies,
  makeTempDir,
  removeTemp,
  splitCpus,
  stageServer,
  stopAllGroups,
} from "../platform/mod.ts";
import { alignTable, formatCount, formatUs } from "../report/mod.ts";
import { startServer } from "../kinds/mod.ts";
import {
  DEFAULT_WEBSOCKET_CLIENT,
  runWebSocketDriver,
  startSampler,
  type WebSocketClient,
  type WebSocketLoadJob,
  type WebSocketMeasurement,
} from "../drivers/mod.ts";

/** One measured configuration of the ceiling probe. */
export interface CeilingRow {
  /** Runtime of the server. */
  readonly runtime: string;
  /** Client library the driver used. */
  readonly client: WebSocketClient;
  /** Messages in flight per socket. */
  readonly inFlight: number;
  /** What the driver measured. */
  readonly measurement: WebSocketMeasurement;
}

async function measure(
  runtime: ResolvedRuntime,
  file: string,
  dir: string,
  cpus: { server: string | null; client: string | null },
  job: WebSocketLoadJob,
  signal?: AbortSignal,
): Promise<WebSocketMeasurement> {
  const server = await startServer({ runtime, file, cwd: dir, cpus: cpus.server, timeoutMs: 30_000, signal });
  // Both sides sampled the same way for every client, as a record's runs are.
  const sampler = startSampler({ roots: { server: [server.group.pid] }, cpus: cpus.client });
  let m: WebSocketMeasurement | undefined;
  try {
    m = await runWebSocketDriver(
      { ...job, url: `ws://127.0.0.1:${server.port}/`, serverPid: server.group.pid },
      { cpus: cpus.client, signal, onSpawn: (pid) => sampler.addRoot("client", pid) },
    );
  } finally {
    const from = m?.windowStartMs ?? Date.now() - (m?.durationMs ?? 0);
    const report = await sampler.stop(m && { fromMs: from, toMs: from + m.durationMs });
    await server.stop();
    if (m) {
      m = {
        ...m,
        clientCpuPercent: report.summary.client?.cpuPercent.mean ?? m.clientCpuPercent,
        serverCpuPercent: report.summary.server?.cpuPercent.mean ?? m.serverCpuPercent,
      };
    }
  }
  return m;
}

function row(r: CeilingRow): string[] {
  const m = r.measurement;
  const failures = m.failedConnections + m.droppedSockets + m.timeouts + m.mismatches;
  return [
    r.runtime,
    r.client,
    String(r.inFlight),
    `${formatCount(m.messagesPerSecond)}/s`,
    m.clientCpuPercent === null ? "n/a" : `${m.clientCpuPercent.toFixed(0)} %`,
    m.serverCpuPercent === null ? "n/a" : `${m.serverCpuPercent.toFixed(0)} %`,
    m.clientCpuPercent ? `${formatCount(m.messagesPerSecond / (m.clientCpuPercent / 100))}/s` : "n/a",
    m.latencyUs ? formatUs(m.latencyUs.p50) : "",
    m.latencyUs ? formatUs(m.latencyUs.p99) : "",
    failures === 0 ? "" : `${failures} failures: ${m.firstFailure}`,
  ];
}

/**
 * Runs the probe and returns every measured row, printing progress as it goes.
 *
 * @example
 * ```ts ignore
 * import { probeCeiling } from "./ws_ceiling.ts";
 * const rows = await probeCeiling({ runtimes: "deno,bun", durationSec: 2, connections: 100, messageSize: 64 });
 * console.log(Math.max(...rows.map((r) => r.measurement.messagesPerSecond)));
 * ```
 */
export async function probeCeiling(options: {
  runtimes: string;
  durationSec: number;
  connections: number;
  messageSize: number;
  log?: (line: string) => void;
  signal?: AbortSignal;
}): Promise<CeilingRow[]> {
  const signal = options.signal;
  const log = options.log ?? (() => {});
  const cache = cacheDir();
  const cpus = splitCpus(await allowedCpus());
  const modules = await installDependencies(wsEcho.dependencies!, cache, signal);
  const tmp = await makeTempDir({ prefix: "rtbench-ws-ceiling-" });
  const base: WebSocketLoadJob = {
    url: "",
    client: DEFAULT_WEBSOCKET_CLIENT,
    connections: options.connections,
    inFlight: 1,
    messageSize: options.messageSize,
    durationSec: options.durationSec,
    warmupSec: 1,
    messages: null,
    timeoutSec: 10,
  };
  try {
    const servers: { runtime: ResolvedRuntime; file: string; dir: string }[] = [];
    for (const spec of parseRuntimeSpecs(options.runtimes)) {
      const runtime = await resolveRuntime(spec, { cacheDir: cache, signal });
      const source = wsEcho.server(runtime.name, "default");
      if (isSkip(source)) continue;
      const dir = `${tmp}/${runtime.name}`;
      servers.push({ runtime, dir, file: await stageServer(source.entry, dir, modules) });
    }
    log(`server cpu ${cpus.server ?? "any"}, driver cpu ${cpus.client ?? "any"}`);
    const rows: CeilingRow[] = [];
    for (const s of servers) {
      const measurement = await measure(s.runtime, s.file, s.dir, cpus, base, signal);
      rows.push({ runtime: s.runtime.name, client: base.client, inFlight: 1, measurement });
      log(`${s.runtime.name}: ${formatCount(measurement.messagesPerSecond)} msg/s`);
    }
    const fastest = servers[
      rows.reduce(
        (best, r, i) => r.measurement.messagesPerSecond > rows[best].measurement.messagesPerSecond ? i : best,
        0,
      )
    ];
    for (const client of ["engine", "native", "ws"] as const) {
      for (const inFlight of [1, 8, 32]) {
        if (client === base.client && inFlight === 1) continue;
        const measurement = await measure(fastest.runtime, fastest.file, fastest.dir, cpus, {
          ...base,
          client,
          inFlight,
        }, signal);
        rows.push({ runtime: fastest.runtime.name, client, inFlight, measurement });
        log(
          `${fastest.runtime.name} ${client} in-flight ${inFlight}: ${
            formatCount(measurement.messagesPerSecond)
          } msg/s`,
        );
      }
    }
    return rows;
  } finally {
    await stopAllGroups();
    await removeTemp(tmp);
  }
}

/**
 * The probe's rows as a table, then the ceiling: the best row against the fastest server.
 *
 * @param rows What {@linkcode probeCeiling} returned (it ends with the fastest server's rows).
 * @param connections Sockets per configuration.
 * @param messageSize Bytes per message.
 * @returns The text `runners/dev/ws_ceiling.ts` prints.
 *
 * @example
 * ```ts ignore
 * import { formatCeiling, probeCeiling } from "./ws_ceiling.ts";
 * const rows = await probeCeiling({ runtimes: "deno", durationSec: 1, connections: 10, messageSize: 64 });
 * console.log(formatCeiling(rows, 10, 64));
 * ```
 */
export function formatCeiling(rows: readonly CeilingRow[], connections: number, messageSize: number): string {
  const table = [
    [
      "server",
      "client",
      "in-flight",
      "messages/s",
      "driver cpu",
      "server cpu",
      "per driver core",
      "p50",
      "p99",
      "failures",
    ],
    ...rows.map(row),
  ];
  const fastest = rows.at(-1)!.runtime;
  const best = rows.filter((r) => r.runtime === fastest).reduce((a, b) =>
    b.measurement.messagesPerSecond > a.measurement.messagesPerSecond ? b : a
  );
  const m = best.measurement;
  return `${alignTable(table, [2, 3, 4, 5, 6, 7, 8])}\n\n` +
    `driver ceiling: ${formatCount(m.messagesPerSecond)} messages/s against ${best.runtime}, the fastest server` +
    ` (${best.client} client, ${best.inFlight} in flight × ${connections} sockets, ${messageSize} B)` +
    `; driver CPU ${m.clientCpuPercent ?? "n/a"} %, server CPU ${m.serverCpuPercent ?? "n/a"} %`;
}
