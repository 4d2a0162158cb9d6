/**
 * Which kind drives which workload: the one place a new kind is wired in.
 * The table is checked against `WorkloadKind`, so a kind without an entry
 * fails the type check.
 *
 * @module
 */

import type { RunSettings, Workload, WorkloadKind } from "../../workloads/mod.ts";
import type { Headline } from "../schema/mod.ts";
import { httpKind } from "./http.ts";
import type { Kind } from "./kind.ts";
import { RecordRun } from "./loop.ts";
import { microKind } from "./micro.ts";
import { processKind } from "./process.ts";
import type { RecordOutcome, SuiteRecordContext, VariantContext, VariantVerdict } from "./record.ts";
import { websocketKind } from "./websocket.ts";

/** Every kind, by the `kind` field of the workloads it drives. */
const KINDS = {
  http: httpKind,
  websocket: websocketKind,
  process: processKind,
  micro: microKind,
} satisfies Record<WorkloadKind, unknown>;

/**
 * The kind of a workload, typed for the loop. Each kind is typed to see its own part of a record's context; the
 * loop gets the suite's, which holds every kind's part ({@linkcode recordRun} takes only that).
 */
function kindOf(workload: Workload): Kind<Workload, unknown> {
  const kind = KINDS[workload.kind] as unknown as Kind<Workload, unknown> | undefined;
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
export { type HookTimeouts, hookTimeouts, withinTime } from "./timeouts.ts";
export * from "./server.ts";
export * from "./timeouts.ts";
