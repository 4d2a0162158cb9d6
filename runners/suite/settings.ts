/**
 * Settings profiles, validation and merging. Validation happens before
 * defaults are applied, and every message names the flag.
 *
 * @module
 */

import type { OptionValues, RunSettings, Workload } from "../../workloads/types.ts";
import { UsageError } from "../platform/errors.ts";
import { parsePhases } from "../drivers/open_model.ts";

/**
 * A named set of default settings.
 *
 * @example Pick the full profile
 * ```ts
 * import type { Profile, RunOptions } from "@rtbench/rtbench/runners";
 *
 * const profile: Profile = "full";
 * const options: RunOptions = { profile };
 * ```
 */
export type Profile = "quick" | "full";

/**
 * Defaults per profile. `quick` (the default) runs the whole suite in a few
 * minutes on a 2-core machine; `full` is for numbers you publish.
 *
 * @example The measurement budget of each profile
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { PROFILES } from "@rtbench/rtbench/runners";
 *
 * assertEquals([PROFILES.quick.runs, PROFILES.full.runs], [3, 5]);
 * ```
 */
export const PROFILES: Readonly<Record<Profile, RunSettings>> = {
  // Three runs, not two: Student's t for two runs is 12.7 and prints intervals nobody can act on; shorter windows
  // pay for the third run, keeping the default suite within about five minutes on a 2-core machine.
  quick: {
    durationSec: 2,
    warmupSec: 0.5,
    connections: 100,
    runs: 3,
    pipelining: 1,
    keepAlive: true,
    requestTimeoutSec: 10,
    startTimeoutSec: 30,
  },
  full: {
    durationSec: 10,
    warmupSec: 3,
    connections: 100,
    runs: 5,
    pipelining: 1,
    keepAlive: true,
    requestTimeoutSec: 10,
    startTimeoutSec: 60,
  },
};

/** The flag that sets each setting, for messages. */
export const SETTING_FLAGS: Readonly<Record<keyof RunSettings, string>> = {
  durationSec: "--duration",
  warmupSec: "--warmup",
  connections: "--connections",
  runs: "--runs",
  pipelining: "--pipelining",
  keepAlive: "--keep-alive",
  requestTimeoutSec: "--timeout",
  startTimeoutSec: "--start-timeout",
  minRuns: "--min-runs",
  maxRuns: "--max-runs",
  ciTargetPercent: "--ci-target",
  sampleIntervalMs: "--sample-interval",
  rate: "--rate",
  phases: "--phases",
  arrival: "--arrival",
  sweep: "--sweep",
  sweepSteps: "--sweep-steps",
  sloP99Ms: "--slo-p99",
  serverCpus: "--server-cpus",
  cpuRate: "--cpu-rate",
  idleConnections: "--idle-connections",
};

type Rule = { integer: boolean; min: number; exclusive: boolean; max: number };
const RULES: Partial<Record<keyof RunSettings, Rule>> = {
  durationSec: { integer: false, min: 0, exclusive: true, max: 86_400 },
  warmupSec: { integer: false, min: 0, exclusive: false, max: 3600 },
  connections: { integer: true, min: 1, exclusive: false, max: 100_000 },
  runs: { integer: true, min: 1, exclusive: false, max: 1000 },
  pipelining: { integer: true, min: 1, exclusive: false, max: 1000 },
  requestTimeoutSec: { integer: false, min: 0, exclusive: true, max: 3600 },
  startTimeoutSec: { integer: false, min: 0, exclusive: true, max: 3600 },
  // A confidence interval needs two runs.
  minRuns: { integer: true, min: 2, exclusive: false, max: 1000 },
  maxRuns: { integer: true, min: 2, exclusive: false, max: 1000 },
  ciTargetPercent: { integer: false, min: 0, exclusive: true, max: 100 },
  sampleIntervalMs: { integer: false, min: 10, exclusive: false, max: 60_000 },
  rate: { integer: false, min: 0, exclusive: true, max: 10_000_000 },
  sweepSteps: { integer: true, min: 2, exclusive: false, max: 100 },
  sloP99Ms: { integer: false, min: 0, exclusive: true, max: 600_000 },
  cpuRate: { integer: false, min: 0, exclusive: false, max: 10_000_000 },
  idleConnections: { integer: true, min: 0, exclusive: false, max: 100_000 },
};

