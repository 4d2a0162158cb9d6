/**
 * Resuming a suite from its result file (`--resume <file>`): which records
 * count as done, and whether the file was measured the way the resumed suite
 * would measure, so that one file never mixes records of different settings
 * or machines.
 *
 * Done, and kept: `completed`, `invalid` (the server answered, but wrongly:
 * measuring again gives the same verdict) and `skipped` (the runtime cannot
 * do the variant). Measured on from its finished runs: `interrupted` (the
 * suite stopped in its middle; its next run joins the round it was in).
 * Measured again: `errored` (a crash, a timeout, a runtime that could not be
 * had — things that may go right next time) and every record the file does
 * not have yet.
 *
 * @module
 */

import { identityDifferences } from "../stats/mod.ts";
import { RequestError } from "../platform/mod.ts";
import type { BenchRecord, BenchResult, Environment, RecordStatus, SuiteSettings } from "../schema/mod.ts";

/**
 * Statuses of records a resumed suite keeps; records of other statuses are measured again.
 *
 * @example `errored` records are measured again by `--resume`
 * ```ts
 * import { assert } from "@std/assert";
 * import { DONE_STATUSES } from "@rtbench/rtbench/runners";
 *
 * assert(DONE_STATUSES.includes("completed") && !DONE_STATUSES.includes("errored"));
 * ```
 */
export const DONE_STATUSES: readonly RecordStatus[] = ["completed", "invalid", "skipped"];

/**
 * The records of `previous` that a resumed suite keeps, by record id.
 *
 * @example
 * ```ts ignore
 * import { doneRecords } from "./resume.ts";
 * const done = doneRecords(previous);
 * console.log(done.has("http-json/default/deno"));
 * ```
 */
export function doneRecords(previous: BenchResult): Map<string, BenchRecord> {
  return new Map(previous.records.filter((r) => DONE_STATUSES.includes(r.status)).map((r) => [r.id, r]));
}

function same(a: unknown, b: unknown): boolean {
  return JSON.stringify(sortKeys(a)) === JSON.stringify(sortKeys(b));
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value && typeof value === "object") {
    return Object.fromEntries(
      Object.entries(value).filter(([, v]) => v !== undefined).sort(([a], [b]) => a.localeCompare(b))
        .map(([k, v]) => [k, sortKeys(v)]),
    );
  }
  return value;
}

function show(value: unknown): string {
  if (value === undefined) return "(default)";
  if (value === null) return "(all)";
  return Array.isArray(value) ? value.join(",") : typeof value === "string" ? value : JSON.stringify(value);
}

/**
 * Throws a {@linkcode RequestError} naming the first suite setting in which
 * `previous` differs from the suite about to run (`file` names the file in
 * the message).
 *
 * @example
 * ```ts ignore
 * import { checkResumableSettings } from "./resume.ts";
 * checkResumableSettings("r.json", previous.settings, { ...previous.settings, profile: "full" });
 * // RequestError: resume r.json: profile full differs from the file's quick
 * ```
 */
export function checkResumableSettings(file: string, previous: SuiteSettings, current: SuiteSettings): void {
  const fields: (keyof SuiteSettings)[] = ["profile", "workloads", "runtimes", "variants", "loadGenerator", "host"];
  for (const key of fields) {
    // Files written before a field was recorded are taken to have used its default.
    const before = previous[key] ?? (key === "host" ? "127.0.0.1" : key === "variants" ? null : undefined);
    const now = current[key] ?? (key === "host" ? "127.0.0.1" : key === "variants" ? null : undefined);
    if (!same(before, now)) {
      throw new RequestError(
        "resume",
        `${file}: {${key}} ${show(now)} differs from the file's ${show(before)} (resume with the same flags)`,
      );
    }
  }
  const was = previous.overrides as Record<string, unknown>;
  const is = current.overrides as Record<string, unknown>;
  // As the flag says it: --keep-alive on or off.
  const shown = (key: string, v: unknown) =>
    key === "keepAlive" && typeof v === "boolean" ? (v ? "on" : "off") : show(v);
  for (const key of new Set([...Object.keys(was), ...Object.keys(is)])) {
    if (!same(was[key], is[key])) {
      throw new RequestError(
        "resume",
        `${file}: {settings.${key}} ${shown(key, is[key])} differs from the file's ${
          shown(key, was[key])
        } (resume with the same flags)`,
      );
    }
  }
}

/**
 * Throws a {@linkcode RequestError} when `previous` was measured on another
 * machine or with another harness Deno than `current`.
 *
 * @example
 * ```ts ignore
 * import { checkResumableEnvironment } from "./resume.ts";
 * checkResumableEnvironment("r.json", previous.environment, await fingerprint());
 * ```
 */
