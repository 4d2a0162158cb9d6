/**
 * The CSV exporter (RFC 4180): long format, one row per record × figure, for
 * spreadsheets and data frames. Every run-level figure of `summary` gives a
 * row with its statistics and raw per-run samples; merged latency
 * percentiles give rows of their own; a record without figures (errored,
 * invalid, skipped) gives one row with its status and reason. The unit of
 * every row is in its `unit` column and in the figure's name; its direction,
 * `higher_is_better`, is the record's for its headline and, for every other
 * figure, the stats layer's one table of directions (`higherIsBetter`), which
 * the overview and `compare` read too: blank only for a figure that ranks no
 * runtime (a window's length, a count of work given). Numbers are written in
 * full but without binary float noise (`formatNumber`).
 *
 * @module
 */

import type { BenchRecord, BenchResult } from "../schema/mod.ts";
import { figureUnit, formatNumber, higherIsBetter } from "../stats/mod.ts";
import { whyText } from "./_groups.ts";

/** The CSV header, in column order. */
export const CSV_COLUMNS: readonly string[] = [
  "workload",
  "variant",
  "kind",
  "runtime",
  "runtime_version",
  "status",
  "figure",
  "unit",
  "higher_is_better",
  "headline",
  "statistic",
  "value",
  "n",
  "mean",
  "stdev",
  "min",
  "max",
  "ci95_low",
  "ci95_high",
  "samples",
  "warnings",
  "reason",
];

function field(value: string | number | boolean | null | undefined): string {
  if (value === null || value === undefined) return "";
  const text = typeof value === "number" ? formatNumber(value) : String(value);
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

function base(r: BenchRecord): (string | number | boolean | null)[] {
  return [r.workload, r.variant, r.kind, r.runtime.name, r.runtime.version, r.status];
}

function rowsOf(r: BenchRecord): (string | number | boolean | null)[][] {
  const warnings = r.warnings.map((w) => w.code).join(" ");
  const reason = r.status === "completed" ? null : whyText(r);
  const rows: (string | number | boolean | null)[][] = [];
  for (const [figure, s] of Object.entries(r.summary)) {
    const isHeadline = figure === r.headline.figure;
    const samples = r.runs.map((run) => run.figures[figure]).filter((v) => typeof v === "number")
      .map(formatNumber).join(" ");
    rows.push([
      ...base(r),
      figure,
      figureUnit(figure),
      isHeadline ? r.headline.higherIsBetter : higherIsBetter(figure),
      isHeadline,
      "median",
      s.median,
      s.n,
      s.mean,
      s.stdev,
      s.min,
      s.max,
      s.ci95?.low ?? null,
      s.ci95?.high ?? null,
      samples,
      warnings,
      reason,
    ]);
  }
  if (r.latencyUs) {
    for (const [key, value] of Object.entries(r.latencyUs)) {
      rows.push([
        ...base(r),
        `latencyUs.${key}`,
        "us",
        higherIsBetter(`latencyUs.${key}`),
        false,
        "merged histogram",
        value,
        r.runs.length,
        null,
        null,
        null,
        null,
        null,
        null,
        r.runs.map((run) => run.latencyUs?.[key as keyof typeof r.latencyUs]).filter((v) => v !== undefined)
          .map(formatNumber).join(" "),
        warnings,
        reason,
      ]);
    }
  }
  if (rows.length === 0) {
    rows.push([
      ...base(r),
      null,
      null,
      null,
      null,
      null,
      null,
      null,
      null,
      null,
      null,
      null,
      null,
      null,
      null,
      warnings,
      reason,
    ]);
  }
  return rows;
}

/**
 * Renders a result as CSV with a header row; lines end in CRLF as RFC 4180 asks.
 *
 * @param result A finished result.
 * @returns The CSV document, header first, CRLF line ends.
 *
 * @example Render a stored result
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { formatCsv, readResultFile } from "@rtbench/rtbench/runners";
 *
 * const csv = formatCsv(await readResultFile("fixtures/results/base.json"));
 * assertEquals(csv.split("\r\n")[0].split(",").slice(0, 4), ["workload", "variant", "kind", "runtime"]);
 * ```
 */
export function formatCsv(result: BenchResult): string {
  const lines = [CSV_COLUMNS.join(",")];
  for (const r of result.records) for (const row of rowsOf(r)) lines.push(row.map(field).join(","));
  return lines.join("\r\n") + "\r\n";
}
