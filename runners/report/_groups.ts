// Records grouped by workload × variant and ranked by their headline figure,
// with the words every format uses for one record: its label, its speed
// relative to the group's worst, its confidence interval, why it has no
// figure. Nothing here assumes a workload kind: figures come from
// `record.headline` and `summary`.

import { formatFigure } from "./format.ts";
import { SATURATION_WARNINGS } from "../stats/saturation.ts";
import type { BenchRecord, BenchResult, Summary } from "../schema/result.ts";

/** One completed record with its headline figure and relative speed. */
export interface RankedRecord {
  /** The record. */
  readonly record: BenchRecord;
  /** Its headline figure's summary. */
  readonly headline: Summary;
  /** How many times better than the group's worst completed record (1 for the worst). */
  readonly relative: number;
  /** Whether this is the group's worst runtime (native baselines aside), the one the others are compared with. */
  readonly isBaseline: boolean;
}

/** Records of one workload × variant. */
export interface RecordGroup {
  /** Workload name. */
  readonly workload: string;
  /** Variant name. */
  readonly variant: string;
  /** Workload kind. */
  readonly kind: string;
  /** The headline figure of the group (the first completed record's). */
  readonly figure: string;
  /** Whether a larger headline figure is better. */
  readonly higherIsBetter: boolean;
  /** Completed records with the headline figure, best first (ties keep run order). */
  readonly ranked: readonly RankedRecord[];
  /** Every other record (errored, invalid, skipped, or without the figure), in run order. */
  readonly others: readonly BenchRecord[];
  /** Every record of the group, in run order. */
  readonly records: readonly BenchRecord[];
}

/**
 * `deno 2.9.6`, or what was asked for when the runtime could not be had.
 *
 * @example
 * ```ts
 * import { recordLabel } from "./_groups.ts";
 * import { readResultFile } from "../schema/read.ts";
 * const [record] = (await readResultFile("fixtures/results/base.json")).records;
 * console.log(recordLabel(record)); // "deno 2.9.6"
 * ```
 */
export function recordLabel(r: BenchRecord): string {
  const label = r.runtime.version ? `${r.runtime.name} ${r.runtime.version}` : r.runtime.requested;
  return isNativeBaseline(r) ? `${label} (baseline)` : label;
}

/**
 * Whether a record measured a native baseline (Go, Rust): reports show those rows apart, after the runtimes.
 *
 * @example
 * ```ts
 * import { isNativeBaseline } from "./_groups.ts";
 * import { readResultFile } from "../schema/read.ts";
 * const [record] = (await readResultFile("fixtures/results/base.json")).records;
 * console.log(isNativeBaseline(record)); // false
 * ```
 */
export function isNativeBaseline(r: BenchRecord): boolean {
  return r.facts.baseline === true;
}

/**
 * Groups records by workload × variant (in first-seen order) and ranks each group.
 *
 * @example Best first
 * ```ts
 * import { groupRecords } from "./_groups.ts";
 * import { readResultFile } from "../schema/read.ts";
 * const [group] = groupRecords(await readResultFile("fixtures/results/head.json"));
 * console.log(group.ranked.map((r) => r.record.runtime.name)); // ["bun", "deno", "node"]
 * ```
 */
