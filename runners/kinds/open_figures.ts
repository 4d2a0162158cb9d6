/**
 * The open model's figures, one way for every kind: the rate asked for, what
 * went out late, latency percentiles from when each request (or message) was
 * due, each phase; and a `rate-not-held` warning saying why when more than 1%
 * went out late.
 *
 * @module
 */

import { meanRate, type MeasuredPhase, MISSED_LIMIT, type OpenModel } from "../drivers/mod.ts";
import type { LatencyPercentiles, LoadPhase, Warning } from "../schema/mod.ts";
import { round } from "../stats/mod.ts";

/**
 * Figures of an open-model run: `target<Noun>PerSecond`, `missed<Noun>`,
 * `missedPercent` and `latencyP50Us` … `latencyP999Us`; and its phases as recorded.
 *
 * @param model What the run was asked for.
 * @param phases What each measured phase counted.
 * @param latency Latency over every phase, from when each was due.
 * @param noun `Requests` or `Messages`.
 * @returns The figures, and the phases for the run record.
 *
 * @example
 * ```ts ignore
 * import { openFigures } from "./open_figures.ts";
 * const { figures, phases } = openFigures(model, m.phases, m.latencyUs, "Requests");
 * ```
 */
export function openFigures(
  model: OpenModel,
  phases: readonly MeasuredPhase[],
  latency: LatencyPercentiles | null,
  noun: "Requests" | "Messages",
): { figures: Record<string, number>; phases: LoadPhase[] } {
  const scheduled = phases.reduce((a, p) => a + p.scheduled, 0);
  const missed = phases.reduce((a, p) => a + p.missed, 0);
  const figures: Record<string, number> = {
    [`target${noun}PerSecond`]: round(meanRate(model.phases), 2),
    [`missed${noun}`]: missed,
    missedPercent: scheduled > 0 ? round(missed / scheduled * 100, 3) : 0,
  };
  if (latency) {
    figures.latencyP50Us = latency.p50;
    figures.latencyP90Us = latency.p90;
    figures.latencyP99Us = latency.p99;
    figures.latencyP999Us = latency.p99_9;
  }
  return {
    figures,
    phases: phases.map(({ latencyHistogram: _, missedConnections: _c, missedClient: _l, ...p }) => p),
  };
}

/**
 * A warning when more than 1% of what was due went out more than 10 ms late,
 * saying why: every connection waiting for an answer, or the load itself
 * behind its schedule; null otherwise.
 *
 * @param phases What each measured phase counted.
 * @param connections How many connections (sockets) the load held.
 * @returns The warning, or null.
 *
 * @example
 * ```ts ignore
 * import { rateNotHeld } from "./open_figures.ts";
 * const late = rateNotHeld(m.phases, settings.connections);
 * ```
 */
export function rateNotHeld(phases: readonly MeasuredPhase[], connections: number): Warning | null {
  const scheduled = phases.reduce((a, p) => a + p.scheduled, 0);
  const waiting = phases.reduce((a, p) => a + p.missedConnections, 0);
  const behind = phases.reduce((a, p) => a + p.missedClient, 0);
  if (scheduled === 0 || waiting + behind <= MISSED_LIMIT * scheduled) return null;
  const why = waiting >= behind
    ? `all ${connections} connections were waiting for answers (raise --connections, or the server is saturated at ` +
      "this rate)"
    : "the load engine itself fell behind its schedule (its CPU: see clientCpuPercent)";
  return {
    code: "rate-not-held",
    message:
      `${waiting + behind} of ${scheduled} due (${(100 * (waiting + behind) / scheduled).toFixed(1)}%) went out ` +
      `more than 10 ms late: ${why}`,
  };
}
