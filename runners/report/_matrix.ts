// Two tables for workloads that have a framework axis or several endpoints: the variant × runtime matrix (framework
// rows, runtime columns, so "Hono on Bun vs Hono on Node" reads along a row and "Express vs Hono on Node" down a
// column), and each section's figures per endpoint (endpoint rows, a rate and a p99 column per runtime).

import { formatFigure, formatUs } from "./format.ts";
import type { BenchResult } from "../schema/mod.ts";
import { groupRecords, type RecordGroup, recordLabel } from "./_groups.ts";
import type { ViewCell, ViewTable } from "./_view_table.ts";

/** One workload's variant × runtime matrix of headline medians. */
export interface MatrixView {
  /** `rest-api: requestsPerSecond (median), variant × runtime`. */
  readonly title: string;
  /** Variant rows, runtime columns; a record without a figure shows its status. */
  readonly table: ViewTable;
}

/**
 * The variant × runtime matrix of every workload measured in more than one variant.
 *
 * @example
 * ```ts
 * import { matrixViews } from "./_matrix.ts";
 * import { readResultFile } from "../schema/read.ts";
 * console.log(matrixViews(await readResultFile("fixtures/results/base.json")).length); // 0
 * ```
 */
export function matrixViews(result: BenchResult): MatrixView[] {
  const groups = groupRecords(result);
  const workloads = [...new Set(groups.map((g) => g.workload))];
  return workloads.flatMap((workload) => {
    const rows = groups.filter((g) => g.workload === workload);
    if (rows.length < 2) return [];
    const runtimes = [...new Set(rows.flatMap((g) => g.records.map((r) => r.runtime.name)))];
    const figure = rows[0].figure;
    return [{
      title: `${workload}: ${figure} (median), variant × runtime`,
      table: {
        columns: [{ header: "variant", numeric: false }, ...runtimes.map((header) => ({ header, numeric: true }))],
        rows: rows.map((g) => [g.variant, ...runtimes.map((runtime) => matrixCell(g, runtime))]),
      },
    }];
  });
}

function matrixCell(group: RecordGroup, runtime: string): ViewCell {
  const ranked = group.ranked.find((r) => r.record.runtime.name === runtime);
  if (ranked) {
    const figure = ranked.record.headline.figure;
    return {
      type: "figure",
      text: formatFigure(figure, ranked.headline.median),
      figure,
      value: ranked.headline.median,
    };
  }
  const other = group.others.find((r) => r.runtime.name === runtime);
  return other ? { type: "status", status: other.status } : "";
}

/**
 * A section's figures per endpoint: valid responses per second (median over runs) and p99 latency (merged
 * histograms), one pair of columns per ranked runtime; null when no record has endpoints.
 *
 * @example
 * ```ts
 * import { endpointTable } from "./_matrix.ts";
 * import { groupRecords } from "./_groups.ts";
 * import { readResultFile } from "../schema/read.ts";
 * const [group] = groupRecords(await readResultFile("fixtures/results/base.json"));
 * console.log(endpointTable(group)); // null
 * ```
 */
export function endpointTable(group: RecordGroup): ViewTable | null {
  const records = group.ranked.map((r) => r.record).filter((r) => r.endpoints);
  if (records.length === 0) return null;
  const names = [...new Set(records.flatMap((r) => Object.keys(r.endpoints!)))];
  return {
    columns: [
      { header: "endpoint", numeric: false },
      ...records.flatMap((r) => [
        { header: `${recordLabel(r)} req/s`, numeric: true },
        { header: "p99", numeric: true },
      ]),
    ],
    rows: names.map((name) => [
      name,
      ...records.flatMap((r): string[] => {
        const e = r.endpoints![name];
        if (!e) return ["", ""];
        return [
          formatFigure("requestsPerSecond", e.requestsPerSecond.median),
          e.latencyUs ? formatUs(e.latencyUs.p99) : "",
        ];
      }),
    ]),
  };
}