export function groupRecords(result: BenchResult): RecordGroup[] {
  const byKey = new Map<string, BenchRecord[]>();
  for (const r of result.records) {
    const key = `${r.workload}\u0000${r.variant}`;
    byKey.set(key, [...(byKey.get(key) ?? []), r]);
  }
  return [...byKey.values()].map((records) => {
    const measured = records.find((r) => r.status === "completed") ?? records[0];
    const { figure, higherIsBetter } = measured.headline;
    const done = records.filter((r) => r.status === "completed" && r.summary[figure] !== undefined);
    const sign = higherIsBetter ? -1 : 1;
    // The runtimes first, best first, then the native baselines; all relative to the slowest runtime.
    done.sort((a, b) =>
      Number(isNativeBaseline(a)) - Number(isNativeBaseline(b)) ||
      sign * (a.summary[figure].median - b.summary[figure].median)
    );
    const reference = done.findLast((r) => !isNativeBaseline(r)) ?? done.at(-1);
    const worst = reference?.summary[figure].median;
    const ranked = done.map((record): RankedRecord => {
      const median = record.summary[figure].median;
      const relative = worst === undefined || worst === 0 || median === 0
        ? 1
        : higherIsBetter
        ? median / worst
        : worst / median;
      return { record, headline: record.summary[figure], relative, isBaseline: record === reference };
    });
    return {
      workload: measured.workload,
      variant: measured.variant,
      kind: measured.kind,
      figure,
      higherIsBetter,
      ranked,
      others: records.filter((r) => !done.includes(r)),
      records,
    };
  });
}

/**
 * `1.18× deno` (better than the worst by), `1.0× (slowest)` for the worst
 * itself, or `1.0×` when the group has one ranked record.
 *
 * @example
 * ```ts
 * import { groupRecords, relativeText } from "./_groups.ts";
 * import { readResultFile } from "../schema/read.ts";
 * const [group] = groupRecords(await readResultFile("fixtures/results/head.json"));
 * console.log(relativeText(group, group.ranked.at(-1)!)); // "1.0× (slowest)"
 * ```
 */
export function relativeText(group: RecordGroup, r: RankedRecord): string {
  if (r.isBaseline) return group.ranked.length > 1 ? "1.0× (slowest)" : "1.0×";
  const reference = group.ranked.find((x) => x.isBaseline) ?? group.ranked.at(-1)!;
  return `${boundMark(r.record, reference.record)}${r.relative.toFixed(2)}× ${reference.record.runtime.name}`;
}

/**
 * `≥ ` when the record's own figure is a bound (its client was saturated: the server may do better, so it leads by
 * at least this), `≤ ` when the baseline's is, `≷ ` when both are (neither way is known), else nothing.
 */
export function boundMark(record: BenchRecord, baseline: BenchRecord): string {
  const bounded = (r: BenchRecord) => r.warnings.some((w) => SATURATION_WARNINGS.includes(w.code));
  const [self, base] = [bounded(record), bounded(baseline)];
  return self && base ? "≷ " : self ? "≥ " : base ? "≤ " : "";
}

/**
 * `44,505/s – 75,909/s`, or a note when there was one run.
 *
 * @example
 * ```ts
 * import { ciText } from "./_groups.ts";
 * const one = { n: 1, median: 5, mean: 5, stdev: 0, min: 5, max: 5, ci95: null };
 * console.log(ciText("wallMs", one)); // "n/a (1 run)"
 * ```
 */
export function ciText(figure: string, s: Summary): string {
  return s.ci95 ? `${formatFigure(figure, s.ci95.low)} – ${formatFigure(figure, s.ci95.high)}` : "n/a (1 run)";
}

/**
 * Why a record has no figure: the skip reason, the phase and error, or the missing figure.
 *
 * @example
 * ```ts
 * import { whyText } from "./_groups.ts";
 * import { readResultFile } from "../schema/read.ts";
 * const errored = (await readResultFile("fixtures/results/head.json")).records.find((r) => r.error)!;
 * console.log(whyText(errored).startsWith("provision: ")); // true
 * ```
 */
export function whyText(r: BenchRecord): string {
  if (r.status === "skipped") return r.skipReason ?? "";
  if (r.error) return `${r.error.phase}: ${r.error.message}`;
  if (r.status === "completed") return `no ${r.headline.figure} figure`;
  return "";
}

/**
 * Direction of a figure in words.
 *
 * @example
 * ```ts
 * import { directionText } from "./_groups.ts";
 * console.log(directionText(false)); // "lower is better"
 * ```
 */
export function directionText(higherIsBetter: boolean): string {
  return higherIsBetter ? "higher is better" : "lower is better";
}
