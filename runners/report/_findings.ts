// Key findings: one sentence per difference a reader can rely on. Within each
// workload × variant, the best runtime is set against every other ranked one
// on the ratio of their headline figures — paired by round where the two were
// measured in the same rounds (Student's t on the per-round log-ratios), else
// Welch's t-test on the runs' logs — corrected with Holm's method for testing
// every pair of the report at once; only a significant difference becomes a
// finding, with both medians and the ratio's 95% interval, so a report never
// states noise as a result.

import { formatFigure } from "./format.ts";
import { holmAdjust, type RatioInterval } from "../stats/mod.ts";
import { boundMark, type RankedRecord, ratioRangeText, type RecordGroup, recordLabel } from "./_groups.ts";

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
  /** How many times better: the geometric mean of the per-round ratios where paired (≥ 1). */
  readonly ratio: number;
  /** The ratio's interval and test: better over worse (worse over better for a lower-is-better figure). */
  readonly interval: RatioInterval;
  /** The test's p-value corrected by Holm over every pair tested. */
  readonly pAdjusted: number;
  /** The finding in one sentence, with its numbers and interval. */
  readonly sentence: string;
}

/** `leaner` for CPU time per request, `faster` for rates and times, `better` for anything else (memory, counts). */
function betterWord(figure: string): string {
  if (/CpuUsPer/.test(figure)) return "leaner";
  return /(PerSecond|Ms|Us)$/.test(figure) ? "faster" : "better";
}

function sentence(
  group: RecordGroup,
  best: RankedRecord,
  other: RankedRecord,
  interval: RatioInterval,
  pAdjusted: number,
  tests: number,
): string {
  const { figure } = group;
  const holm = tests > 1 ? ` (Holm, ${tests} tests)` : "";
  const p = pAdjusted < 0.001 ? `p${holm} < 0.001` : `p${holm} = ${pAdjusted.toFixed(3)}`;
  const how = interval.method === "unpaired"
    ? `runs measured apart, ${best.headline.n} vs ${other.headline.n}`
    : `${interval.method === "duet" ? "in duet" : "paired"} over ${interval.n} rounds`;
  // A side whose load generator was at its limit makes the ratio a bound; at the fixed rate of CPU per request, not.
  const bound = /CpuUsPer/.test(figure) ? "" : boundMark(best.record, other.record);
  return `${group.workload} (${group.variant}): ${recordLabel(best.record)} is ${bound}${interval.ratio.toFixed(2)}× ${
    betterWord(figure)
  } than ${recordLabel(other.record)} on ${figure} (median ${formatFigure(figure, best.headline.median)} vs ${
    formatFigure(figure, other.headline.median)
  }; ${how}: 95% CI ${ratioRangeText(interval.ci95!)}×, ${p})`;
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
    return rest.flatMap((other) =>
      other.vsBest?.p !== null && other.vsBest?.p !== undefined ? [{ group, best, other, interval: other.vsBest }] : []
    );
  });
  const adjusted = holmAdjust(tested.map((t) => t.interval.p!));
  return tested.flatMap(({ group, best, other, interval }, i): Finding[] => {
    // Only where the best is better: a best median whose ratio says otherwise is no finding either way.
    if (adjusted[i] >= alpha || interval.ratio <= 1) return [];
    return [{
      workload: group.workload,
      variant: group.variant,
      figure: group.figure,
      better: recordLabel(best.record),
      worse: recordLabel(other.record),
      ratio: interval.ratio,
      interval,
      pAdjusted: adjusted[i],
      sentence: sentence(group, best, other, interval, adjusted[i], tested.length),
    }];
  });
}
