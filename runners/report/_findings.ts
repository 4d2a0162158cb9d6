// Key findings: one sentence per difference a reader can rely on. Within each
// workload × variant, the best runtime is set against every other ranked one
// with compare's test (Welch's t-test on the per-run values, corrected with
// Holm's method for testing every pair of the report at once); only a
// significant difference becomes a finding, with both medians, the change of
// the mean and its 95% interval, so a report never states noise as a result.

import { formatFigure } from "./format.ts";
import { compareRecords, type FigureComparison, withHolm } from "./compare.ts";
import { boundMark, type RankedRecord, type RecordGroup, recordLabel } from "./_groups.ts";

/** One significant difference within a workload × variant. */
export interface Finding {
  /** Workload name. */
  readonly workload: string;
  /** Variant name. */
  readonly variant: string;
  /** The headline figure compared. */
  readonly figure: string;
  /** The better record's label (`bun 1.4.5`). */
  readonly better: string;
  /** The worse record's label. */
  readonly worse: string;
  /** How many times better, from the medians (≥ 1). */
  readonly ratio: number;
  /** The comparison behind it: worse as base, better as head; `pAdjusted` corrected over every pair tested. */
  readonly comparison: FigureComparison;
  /** The finding in one sentence, with its numbers and interval. */
  readonly sentence: string;
}

function signed(n: number): string {
  return `${n > 0 ? "+" : n < 0 ? "−" : ""}${Math.abs(n).toFixed(1)}%`;
}

/** `faster` for rates and times, `better` for anything else (memory, counts). */
function betterWord(figure: string): string {
  return /(PerSecond|Ms|Us)$/.test(figure) ? "faster" : "better";
}

function sentence(
  group: RecordGroup,
  best: RankedRecord,
  other: RankedRecord,
  c: FigureComparison,
  tests: number,
): string {
  const { figure } = group;
  const holm = tests > 1 ? ` (Holm, ${tests} tests)` : "";
  const p = c.pAdjusted! < 0.001 ? `p${holm} < 0.001` : `p${holm} = ${c.pAdjusted!.toFixed(3)}`;
  const ratio = best.relative / other.relative;
  // A side whose load generator was at its limit makes the ratio a bound.
  return `${group.workload} (${group.variant}): ${recordLabel(best.record)} is ${boundMark(best.record, other.record)}${
    ratio.toFixed(2)
  }× ${betterWord(figure)} than ${recordLabel(other.record)} on ${figure} (median ${
    formatFigure(figure, best.headline.median)
  } vs ${formatFigure(figure, other.headline.median)}; difference of means ${signed(c.changePercent!)} of ${
    recordLabel(other.record)
  }'s, 95% CI ${signed(c.ci95Percent!.low)} to ${
    signed(c.ci95Percent!.high)
  }, ${p}, ${c.head.length} vs ${c.base.length} runs)`;
}

/**
 * The significant differences between each group's best record and the
 * others, best group first in report order.
 *
 * @example The stored head: bun beats node, its lead over deno is noise
 * ```ts
 * import { findingsOf } from "./_findings.ts";
 * import { groupRecords } from "./_groups.ts";
 * import { readResultFile } from "../schema/read.ts";
 * const findings = findingsOf(groupRecords(await readResultFile("fixtures/results/head.json")));
 * console.log(findings.map((f) => `${f.better} > ${f.worse}`)); // ["bun 1.4.5 > node 20.20.2"]
 * ```
 */
export function findingsOf(groups: readonly RecordGroup[], alpha = 0.05): Finding[] {
  // Every pair is tested first: the verdicts are corrected for testing them all at once (Holm), as compare's are.
  const tested = groups.flatMap((group) => {
    const [best, ...rest] = group.ranked;
    return rest.map((other) => ({
      group,
      best,
      other,
      c: compareRecords(other.record, best.record, other.record.runtime.requested, alpha)[0],
    })).filter(({ c }) => c.figure === group.figure && c.p !== null);
  });
  const adjusted = withHolm(tested.map(({ c }) => c), alpha);
  return tested.flatMap(({ group, best, other }, i): Finding[] => {
    // Only where the best is better: a best median whose mean is worse is no finding either way.
    const comparison = adjusted[i];
    if (comparison.verdict !== "faster") return [];
    return [{
      workload: group.workload,
      variant: group.variant,
      figure: group.figure,
      better: recordLabel(best.record),
      worse: recordLabel(other.record),
      ratio: best.relative / other.relative,
      comparison,
      sentence: sentence(group, best, other, comparison, tested.length),
    }];
  });
}
