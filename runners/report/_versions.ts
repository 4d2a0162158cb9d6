// Version sweeps: where one result holds several versions of a runtime
// (`--runtime node@20,node@22,node@24`), each workload's headline figure
// across those versions, oldest first, with its 95% interval, and each step
// to the next version tested with compare's test.

import semver from "semver";
import type { BenchRecord } from "../schema/result.ts";
import { compareRecords, type FigureComparison } from "./compare.ts";
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
    const points = ordered.map((r, i): VersionPoint => ({
      version: r.record.runtime.version!,
      ranked: r,
      step: i === 0 ? null : compareRecords(ordered[i - 1].record, r.record, runtime)[0] ?? null,
    }));
    return [{ group, runtime, points }];
  });
}
