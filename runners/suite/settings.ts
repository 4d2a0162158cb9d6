/**
 * Settings profiles, validation and merging. Validation happens before
 * defaults are applied, and every message names the field (the command line
 * names its flag instead).
 *
 * @module
 */

import type { OptionValues, RunSettings, Workload } from "../../workloads/mod.ts";
import { RequestError } from "../platform/mod.ts";
import { parsePhases } from "../drivers/mod.ts";

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
  // Three runs, not two: Student's t for two runs is 12.7 and prints intervals nobody can act on. Windows of 1 s, not
  // 2 s, pay for the third run and for http-json's five rounds, for a default suite of about five minutes on a 2-core
  // machine (README): run to run, a server's figures varied as much over 1 s windows as over 2 s (docs/method.md).
  quick: {
    durationSec: 1,
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

/** Every setting `run()` takes, for the check that refuses an unknown one. */
const SETTINGS: readonly (keyof RunSettings)[] = [
  "durationSec",
  "warmupSec",
  "connections",
  "runs",
  "pipelining",
  "keepAlive",
  "requestTimeoutSec",
  "startTimeoutSec",
  "minRuns",
  "maxRuns",
  "ciTargetPercent",
  "sampleIntervalMs",
  "rate",
  "phases",
  "arrival",
  "sweep",
  "sweepSteps",
  "sloP99Ms",
  "serverCpus",
  "cpuRate",
  "idleConnections",
];

/**
 * Checks explicit settings: each value's type and range, and how they go
 * together. Throws a {@linkcode RequestError} naming the field
 * (`settings.durationSec`).
 *
 * @param settings Explicit settings, as `run()` takes them.
 *
 * @example Two runs are the least an adaptive plan may take
 * ```ts
 * import { assertThrows } from "@std/assert";
 * import { validateSettings } from "./settings.ts";
 *
 * assertThrows(() => validateSettings({ minRuns: 1 }), Error, "settings.minRuns must be a whole number ≥ 2");
 * ```
 */
export function validateSettings(settings: Partial<RunSettings>): void {
  for (const [key, value] of Object.entries(settings) as [keyof RunSettings, unknown][]) {
    if (value !== undefined) validateSetting(key, value);
  }
  validateOpenModel(settings);
  if (settings.keepAlive === false && settings.pipelining !== undefined && settings.pipelining > 1) {
    // With Connection: close the server answers one request and closes: nothing can be pipelined behind it.
    throw new RequestError(
      "settings.pipelining",
      "needs {settings.keepAlive} on (a connection that closes carries one request)",
    );
  }
  const { runs, minRuns, maxRuns, ciTargetPercent } = settings;
  if (runs !== undefined && (minRuns !== undefined || maxRuns !== undefined)) {
    throw new RequestError(
      "settings.runs",
      ": give either a fixed {settings.runs} or {settings.minRuns}/{settings.maxRuns}, not both",
    );
  }
  if (minRuns !== undefined && maxRuns !== undefined && maxRuns < minRuns) {
    throw new RequestError("settings.maxRuns", `must be ≥ {settings.minRuns} (${minRuns}), got ${maxRuns}`);
  }
  if (ciTargetPercent !== undefined && minRuns === undefined && maxRuns === undefined) {
    throw new RequestError(
      "settings.ciTargetPercent",
      "needs {settings.minRuns} or {settings.maxRuns} (it decides when to stop adding runs)",
    );
  }
}

function validateSetting(key: keyof RunSettings, value: unknown): void {
  const field = `settings.${key}`;
  const fail = (problem: string): never => {
    throw new RequestError(field, problem);
  };
  if (!SETTINGS.includes(key)) fail(": unknown setting");
  if (key === "keepAlive" || key === "sweep") {
    if (typeof value !== "boolean") fail(`is on or off, got ${JSON.stringify(value)}`);
  } else if (key === "arrival") {
    if (value !== "uniform" && value !== "poisson") fail(`must be uniform or poisson, got ${JSON.stringify(value)}`);
  } else if (key === "serverCpus") {
    if (value !== "all" && !(Number.isInteger(value) && (value as number) >= 1)) {
      fail(`must be a whole number of CPUs or all, got ${JSON.stringify(value)}`);
    }
  } else if (key === "phases") {
    if (typeof value !== "string") fail(`must be a list of phases, got ${JSON.stringify(value)}`);
    try {
      parsePhases(value as string);
    } catch (error) {
      fail(`${/^needs/.test((error as Error).message) ? "" : ": "}${(error as Error).message}`);
    }
  } else {
    const rule = RULES[key]!;
    const kind = rule.integer ? "a whole number" : "a number";
    const bound = rule.exclusive ? `> ${rule.min}` : `≥ ${rule.min}`;
    if (
      typeof value !== "number" || !Number.isFinite(value) || (rule.integer && !Number.isInteger(value)) ||
      (rule.exclusive ? value <= rule.min : value < rule.min) || value > rule.max
    ) {
      fail(`must be ${kind} ${bound} and ≤ ${rule.max}, got ${JSON.stringify(value)}`);
    }
  }
}

/** The open model's settings go together only in some ways; say which way is wrong, naming the field. */
function validateOpenModel(s: Partial<RunSettings>): void {
  if (s.rate !== undefined && s.phases !== undefined) {
    throw new RequestError(
      "settings.phases",
      ": give either a constant {settings.rate} or {settings.phases}, not both",
    );
  }
  if (s.sweep && (s.rate !== undefined || s.phases !== undefined)) {
    throw new RequestError("settings.sweep", "chooses its own rates; leave out {settings.rate} and {settings.phases}");
  }
  if (!s.sweep && (s.sweepSteps !== undefined || s.sloP99Ms !== undefined)) {
    throw new RequestError(
      s.sweepSteps !== undefined ? "settings.sweepSteps" : "settings.sloP99Ms",
      "needs {settings.sweep}",
    );
  }
  if (s.arrival !== undefined && s.rate === undefined && s.phases === undefined && !s.sweep) {
    throw new RequestError(
      "settings.arrival",
      "needs an open model: {settings.rate}, {settings.phases} or {settings.sweep}",
    );
  }
}

/** Settings that only set how long a measurement takes; a workload's preference for them is for the quick profile. */
const BUDGET: readonly (keyof RunSettings)[] = ["durationSec", "warmupSec", "runs"];

/** Kinds whose work opens no connection to a server: a connection setting says nothing of their records. */
const UNCONNECTED: readonly Workload["kind"][] = ["process", "micro"];

/**
 * Profile defaults, then the workload's preferences, then explicit overrides.
 * A workload's `durationSec`, `warmupSec` and `runs` shorten the quick profile
 * only: `--profile full` keeps its full measurement budget, while settings that
 * shape the measurement itself (connections, timeouts) apply to every profile.
 * `keepAlive` off applies to the workloads that open connections: a process or
 * micro workload's record keeps the profile's value, so it never claims a
 * connection per request it did not make.
 *
 * @example startup beside http-json under --keep-alive off
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { effectiveSettings } from "./settings.ts";
 * import { httpJson, startup } from "../../workloads/mod.ts";
 *
 * assertEquals(effectiveSettings("quick", httpJson, { keepAlive: false }).keepAlive, false);
 * assertEquals(effectiveSettings("quick", startup, { keepAlive: false }).keepAlive, true);
 * ```
 */
export function effectiveSettings(profile: Profile, workload: Workload, overrides: Partial<RunSettings>): RunSettings {
  const defined = Object.fromEntries(
    Object.entries(overrides).filter(([k, v]) =>
      v !== undefined && !(k === "keepAlive" && UNCONNECTED.includes(workload.kind))
    ),
  );
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
    const field = `options.${option.name}`;
    const from = fromEnv ? ` (from ${option.env})` : "";
    if (option.type === "string") {
      if (typeof raw !== "string" || raw === "") throw new RequestError(field, `${from} needs a value`);
      const problem = option.validate?.(raw);
      if (problem) throw new RequestError(field, `${from}: ${problem}`);
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
      throw new RequestError(field, `${from} must be ${range}, got ${JSON.stringify(raw)}`);
    }
    const problem = option.validate?.(n);
    if (problem) throw new RequestError(field, `${from}: ${problem}`);
    values[option.name] = n;
  }
  return values;
}
