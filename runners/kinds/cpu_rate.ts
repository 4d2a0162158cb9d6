/**
 * CPU per request, one way for every kind that loads a server. In any window, the server's CPU time from the
 * kernel's counters (see the CPU meter) over the requests it answered in it. And after the run's measured window,
 * with `--cpu-rate`, a window on the same server at a fixed rate every runtime can hold: the server's CPU time per
 * request, the load's own per response and the server's resident memory there, so that runtimes are compared on
 * equal work even where the load generator is at its limit in the closed model. A rate not held (more than 1% late, or
 * under 95% of the rate answered) gives no CPU figure: per request at another rate is another figure.
 *
 * @module
 */

import type { CpuReport, MeasuredPhase, ResourceReport } from "../drivers/mod.ts";
import type { RunSettings, Warning } from "../schema/mod.ts";
import { round } from "../stats/mod.ts";
import type { ServedRecordContext } from "./record.ts";
import type { RunningServer } from "./server.ts";
import { underLoad, type Window } from "./under_load.ts";

/** What one request is called in figure names: HTTP's requests, WebSocket's messages. */
export type Unit = "Request" | "Message";

/** The figure names of a unit: the server's CPU per request, the load's per response. */
function names(unit: Unit): { server: string; client: string } {
  return unit === "Request"
    ? { server: "serverCpuUsPerRequest", client: "clientCpuUsPerResponse" }
    : { server: "serverCpuUsPerMessage", client: "clientCpuUsPerMessage" };
}

/**
 * The server's and the load's CPU time per request (or message) over a window, from the kernel's counters; empty
 * where a side was not counted or nothing was answered.
 *
 * @param cpu The window's CPU time.
 * @param answered Requests (messages) answered in the window, valid or not: the server did the work for each.
 * @param unit `Request` or `Message`.
 * @param suffix Added to every name (`AtRate` for the fixed-rate window).
 * @returns `serverCpuUsPer<Unit>` and `clientCpuUsPer<Response|Message>` in µs, and where the time came from.
 *
 * @example 1.2 s of server CPU for 200,000 requests
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { cpuFigures } from "./cpu_rate.ts";
 *
 * const cpu = { server: { cpuUs: 1_200_000, source: "cgroup-v1" as const }, client: null };
 * assertEquals(cpuFigures(cpu, 200_000, "Request").serverCpuUsPerRequest, 6);
 * ```
 */
export function cpuFigures(
  cpu: CpuReport | undefined,
  answered: number,
  unit: Unit,
  suffix = "",
): Record<string, number> {
  if (!cpu || answered <= 0) return {};
  const { server, client } = names(unit);
  const figures: Record<string, number> = {};
  if (cpu.server) figures[`${server}${suffix}`] = round(cpu.server.cpuUs / answered, 3);
  if (cpu.client) figures[`${client}${suffix}`] = round(cpu.client.cpuUs / answered, 3);
  return figures;
}

/** What a kind's load reports that the fixed-rate window needs. */
export interface RateLoad extends Window {
  /** Phases of the open model, with how much was late. */
  readonly phases?: readonly MeasuredPhase[];
  /** Requests (messages) that timed out: a window with any did not hold its rate. */
  readonly timeouts?: number;
}

/** What the fixed-rate window measured. */
export interface AtRate<M> {
  /** The load's own measurement (its responses count as the server's work). */
  readonly measured: M;
  /** Its figures, every name ending in `AtRate`. */
  readonly figures: Record<string, number>;
  /** Why it gave no CPU figure, when it did not hold the rate. */
  readonly warning: Warning | null;
}

/**
 * Seconds of the fixed-rate window: half the run's, at least 1 and at most 5 (the server is warm from the run). Not
 * under 1 s: over half-second windows the CPU per request varied more from run to run than over 1 s windows
 * (docs/method.md), although the closed-model window's own figures vary as much over 1 s as over 2 s.
 */
