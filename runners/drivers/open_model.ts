/**
 * The open model's settings: a fixed arrival rate (`--rate`), or phases of
 * constant and ramping rates (`--phases "10s@1000,30s@1000->8000,10s@8000"`,
 * in Artillery's spirit), arrivals evenly spaced or Poisson (`--arrival`).
 * Latency then runs from when each request was due, so a stalled server shows
 * its stall instead of slowing the load down (no coordinated omission).
 *
 * @module
 */

/** One phase as asked for: its length and its rate at start and end, per second. */
export interface PhaseSpec {
  /** Length, seconds. */
  readonly durationSec: number;
  /** Rate at its start, per second. */
  readonly fromRate: number;
  /** Rate at its end, per second (equal to `fromRate` for a constant rate). */
  readonly toRate: number;
}

const PHASE = /^\s*(\d+(?:\.\d+)?)(ms|s|m)\s*@\s*(\d+(?:\.\d+)?)\s*(?:->\s*(\d+(?:\.\d+)?))?\s*$/;

/**
 * Parses a `--phases` value: comma-separated `<duration>@<rate>` (constant)
 * or `<duration>@<from>-><to>` (ramping), durations in `ms`, `s` or `m`.
 * Throws a `RangeError` naming the flag and the part that is wrong.
 *
 * @param spec The value, for example `"10s@1000,30s@1000->8000,10s@8000"`.
 * @returns The phases in order.
 *
 * @example A warm ramp to a plateau
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { parsePhases } from "./open_model.ts";
 *
 * assertEquals(parsePhases("10s@1000,1m@1000->8000"), [
 *   { durationSec: 10, fromRate: 1000, toRate: 1000 },
 *   { durationSec: 60, fromRate: 1000, toRate: 8000 },
 * ]);
 * ```
 */
export function parsePhases(spec: string): PhaseSpec[] {
  const parts = spec.split(",");
  if (spec.trim() === "") throw new RangeError("needs at least one phase, for example 10s@1000");
  return parts.map((part) => {
    const m = PHASE.exec(part);
    if (!m) {
      throw new RangeError(`"${part.trim()}" is not <duration>@<rate> or <duration>@<from>-><to> (10s@1000)`);
    }
    const durationSec = Number(m[1]) * (m[2] === "ms" ? 0.001 : m[2] === "m" ? 60 : 1);
    const fromRate = Number(m[3]);
    const toRate = m[4] === undefined ? fromRate : Number(m[4]);
    if (durationSec <= 0) throw new RangeError(`"${part.trim()}" lasts no time`);
    if (fromRate === 0 && toRate === 0) throw new RangeError(`"${part.trim()}" sends nothing`);
    return { durationSec, fromRate, toRate };
  });
}

/** What the open model of a run is: its measured phases and how arrivals are spaced. */
export interface OpenModel {
  /** The measured phases, in order. */
  readonly phases: readonly PhaseSpec[];
  /** Evenly spaced, or a Poisson process. */
  readonly arrival: "uniform" | "poisson";
}

/**
 * The open model the settings ask for: `phases` (parsed), else a constant
 * `rate` for `durationSec`; null for the closed model.
 *
 * @param settings Rate, phases, arrival and duration.
 * @returns The model, or null.
 *
 * @example A fixed rate
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { openModelOf } from "./open_model.ts";
 *
 * assertEquals(openModelOf({ rate: 2000, durationSec: 5 })?.phases, [{ durationSec: 5, fromRate: 2000, toRate: 2000 }]);
 * assertEquals(openModelOf({ durationSec: 5 }), null);
 * ```
 */
export function openModelOf(settings: {
  readonly rate?: number;
  readonly phases?: string;
  readonly arrival?: "uniform" | "poisson";
  readonly durationSec: number;
}): OpenModel | null {
  const arrival = settings.arrival ?? "uniform";
  if (settings.phases !== undefined) return { phases: parsePhases(settings.phases), arrival };
  if (settings.rate !== undefined) {
    return { phases: [{ durationSec: settings.durationSec, fromRate: settings.rate, toRate: settings.rate }], arrival };
  }
  return null;
}

/** The mean rate of phases, per second: requests due over their total length. */
export function meanRate(phases: readonly PhaseSpec[]): number {
  const seconds = phases.reduce((a, p) => a + p.durationSec, 0);
  return phases.reduce((a, p) => a + (p.fromRate + p.toRate) / 2 * p.durationSec, 0) / seconds;
}

export { DEFAULT_SLO_P99_MS, DEFAULT_SWEEP_STEPS } from "../stats/mod.ts";

/** A rate is held when at most this share of its requests went out late. */
export const MISSED_LIMIT = 0.01;
