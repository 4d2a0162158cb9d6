/**
 * The machine calibration measured at the start of every suite: a fixed
 * single-core workload (`_calibration_child.ts`: hashing, floating point, a
 * Map, a sort, JSON) run the same way each time — on the harness's Deno,
 * pinned to the first server CPU, one warm-up round then ten timed rounds,
 * about a second in all. Its median and spread say how fast this machine ran
 * that day; two results whose calibrations differ beyond their noise are not
 * compared (see `stats/machine.ts`).
 *
 * @module
 */

import { parseCpuList, runTool, toolJson } from "../platform/mod.ts";
import type { MachineCalibration } from "../schema/mod.ts";
import { median, round } from "../stats/mod.ts";

/** The work's name and version; a change to the work changes it, and only equal works are compared. */
export const CALIBRATION_WORK = "rtbench-calibration/1";

/** Timed rounds after the warm-up. */
export const CALIBRATION_ROUNDS = 10;

const CHILD = new URL("./_calibration_child.ts", import.meta.url);

/**
 * The median and spread of a calibration's rounds: the spread is the median absolute deviation in percent of the
 * median, which one slow round (a neighbour's burst) barely moves.
 *
 * @param roundsMs Each round's milliseconds.
 * @returns The median and the spread.
 *
 * @example
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { calibrationSummary } from "./calibration.ts";
 * // median 100; deviations 2, 1, 0, 1, 50 → their median 1 → 1% of 100.
 * assertEquals(calibrationSummary([98, 99, 100, 101, 150]), { medianMs: 100, spreadPercent: 1 });
 * ```
 */
export function calibrationSummary(roundsMs: readonly number[]): { medianMs: number; spreadPercent: number } {
  const m = median([...roundsMs]);
  const mad = median(roundsMs.map((t) => Math.abs(t - m)));
  return { medianMs: round(m), spreadPercent: round((100 * mad) / m) };
}

/**
 * Measures this machine's speed on `cpus` (its first CPU): how long a fixed piece of work takes, the median of
 * several rounds and their spread; about a second. Each record carries it, so that results of two machines (or of one
 * machine on two days) are compared only at the same speed.
 *
 * @param cpus The server's CPU list, or null when nothing is pinned.
 * @param signal Stops it.
 * @returns The calibration.
 *
 * @example
 * ```ts ignore
 * import { measureMachineSpeed } from "./calibration.ts";
 * const c = await measureMachineSpeed("0");
 * console.log(c.medianMs, c.spreadPercent);
 * ```
 */
export async function measureMachineSpeed(cpus: string | null, signal?: AbortSignal): Promise<MachineCalibration> {
  const cpu = cpus ? String(parseCpuList(cpus)[0]) : null;
  const stdout = await runTool(
    "machine calibration",
    [Deno.execPath(), "run", "--no-config", "--quiet", CHILD.href, String(CALIBRATION_ROUNDS)],
    // rtbench's own program on its Deno; a check of the machine, not a process of any record.
    { cpus: cpu, timeoutMs: 60_000, signal, purpose: "harness", listed: false },
  );
  const { roundsMs, allowedCpus } = toolJson<{ roundsMs: number[]; allowedCpus: number }>(
    "machine calibration",
    stdout,
  );
  if (roundsMs.length !== CALIBRATION_ROUNDS || !roundsMs.every((t) => t > 0)) {
    throw new Error(`machine calibration printed ${roundsMs.length} rounds, not ${CALIBRATION_ROUNDS}`);
  }
  return {
    work: CALIBRATION_WORK,
    runtime: `deno ${Deno.version.deno}`,
    // The CPU it was pinned to, when it really ran on one CPU only (its affinity says so); null when not pinned.
    cpu: allowedCpus === 1 ? cpu : null,
    roundsMs: roundsMs.map((t) => round(t)),
    ...calibrationSummary(roundsMs),
  };
}

/** The variable that hands a suite a calibration measured earlier on this machine (JSON, as a result records it). */
export const CALIBRATION_ENV = "RTBENCH_CALIBRATION";

/**
 * The calibration `RTBENCH_CALIBRATION` holds, or undefined when it is unset or empty: for a program that runs
 * suites one after another on one machine, which then measures the machine once instead of a second per suite.
 *
 * @param value The variable's value.
 * @returns The calibration, or undefined.
 * @throws {RangeError} Naming the variable, when it is not a calibration of this work.
 *
 * @example
 * ```ts
 * import { assertEquals, assertThrows } from "@std/assert";
 * import { CALIBRATION_WORK, calibrationOf } from "./calibration.ts";
 * const c = { work: CALIBRATION_WORK, runtime: "deno 2.9.6", cpu: "0", roundsMs: [80, 82], medianMs: 81, spreadPercent: 1.2 };
 * assertEquals(calibrationOf(JSON.stringify(c)), c);
 * assertEquals(calibrationOf(""), undefined);
 * assertThrows(() => calibrationOf('{"work":"other"}'), RangeError, "RTBENCH_CALIBRATION");
 * ```
 */
export function calibrationOf(value: string | undefined): MachineCalibration | undefined {
  if (!value) return undefined;
  let c: Partial<MachineCalibration>;
  try {
    c = JSON.parse(value);
  } catch {
    throw new RangeError(`${CALIBRATION_ENV} is not JSON: give a calibration as a result file records it`);
  }
  const positive = (n: unknown) => typeof n === "number" && n > 0 && Number.isFinite(n);
  const ok = c?.work === CALIBRATION_WORK && typeof c.runtime === "string" &&
    (c.cpu === null || typeof c.cpu === "string") && Array.isArray(c.roundsMs) && c.roundsMs.length > 0 &&
    c.roundsMs.every(positive) && positive(c.medianMs) && typeof c.spreadPercent === "number" &&
    c.spreadPercent >= 0;
  if (!ok) {
    throw new RangeError(
      `${CALIBRATION_ENV} is not a calibration of ${CALIBRATION_WORK} (work, runtime, cpu, roundsMs, medianMs, ` +
        "spreadPercent)",
    );
  }
  return c as MachineCalibration;
}
