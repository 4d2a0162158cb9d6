/**
 * What a suite will measure: one planned group per workload × variant, each
 * with its effective settings and options, measured on every runtime.
 *
 * @module
 */

import type { RuntimeSpec } from "../../adapters/mod.ts";
import type { OptionValues, RunSettings, Workload } from "../../workloads/mod.ts";
import { estimateRecordSec } from "../kinds/mod.ts";
import { duetShareSec } from "./duet_variant.ts";
import { effectiveSettings, type Profile, resolveOptions } from "./settings.ts";

/** One workload × variant, as the suite will measure it on every runtime. */
export interface Planned {
  /** The workload. */
  readonly workload: Workload;
  /** The variant's name. */
  readonly variant: string;
  /** Effective settings: profile, then the workload's preferences, then explicit overrides. */
  readonly settings: RunSettings;
  /** The workload's option values. */
  readonly options: OptionValues;
  /**
   * Keep-alive off without `--cpu-rate`: the workload's default fixed rate was chosen for kept-alive connections, so
   * the variant chooses its own from its first round (`chosenCpuRate`) instead.
   */
  readonly cpuRateFromFirstRound?: true;
}

/**
 * The groups of a suite, in suite order: every variant of every workload
 * (only `variants` when given).
 *
 * @param workloads The workloads.
 * @param profile The profile defaults come from.
 * @param overrides Explicit settings.
 * @param options Workload option values by name, raw.
 * @param variants Variants to keep, by name; absent means all.
 * @returns One entry per workload × variant.
 *
 * @example
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { httpJson } from "../../workloads/http_json.ts";
 * import { planGroups } from "./plan.ts";
 *
 * const [group] = planGroups([httpJson], "quick", { runs: 3 }, {});
 * assertEquals([group.variant, group.settings.runs], ["default", 3]);
 * ```
 */
export function planGroups(
  workloads: readonly Workload[],
  profile: Profile,
  overrides: Partial<RunSettings>,
  options: Readonly<Record<string, unknown>>,
  variants?: readonly string[],
  wholeSuite = false,
): Planned[] {
  return workloads.flatMap((workload) => {
    const resolved = resolveOptions(workload, options);
    const settings = effectiveSettings(profile, workload, overrides);
    const chosen = settings.keepAlive === false && overrides.cpuRate === undefined && (settings.cpuRate ?? 0) > 0;
    return workload.variants.filter((v) =>
      variants ? variants.includes(v.name) : !v.optional && !(wholeSuite && v.inSuite === false)
    )
      .map((v) => ({
        workload,
        variant: v.name,
        settings,
        options: resolved,
        ...(chosen ? { cpuRateFromFirstRound: true as const } : {}),
      }));
  });
}

/** `<workload>/<variant>/<runtime requested>`, a record's id. */
export function recordId(planned: Planned, spec: RuntimeSpec): string {
  return `${planned.workload.name}/${planned.variant}/${spec.requested}`;
}

/**
 * Seconds one record of the group is expected to take, for progress displays: as its workload's kind estimates, and
 * with `duet` its share of the variant's duet rounds.
 */
export function estimateSec(
  planned: Planned,
  duet?: { readonly runtimes: number; readonly rounds?: number },
): number {
  const own = estimateRecordSec(planned.workload, planned.settings);
  if (!duet) return own;
  return own + duetShareSec(planned.workload.kind, planned.settings.cpuRate, duet.runtimes, duet.rounds);
}