function windowSec(settings: RunSettings): number {
  return Math.min(5, Math.max(1, settings.durationSec / 2));
}

/** Seconds of warm-up at the rate before the fixed-rate window: the server is warm from the run. */
const RATE_WARMUP_SEC = 0.25;

/**
 * Seconds the fixed-rate window adds to a run, its warm-up included; 0 without `--cpu-rate`.
 *
 * @example The quick profile's 1 s runs at 20,000/s
 * ```ts
 * import { atRateSec } from "./cpu_rate.ts";
 * console.log(atRateSec({ durationSec: 1, cpuRate: 20_000 } as never), atRateSec({ durationSec: 1 } as never)); // 1.25 0
 * ```
 */
export function atRateSec(settings: RunSettings): number {
  return settings.cpuRate ? RATE_WARMUP_SEC + windowSec(settings) : 0;
}

/**
 * Whether the window held its rate: at least 95% of it answered validly (HttpArena's gate on achieved over target).
 * Requests that went out late (a stall of the machine) still reach the server within the window: they change the
 * latency, not the work per request.
 *
 * @example
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { held } from "./cpu_rate.ts";
 *
 * assertEquals(held([{ achievedRate: 9_600 }], 10_000), true);
 * assertEquals(held([{ achievedRate: 9_400 }], 10_000), false);
 * assertEquals(held([], 10_000), false);
 * ```
 */
export function held(phases: readonly Pick<MeasuredPhase, "achievedRate">[], rate: number): boolean {
  return phases.length > 0 && Math.min(...phases.map((p) => p.achievedRate)) >= HELD_SHARE * rate;
}

/** The share of the rate a window must answer validly for its CPU per request to count. */
export const HELD_SHARE = 0.95;

/** The share of the slowest runtime's closed-model rate that {@linkcode chosenCpuRate} takes. */
export const CHOSEN_SHARE = 0.5;

/**
 * The fixed rate for CPU per request where the workload's default cannot serve (keep-alive off: a new connection per
 * request, at a fraction of the kept-alive rate the default was chosen for): half the slowest runtime's closed-model
 * rate in the variant's first round, rounded down to two significant digits, so that every runtime holds it with room
 * to spare. Null when no runtime measured a rate.
 *
 * @param closedRates Each runtime's closed-model rate (requests or messages per second) in the first round.
 *
 * @example deno at 3,940/s and node at 1,878/s with keep-alive off: 930/s
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { chosenCpuRate } from "./cpu_rate.ts";
 *
 * assertEquals(chosenCpuRate([3_940, 1_878]), 930);
 * assertEquals(chosenCpuRate([]), null);
 * ```
 */
export function chosenCpuRate(closedRates: readonly number[]): number | null {
  const rates = closedRates.filter((r) => r > 0);
  if (rates.length === 0) return null;
  const rate = CHOSEN_SHARE * Math.min(...rates);
  const step = 10 ** Math.max(0, Math.floor(Math.log10(rate)) - 1);
  return Math.max(1, Math.floor(rate / step) * step);
}

/**
 * The fixed-rate window of `--cpu-rate` on a run's server, after its measured window: `drive` loads the server at
 * the rate with the settings given (a short warm-up, then the window), sampled and counted as any load.
 *
 * @param ctx The record.
 * @param server The run's server, still up.
 * @param run The run, from 0.
 * @param unit `Request` or `Message`.
 * @param answered How many the load answered in its window (responses, received messages).
 * @param drive Starts the load at `settings.rate`.
 * @returns Its figures, or null without `--cpu-rate`.
 *
 * @example
 * ```ts ignore
 * import { atCpuRate } from "./cpu_rate.ts";
 * const rated = await atCpuRate(ctx, server, run, "Request", (m) => m.responses, (settings, onSpawn) =>
 *   generator.run(target, settings, { cpus: ctx.cpus.client, onSpawn }));
 * ```
 */
