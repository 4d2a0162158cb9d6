// What every human-readable exporter shows of a group besides its rows: the
// settings that shaped it, as one line. Grouping, ranking and the texts of
// one record are in `_groups.ts`; the machine and runtimes in `_environment.ts`.

import type { RecordGroup } from "./_groups.ts";

/**
 * The settings that shaped a group, as one line: only what applies to its kind.
 *
 * @example
 * ```ts
 * import { settingsText } from "./_view.ts";
 * import { groupRecords } from "./_groups.ts";
 * import { readResultFile } from "../schema/read.ts";
 * const [group] = groupRecords(await readResultFile("fixtures/results/base.json"));
 * console.log(settingsText(group).startsWith("http workload")); // true
 * ```
 */
export function settingsText(group: RecordGroup): string {
  const first = group.records.find((r) => r.status === "completed") ?? group.records[0];
  const s = first.settings;
  const gen = group.records.find((r) => r.loadGenerator)?.loadGenerator;
  const parts = [`${group.kind} workload`];
  if (gen) {
    parts.push(`${gen.name} ${gen.version}`, `${s.connections} connections`, `pipelining ${s.pipelining}`);
  }
  parts.push(`${s.durationSec} s × ${s.runs} runs`, `warm-up ${s.warmupSec} s`);
  parts.push(
    first.cpus.server !== null ? `server cpu ${first.cpus.server}, client cpu ${first.cpus.client}` : "not pinned",
  );
  const options = Object.entries(first.options).filter(([, v]) => v !== null);
  if (options.length > 0) parts.push(options.map(([k, v]) => `--${k} ${v}`).join(" "));
  return parts.join(" · ");
}