export function checkResumableEnvironment(file: string, previous: Environment, current: Environment): void {
  const fields: [string, unknown, unknown][] = [
    ["operating system", previous.os, current.os],
    ["architecture", previous.arch, current.arch],
    ["CPU model", previous.cpuModel, current.cpuModel],
    ["logical CPUs", previous.logicalCores, current.logicalCores],
    ["allowed CPUs", previous.allowedCpus, current.allowedCpus],
    ["harness Deno", previous.harness.deno, current.harness.deno],
  ];
  for (const [what, before, now] of fields) {
    if (!same(before, now)) {
      throw new RequestError(
        "resume",
        `${file}: measured with ${what} ${show(before)}, this machine has ${show(now)} (start a new file)`,
      );
    }
  }
  const moved = previous.machine && current.machine ? identityDifferences(previous.machine, current.machine) : [];
  if (moved.length > 0) {
    throw new RequestError("resume", `${file}: measured on another machine (${moved.join(", ")}); start a new file`);
  }
  checkResumableVariables(file, previous, current);
}

/** The processes of a resumed suite must get what those of its kept records got: the same `--pass-env`. */
function checkResumableVariables(file: string, previous: Environment, current: Environment): void {
  if (!previous.variables) {
    throw new RequestError(
      "resume",
      `${file}: its records were measured by an older rtbench, which gave every process its whole ` +
        "environment (start a new file)",
    );
  }
  const names = (env: Environment) => [...env.variables?.passed ?? []].sort().join(",") || "(none)";
  if (names(previous) !== names(current)) {
    throw new RequestError(
      "resume",
      `${file}: measured with --pass-env ${names(previous)}, now ${
        names(current)
      } (give the same, or start a new file)`,
    );
  }
}

/**
 * Throws a {@linkcode RequestError} when a kept record was measured with other
 * effective settings or workload options than the resumed suite would use.
 *
 * @example
 * ```ts ignore
 * import { checkResumableRecord } from "./resume.ts";
 * checkResumableRecord("r.json", kept, settings, options);
 * ```
 */
export function checkResumableRecord(
  file: string,
  record: BenchRecord,
  settings: BenchRecord["settings"],
  options: BenchRecord["options"],
): void {
  if (!same(record.settings, settings)) {
    throw new RequestError(
      "resume",
      `${file}: ${record.id} was measured with other settings (${show(record.settings)}); start a new file`,
    );
  }
  for (const name of new Set([...Object.keys(record.options), ...Object.keys(options)])) {
    if (!same(record.options[name] ?? null, options[name] ?? null)) {
      throw new RequestError(
        "resume",
        `${file}: {options.${name}} ${show(options[name])} differs from the file's ${
          show(record.options[name])
        } (resume with the same flags)`,
      );
    }
  }
}

/**
 * Throws a {@linkcode RequestError} when a kept record measured another version
 * of its runtime than the one found now.
 *
 * @example
 * ```ts ignore
 * import { checkResumableRuntime } from "./resume.ts";
 * checkResumableRuntime("r.json", kept, "20.20.2");
 * ```
 */
export function checkResumableRuntime(file: string, record: BenchRecord, version: string | null): void {
  if (record.runtime.version !== null && version !== null && record.runtime.version !== version) {
    throw new RequestError(
      "resume",
      `${file}: ${record.id} measured ${record.runtime.name} ${record.runtime.version}, ` +
        `now ${record.runtime.name} ${version} is found (start a new file)`,
    );
  }
}

/** What a resumed suite takes from its file. */
export interface Kept {
  /** Done records, by id: kept as they are, not measured again. */
  readonly done: Map<string, BenchRecord>;
  /** Interrupted records with finished runs, by id: measured on from those runs. */
  readonly continued: Map<string, BenchRecord>;
}

/**
 * The records a resumed suite keeps, by id, after checking that the file was
 * measured the way this suite measures: the same suite settings, and for
 * every kept record the same effective settings and options. Empty without
 * `resume`. Throws a {@linkcode RequestError} naming the first difference.
 *
 * @param resume The earlier file and its path, or undefined.
 * @param settings The suite settings of the suite about to run.
 * @param planned Every record the suite plans: its id, effective settings and recorded options.
 * @returns The done records and the interrupted ones to go on from, by id.
 *
 * @example Nothing to keep without a file
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { keptRecords } from "./resume.ts";
 *
 * assertEquals(keptRecords(undefined, {} as never, []).done.size, 0);
 * ```
 */
export function keptRecords(
  resume: { readonly file: string; readonly result: BenchResult } | undefined,
  settings: SuiteSettings,
  planned: readonly { id: string; settings: BenchRecord["settings"]; options: BenchRecord["options"] }[],
): Kept {
  if (!resume) return { done: new Map(), continued: new Map() };
  const done = doneRecords(resume.result);
  const continued = new Map(
    resume.result.records.filter((r) => r.status === "interrupted" && r.runs.length > 0).map((r) => [r.id, r]),
  );
  checkResumableSettings(resume.file, resume.result.settings, settings);
  for (const p of planned) {
    const kept = done.get(p.id) ?? continued.get(p.id);
    if (kept) checkResumableRecord(resume.file, kept, p.settings, p.options);
  }
  return { done, continued };
}