export async function atCpuRate<M extends RateLoad>(
  ctx: ServedRecordContext,
  server: RunningServer,
  run: number,
  unit: Unit,
  answered: (m: M) => number,
  drive: (settings: RunSettings, onSpawn: (pid: number) => void) => Promise<M>,
): Promise<AtRate<M> | null> {
  const rate = ctx.cpuRateChoice ? ctx.cpuRateChoice.rate : ctx.settings.cpuRate;
  if (!rate) return null;
  const settings: RunSettings = {
    ...ctx.settings,
    rate,
    phases: undefined,
    durationSec: windowSec(ctx.settings),
    warmupSec: RATE_WARMUP_SEC,
    // At a rate the server holds, answers take milliseconds: one still missing after 2 s says the rate is not held,
    // and the window need not wait the whole --timeout for it.
    requestTimeoutSec: Math.min(ctx.settings.requestTimeoutSec, 2),
  };
  const { measured, resources, cpu } = await underLoad(
    { ...ctx, settings },
    server,
    run,
    (onSpawn) => drive(settings, onSpawn),
  );
  const figures: Record<string, number> = {};
  const phases = measured.phases ?? [];
  const achieved = phases.length > 0 ? Math.min(...phases.map((p) => p.achievedRate)) : 0;
  figures.cpuRateAchievedPerSecond = round(achieved, 1);
  const rss = rssOf(resources);
  if (rss !== null) figures.serverRssAtRateBytes = rss;
  if (!held(phases, rate) || (measured.timeouts ?? 0) > 0) {
    return {
      measured,
      figures,
      warning: {
        code: "cpu-rate-not-held",
        message: `run ${run + 1}: the fixed-rate window did not hold ${rate.toLocaleString("en-US")}/s (${
          achieved.toFixed(0)
        }/s answered${
          measured.timeouts ? `, ${measured.timeouts} timed out` : ""
        }): no CPU per ${unit.toLowerCase()} at that rate (lower --cpu-rate)`,
      },
    };
  }
  return { measured, figures: { ...figures, ...cpuFigures(cpu, answered(measured), unit, "AtRate") }, warning: null };
}

/** The server's mean resident memory over the window, or null when it was not sampled. */
function rssOf(resources: ResourceReport | undefined): number | null {
  const mean = resources?.summary.server?.rssBytes.mean;
  return mean === undefined || mean <= 0 ? null : Math.round(mean);
}

/**
 * A run's record with its CPU and memory figures: the measured window's CPU per request (from the kernel's counters,
 * over every request answered in it), the fixed-rate window's figures and the idle connections' memory; the first
 * warning of each code is kept on the record, and the record says where the CPU time came from.
 *
 * @param run The run as the kind recorded it.
 * @param cpu The measured window's CPU time, when it was counted.
 * @param answered Requests (messages) answered in that window.
 * @param extra The fixed-rate window and the idle connections, when there were.
 * @param outcome The record, for its warnings and facts.
 * @param unit `Request` or `Message`.
 * @returns The run with its figures added (never replacing the kind's own but the client's CPU per response, which the
 * counters give exactly where the kind had it from samples).
 */
export function withEfficiency<R extends { readonly figures: Readonly<Record<string, number>> }>(
  run: R,
  cpu: CpuReport | undefined,
  answered: number,
  extra: readonly ({ readonly figures: Record<string, number>; readonly warning: Warning | null } | null)[],
  outcome: { warnings: Warning[]; facts: Record<string, string | number | boolean | null> },
  unit: Unit = "Request",
): R {
  const source = cpu?.server?.source ?? cpu?.client?.source;
  if (source) outcome.facts.cpuTimeSource = source;
  for (const part of extra) {
    const w = part?.warning;
    if (w && !outcome.warnings.some((x) => x.code === w.code)) outcome.warnings.push(w);
  }
  const added = Object.assign({}, ...extra.map((part) => part?.figures ?? {}));
  return { ...run, figures: { ...run.figures, ...cpuFigures(cpu, answered, unit), ...added } };
}