/** Checks explicit settings; throws {@linkcode UsageError} naming the flag. */
export function validateSettings(settings: Partial<RunSettings>): void {
  for (const [key, value] of Object.entries(settings) as [keyof RunSettings, unknown][]) {
    if (value === undefined) continue;
    const flag = SETTING_FLAGS[key];
    if (!flag) throw new UsageError(`Unknown setting "${key}"`);
    if (key === "keepAlive") {
      if (value !== true) throw new UsageError(`${flag}: only keep-alive connections are supported`);
      continue;
    }
    if (key === "sweep") {
      if (typeof value !== "boolean") throw new UsageError(`${flag} is on or off, got ${JSON.stringify(value)}`);
      continue;
    }
    if (key === "arrival") {
      if (value !== "uniform" && value !== "poisson") {
        throw new UsageError(`${flag} must be uniform or poisson, got ${JSON.stringify(value)}`);
      }
      continue;
    }
    if (key === "serverCpus") {
      if (value !== "all" && !(Number.isInteger(value) && (value as number) >= 1)) {
        throw new UsageError(`${flag} must be a whole number of CPUs or all, got ${JSON.stringify(value)}`);
      }
      continue;
    }
    if (key === "phases") {
      try {
        parsePhases(String(value));
      } catch (error) {
        throw new UsageError((error as Error).message);
      }
      continue;
    }
    const rule = RULES[key]!;
    const kind = rule.integer ? "a whole number" : "a number";
    const bound = rule.exclusive ? `> ${rule.min}` : `≥ ${rule.min}`;
    if (
      typeof value !== "number" || !Number.isFinite(value) || (rule.integer && !Number.isInteger(value)) ||
      (rule.exclusive ? value <= rule.min : value < rule.min) || value > rule.max
    ) {
      throw new UsageError(`${flag} must be ${kind} ${bound} and ≤ ${rule.max}, got ${JSON.stringify(value)}`);
    }
  }
  validateOpenModel(settings);
  const { runs, minRuns, maxRuns, ciTargetPercent } = settings;
  if (runs !== undefined && (minRuns !== undefined || maxRuns !== undefined)) {
    throw new UsageError("--runs: give either a fixed --runs or --min-runs/--max-runs, not both");
  }
  if (minRuns !== undefined && maxRuns !== undefined && maxRuns < minRuns) {
    throw new UsageError(`--max-runs must be ≥ --min-runs (${minRuns}), got ${maxRuns}`);
  }
  if (ciTargetPercent !== undefined && minRuns === undefined && maxRuns === undefined) {
    throw new UsageError("--ci-target needs --min-runs or --max-runs (it decides when to stop adding runs)");
  }
}

/** The open model's flags go together only in some ways; say which way is wrong, naming the flag. */
function validateOpenModel(s: Partial<RunSettings>): void {
  if (s.rate !== undefined && s.phases !== undefined) {
    throw new UsageError("--phases: give either a constant --rate or --phases, not both");
  }
  if (s.sweep && (s.rate !== undefined || s.phases !== undefined)) {
    throw new UsageError("--sweep chooses its own rates; leave out --rate and --phases");
  }
  if (!s.sweep && (s.sweepSteps !== undefined || s.sloP99Ms !== undefined)) {
    throw new UsageError(`${s.sweepSteps !== undefined ? "--sweep-steps" : "--slo-p99"} needs --sweep`);
  }
  if (s.arrival !== undefined && s.rate === undefined && s.phases === undefined && !s.sweep) {
    throw new UsageError("--arrival needs an open model: --rate, --phases or --sweep");
  }
}

/** Settings that only set how long a measurement takes; a workload's preference for them is for the quick profile. */
const BUDGET: readonly (keyof RunSettings)[] = ["durationSec", "warmupSec", "runs"];

/**
 * Profile defaults, then the workload's preferences, then explicit overrides.
 * A workload's `durationSec`, `warmupSec` and `runs` shorten the quick profile
 * only: `--profile full` keeps its full measurement budget, while settings that
 * shape the measurement itself (connections, timeouts) apply to every profile.
 */
export function effectiveSettings(profile: Profile, workload: Workload, overrides: Partial<RunSettings>): RunSettings {
  const defined = Object.fromEntries(Object.entries(overrides).filter(([, v]) => v !== undefined));
  const preferred = Object.fromEntries(
    Object.entries(workload.defaults ?? {}).filter(([k]) =>
      profile === "quick" || !BUDGET.includes(k as keyof RunSettings)
    ),
  );
  return { ...PROFILES[profile], ...preferred, ...defined };
}

/**
 * Resolves a workload's options from given values (strings from the command
 * line, or typed values from the API), the environment and defaults.
 */
export function resolveOptions(workload: Workload, given: Readonly<Record<string, unknown>>): OptionValues {
  const values: Record<string, number | string | undefined> = {};
  for (const option of workload.options ?? []) {
    let raw = given[option.name];
    const fromEnv = raw === undefined && option.env !== undefined && Deno.env.get(option.env) !== undefined;
    if (fromEnv) raw = Deno.env.get(option.env!);
    if (raw === undefined) {
      values[option.name] = option.default;
      continue;
    }
    const flag = `--${option.name}${fromEnv ? ` (from ${option.env})` : ""}`;
    if (option.type === "string") {
      if (typeof raw !== "string" || raw === "") throw new UsageError(`${flag} needs a value`);
      const problem = option.validate?.(raw);
      if (problem) throw new UsageError(`${flag}: ${problem}`);
      values[option.name] = raw;
      continue;
    }
    const n = typeof raw === "number" ? raw : typeof raw === "string" && raw.trim() !== "" ? Number(raw) : NaN;
    const range = `${option.integer ? "a whole number" : "a number"}` +
      (option.min !== undefined ? ` ≥ ${option.min}` : "") + (option.max !== undefined ? ` and ≤ ${option.max}` : "");
    if (
      !Number.isFinite(n) || (option.integer && !Number.isInteger(n)) ||
      (option.min !== undefined && n < option.min) || (option.max !== undefined && n > option.max)
    ) {
      throw new UsageError(`${flag} must be ${range}, got ${JSON.stringify(raw)}`);
    }
    const problem = option.validate?.(n);
    if (problem) throw new UsageError(`${flag}: ${problem}`);
    values[option.name] = n;
  }
  return values;
}
