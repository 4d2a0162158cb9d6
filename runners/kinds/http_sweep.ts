/**
 * The latency–throughput sweep (`--sweep`): on one server, a closed-model run
 * finds the peak, then fixed rates from 10% to 110% of it, each a short
 * open-model run with latency from when each request was due. The knee is the
 * highest rate whose p99 stays at or under `--slo-p99` while the rate was held
 * (at most 1% of requests late, no errors): "sustainable requests/s at p99 ≤
 * X ms".
 *
 * @module
 */

import {
  type LoadGenerator,
  type LoadMeasurement,
  type LoadRunOptions,
  type LoadSettings,
  type LoadTarget,
  MISSED_LIMIT,
} from "../drivers/mod.ts";
import type { SweepStep } from "../schema/mod.ts";
import { AT_LIMIT, cpuCount, round } from "../stats/mod.ts";

/** What a sweep measured: the closed-model peak, then every rate. */
export interface Sweep {
  /** The closed-model run the rates are taken from. */
  readonly peak: LoadMeasurement;
  /** Every rate, lowest first, with what it measured. */
  readonly steps: readonly { readonly step: SweepStep; readonly measurement: LoadMeasurement }[];
}

/**
 * The rates of a sweep: `steps` rates evenly spaced from 10% to 110% of `peak`.
 *
 * @param peak Requests per second of the closed-model run.
 * @param steps How many rates.
 * @returns The rates, lowest first, rounded to whole requests per second.
 *
 * @example
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { sweepRates } from "./http_sweep.ts";
 *
 * assertEquals(sweepRates(10_000, 3), [1000, 6000, 11000]);
 * ```
 */
export function sweepRates(peak: number, steps: number): number[] {
  return Array.from({ length: steps }, (_, i) => Math.max(1, Math.round(peak * (0.1 + i / (steps - 1)))));
}

/**
 * A step as recorded: its rates, what was late, its failures and its latency; what it left unanswered; and the load
 * engine's own CPU over the step's window, per answer, and whether it was at its limit (on `clientCpus` CPUs).
 */
export function stepOf(targetRate: number, m: LoadMeasurement, clientCpus = 1): SweepStep {
  const phases = m.phases ?? [];
  const cpu = m.clientCpuPercent;
  return {
    targetRate,
    achievedRate: round(m.requestsPerSecond, 2),
    scheduled: phases.reduce((a, p) => a + p.scheduled, 0),
    missed: phases.reduce((a, p) => a + p.missed, 0),
    errors: m.errors,
    non2xx: m.non2xx,
    mismatches: m.mismatches,
    latencyUs: m.latencyUs,
    validResponses: m.validResponses,
    ...(m.accounting ? { unanswered: m.accounting.unanswered, unasked: m.accounting.unasked } : {}),
    ...(cpu === null ? {} : {
      clientCpuPercent: cpu,
      ...(m.responses > 0 ? { clientCpuUsPerResponse: round((cpu / 100) * m.durationMs * 1000 / m.responses, 2) } : {}),
      clientSaturated: cpu / 100 / clientCpus >= AT_LIMIT,
    }),
  };
}

/**
 * Whether a step's valid answers kept up with its schedule as drawn: a Poisson schedule's count differs from rate ×
 * time by chance, so the valid answers are judged against the requests actually due (older records: the target).
 */
function heldRate(s: SweepStep): boolean {
  if (s.validResponses !== undefined && s.scheduled > 0) return s.validResponses >= s.scheduled * (1 - MISSED_LIMIT);
  return s.achievedRate >= s.targetRate * (1 - MISSED_LIMIT);
}

/**
 * The knee: the highest rate whose p99 is at or under `sloP99Ms` and that
 * was held (no errors, at most 1% of requests late); null when none was.
 *
 * @param steps The sweep's steps.
 * @param sloP99Ms The p99 objective, milliseconds.
 * @returns The knee's step, or null.
 *
 * @example
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { kneeOf } from "./http_sweep.ts";
 *
 * const step = (targetRate: number, p99: number) => ({
 *   targetRate, achievedRate: targetRate, scheduled: targetRate, missed: 0, errors: 0, non2xx: 0, mismatches: 0,
 *   latencyUs: { min: 1, p2_5: 1, p50: 1, p90: 1, p97_5: 1, p99, p99_9: p99, max: p99, mean: 1, stdev: 1 },
 * });
 * assertEquals(kneeOf([step(1000, 2000), step(2000, 30_000), step(3000, 900_000)], 50)?.targetRate, 2000);
 * ```
 */
export function kneeOf(steps: readonly SweepStep[], sloP99Ms: number): SweepStep | null {
  const held = steps.filter((s) =>
    s.latencyUs !== null && s.latencyUs.p99 <= sloP99Ms * 1000 && s.errors === 0 && (s.unasked ?? 0) === 0 &&
    s.missed <= MISSED_LIMIT * s.scheduled && heldRate(s)
  );
  return held.reduce<SweepStep | null>((best, s) => best === null || s.targetRate > best.targetRate ? s : best, null);
}

/**
 * Runs a sweep against one server: the closed-model peak with `settings`,
 * then each rate for `settings.durationSec` after `settings.warmupSec`.
 *
 * @param generator A generator that can send on a schedule (rtbench's engine).
 * @param target The server and the requests.
 * @param settings The load settings; `sweepSteps` rates.
 * @param steps How many rates.
 * @param options Pinning, signal and the spawned processes' pids.
 * @returns The peak and every step.
 *
 * @example
 * ```ts ignore
 * import { sweep } from "./http_sweep.ts";
 * const { peak, steps } = await sweep(engineGenerator, target, settings, 10, { cpus: "1" });
 * ```
 */
export async function sweep(
  generator: LoadGenerator,
  target: LoadTarget,
  settings: LoadSettings,
  steps: number,
  options: LoadRunOptions,
): Promise<Sweep> {
  const peak = await generator.run(target, { ...settings, rate: undefined, phases: undefined }, options);
  const measured: { step: SweepStep; measurement: LoadMeasurement }[] = [];
  for (const rate of sweepRates(peak.requestsPerSecond, steps)) {
    options.signal?.throwIfAborted();
    const m = await generator.run(target, { ...settings, rate, phases: undefined }, options);
    measured.push({ step: stepOf(rate, m, cpuCount(options.cpus)), measurement: m });
  }
  return { peak, steps: measured };
}
