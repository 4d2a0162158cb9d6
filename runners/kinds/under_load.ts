/**
 * A load on a record's server, with its resources sampled: the sampler watches
 * the server's process tree and every process the load starts, over the
 * measured window; a server that dies under load is the reason the run ends,
 * in the phase it died in. Shared by every kind that loads a server.
 *
 * @module
 */

import { type CpuMeter, type CpuReport, type ResourceReport, startCpuMeter, startSampler } from "../drivers/mod.ts";
import { inPhase, type PhaseError } from "./errors.ts";
import type { ServedRecordContext } from "./record.ts";
import { type RunningServer, serverExited } from "./server.ts";

/** What a load reports about its measured window, to line resource samples up with it. */
export interface Window {
  /** Length of the measured window. */
  readonly durationMs: number;
  /** When it began (epoch milliseconds); absent means it ended just now. */
  readonly windowStartMs?: number;
}

/**
 * Runs `drive` against `server` (run `run` of the record) with the server and
 * the load sampled; returns what it measured and the resources of its window.
 *
 * @param ctx The record.
 * @param server The run's server.
 * @param run The run, from 0.
 * @param drive Starts the load; passes every process it starts to `onSpawn`.
 * @returns The measurement, and the resources sampled over its window.
 *
 * @example
 * ```ts ignore
 * import { underLoad } from "./under_load.ts";
 * const { measured, resources } = await underLoad(ctx, server, 0, (onSpawn) => generator.run(target, settings, {
 *   cpus: ctx.cpus.client, signal: ctx.signal, onSpawn,
 * }));
 * ```
 */
export async function underLoad<M extends Window>(
  ctx: ServedRecordContext,
  server: RunningServer,
  run: number,
  drive: (onSpawn: (pid: number) => void) => Promise<M>,
): Promise<{ measured: M; resources: ResourceReport | undefined; cpu: CpuReport | undefined }> {
  ctx.onPhase?.(ctx.settings.warmupSec > 0 ? "warmup" : "measure", run);
  const sampler = startSampler({
    intervalMs: ctx.settings.sampleIntervalMs,
    // A server on another machine is not in this machine's /proc: its own sampler reads it there.
    roots: { server: server.remote ? [] : [server.group.pid] },
    cpus: ctx.cpus.client,
  });
  const there = server.sampled
    ? startSampler({
      intervalMs: ctx.settings.sampleIntervalMs,
      roots: { server: [server.sampled.pid] },
      via: server.sampled.via,
    })
    : undefined;
  // When the server dies under load, its exit (not the load's complaint about it) is the reason, in the phase it
  // died in: the warm-up when it exited before warm-up seconds had passed since the load started.
  const loadStart = Date.now();
  let exitedAt = Infinity;
  server.group.exited.then(() => exitedAt = Date.now());
  const crashed = (): PhaseError => {
    const phase = exitedAt - loadStart < ctx.settings.warmupSec * 1000 ? "warmup" : "measure";
    return serverExited(server, phase, phase === "warmup" ? "the warm-up" : "the measurement");
  };
  let measured: M | undefined;
  let resources: ResourceReport | undefined;
  let cpu: CpuReport | undefined;
  let meter: CpuMeter | null = null;
  const onSpawn = (pid: number) => {
    sampler.addRoot("client", pid);
    meter?.addClient(pid);
  };
  try {
    // The window's CPU time from the kernel's counters; a server or load on another machine is not counted here.
    meter = server.remote || ctx.topology?.clients?.length
      ? null
      : await startCpuMeter({ server: server.group.pid, cpus: ctx.cpus.client });
    // An interruption while the meter started must not start the load: its abort has been and gone.
    ctx.signal.throwIfAborted();
    measured = await inPhase("measure", () => drive(onSpawn)).catch((error) => {
      throw server.group.status ? crashed() : error;
    });
  } finally {
    // Stopped on every path: their helpers are processes of their own.
    const window = measured && windowOf(measured);
    const [report, remote, counted] = await Promise.all([
      sampler.stop(window),
      there?.stop(window),
      meter?.stop(window),
    ]);
    if (measured) resources = remote ? withRemoteServer(report, remote) : report;
    cpu = counted;
  }
  if (server.group.status) throw crashed();
  return { measured, resources, cpu };
}

/**
 * The server's resources from its own machine beside the load's from this one. The two machines' samples are not
 * taken at the same moments, so the series is the server's, with the load's summary alone when it ran here.
 */
function withRemoteServer(here: ResourceReport, there: ResourceReport): ResourceReport {
  return {
    series: { ...there.series, client: null },
    summary: { ...there.summary, client: here.summary.client, harnessCpuPercent: here.summary.harnessCpuPercent },
  };
}

function windowOf(m: Window): { fromMs: number; toMs: number } {
  const fromMs = m.windowStartMs ?? Date.now() - m.durationMs;
  return { fromMs, toMs: fromMs + m.durationMs };
}
