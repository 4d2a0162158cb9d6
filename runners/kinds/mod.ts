/**
 * The workload kinds, as the layers above see them: a record's run, a variant's checks, a workload's headline and a
 * report's view, each found by the workload's (or record's) `kind` in the one registry (`registry.ts`).
 *
 * @module
 */

import type { RunSettings, Workload } from "../../workloads/mod.ts";
import type { Headline } from "../schema/mod.ts";
import type { Kind } from "./kind.ts";
import { RecordRun } from "./loop.ts";
import type { RecordOutcome, SuiteRecordContext, VariantContext, VariantVerdict } from "./record.ts";
import * as registry from "./registry.ts";
import { runsEstimateSec } from "./estimate.ts";

/**
 * Every kind, by its name, typed for the loop. Each kind is typed to see its own part of a record's context; the
 * loop gets the suite's, which holds every kind's part ({@linkcode recordRun} takes only that).
 */
const KINDS: ReadonlyMap<string, Kind<Workload, unknown>> = new Map(
  Object.values(registry).map((kind) => [kind.name, kind as unknown as Kind<Workload, unknown>]),
);

/**
 * Every registered kind's name and what its workloads must have beyond the common fields, in no particular order (the
 * schema's list keeps its own: `runners/dev/kinds.ts`).
 *
 * @example The built-in kinds
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { registeredKinds } from "./mod.ts";
 *
 * assertEquals(registeredKinds().map((k) => k.name).sort(), ["http", "micro", "process", "websocket"]);
 * ```
 */
export function registeredKinds(): { readonly name: string; readonly requires: readonly string[] }[] {
  return [...KINDS.values()].map(({ name, requires }) => ({ name, requires }));
}

function kindOf(workload: Workload): Kind<Workload, unknown> {
  const kind = KINDS.get(workload.kind);
  if (!kind) throw new TypeError(`No runner for workload kind "${workload.kind}"`);
  return kind;
}

/**
 * A record of `ctx.workload`, ready to be opened and stepped by the suite's scheduler.
 *
 * @param ctx Everything the record is measured with.
 * @param outcome The part of the record the kind and the loop fill in.
 * @returns The record, not yet opened.
 *
 * @example
 * ```ts ignore
 * import { recordRun } from "./mod.ts";
 * const record = recordRun(ctx, outcome);
 * await record.open();
 * while (record.wantsRun) await record.step({ round: record.runs, slot: 0 });
 * const ending = await record.close();
 * ```
 */
export function recordRun(ctx: SuiteRecordContext, outcome: RecordOutcome): RecordRun {
  return new RecordRun(kindOf(ctx.workload), ctx, outcome);
}

/**
 * Checks that need every runtime of a variant before any is measured (HTTP:
 * parity across runtimes); a verdict per runtime, none for kinds without such a check.
 *
 * @param ctx The workload, variant and every runtime that could be had.
 * @returns A verdict per runtime, keyed as requested.
 *
 * @example
 * ```ts ignore
 * import { checkVariant } from "./mod.ts";
 * const verdicts = await checkVariant(variantContext);
 * ```
 */
export function checkVariant(ctx: VariantContext): Promise<Map<string, VariantVerdict>> {
  return kindOf(ctx.workload).checkVariant?.(ctx) ?? Promise.resolve(new Map());
}

/**
 * What a workload's records are ranked by with `settings`, as its kind says,
 * before any record opens.
 *
 * @example Start-up is ranked by wall time, lower better
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { startup } from "../../workloads/startup.ts";
 * import { PROFILES } from "../suite/settings.ts";
 * import { headlineOf } from "./mod.ts";
 *
 * assertEquals(headlineOf(startup, PROFILES.quick), { figure: "wallMs", higherIsBetter: false });
 * ```
 */
export function headlineOf(workload: Workload, settings: RunSettings): Headline {
  return kindOf(workload).headline(workload, settings);
}

/**
 * Seconds one record of `workload` is expected to take with `settings`, as its kind estimates, for progress displays.
 *
 * @example Start-up's records take seconds, however many launches fill them
 * ```ts
 * import { assert } from "@std/assert";
 * import { startup } from "../../workloads/startup.ts";
 * import { PROFILES } from "../suite/settings.ts";
 * import { estimateRecordSec } from "./mod.ts";
 *
 * assert(estimateRecordSec(startup, { ...PROFILES.quick, runs: 10 }) < 5);
 * ```
 */
export function estimateRecordSec(workload: Workload, settings: RunSettings): number {
  return (kindOf(workload).estimateSec ?? runsEstimateSec)(settings);
}

export { type Ending, endingOf, RecordRun, type Slot } from "./loop.ts";
export type { Kind, RunOutput } from "./kind.ts";
export type {
  CpuRateChoice,
  HttpRecordContext,
  RecordContext,
  RecordOutcome,
  ServedRecordContext,
  SuiteRecordContext,
  VariantContext,
  VariantVerdict,
} from "./record.ts";
export { InvalidError, PhaseError, SkipRecord } from "./errors.ts";
export { CHOSEN_SHARE, chosenCpuRate } from "./cpu_rate.ts";
export { judgeHttpRun } from "./verdict.ts";
export { type HookTimeouts, hookTimeouts, withinTime } from "./timeouts.ts";
export * from "./server.ts";
export * from "./timeouts.ts";
