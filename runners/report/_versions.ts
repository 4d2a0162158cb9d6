// Version sweeps: where one result holds several versions of a runtime
// (`--runtime node@20,node@22,node@24`), each workload's headline figure
// across those versions, oldest first, with its 95% interval, and each step
// to the next version tested with compare's test (the steps of one sweep
// corrected together with Holm's method).

import semver from "semver";
import type { BenchRecord } from "../schema/mod.ts";
import { compareRecords, type FigureComparison, withHolm } from "./compare.ts";
import type { RankedRecord, RecordGroup } from "./_groups.ts";

/** One version of a runtime in a workload × variant. */
export interface VersionPoint {
  /** The exact version. */
  readonly version: string;
  /** Its ranked record. */
  readonly ranked: RankedRecord;
  /** Compared with the previous version (null for the oldest). */
  readonly step: FigureComparison | null;
}

/** One runtime measured at several versions in one workload × variant. */
export interface VersionSweep {
  /** The group. */
  readonly group: RecordGroup;
  /** Runtime name. */
  readonly runtime: string;
  /** Versions, oldest first. */
  readonly points: readonly VersionPoint[];
}

function byVersion(a: BenchRecord, b: BenchRecord): number {
  const [x, y] = [semver.coerce(a.runtime.version), semver.coerce(b.runtime.version)];
  return x && y ? semver.compare(x, y) : String(a.runtime.version).localeCompare(String(b.runtime.version));
}

/** The steps of one sweep are one family of tests: their verdicts are corrected together (Holm), as compare's are. */
function corrected(steps: readonly (FigureComparison | null)[]): (FigureComparison | null)[] {
  const tested = steps.flatMap((s) => s === null ? [] : [s]);
  const adjusted = withHolm(tested, 0.05);
  return steps.map((s) => s === null ? null : adjusted[tested.indexOf(s)]);
}

/**
 * Every runtime with at least two completed versions in a group, in the order
 * the runtimes first appear.
 *
 * @example One version of each runtime is no sweep
 * ```ts
 * import { versionSweeps } from "./_versions.ts";
 * import { groupRecords } from "./_groups.ts";
 * import { readResultFile } from "../schema/read.ts";
 * const [group] = groupRecords(await readResultFile("fixtures/results/base.json"));
 * console.log(versionSweeps(group).length); // 0
 * ```
 */
export function versionSweeps(group: RecordGroup): VersionSweep[] {
  const names = [...new Set(group.ranked.map((r) => r.record.runtime.name))];
  return names.flatMap((runtime) => {
    const ranked = group.ranked.filter((r) => r.record.runtime.name === runtime && r.record.runtime.version);
    const versions = new Set(ranked.map((r) => r.record.runtime.version));
    if (versions.size < 2) return [];
    const ordered = [...ranked].sort((a, b) => byVersion(a.record, b.record));
    const steps = ordered.map((r, i) =>
      i === 0 ? null : compareRecords(ordered[i - 1].record, r.record, runtime)[0] ?? null
    );
    const points = corrected(steps).map((step, i): VersionPoint => ({
      version: ordered[i].record.runtime.version!,
      ranked: ordered[i],
      step,
    }));
    return [{ group, runtime, points }];
  });
}
