/**
 * The CSV exporter (RFC 4180): long format, one row per record × figure, for
 * spreadsheets and data frames. Every run-level figure of `summary` gives a
 * row with its statistics and raw per-run samples; merged latency
 * percentiles give rows of their own; a record without figures (errored,
 * invalid, skipped) gives one row with its status and reason. The unit of
 * every row is in its `unit` column and in the figure's name.
 *
 * @module
 */

import type { BenchRecord, BenchResult } from "../schema/mod.ts";
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

/**
 * The unit of a figure, from the suffix of its name: `1/s`, `ns`, `us`, `ms`, `s`,
 * `bytes`, `B/s`, `%` or `count`.
 *
 * @example
 * ```ts
 * import { figureUnit } from "./csv.ts";
 * console.log(figureUnit("requestsPerSecond"), figureUnit("latencyUs.p99")); // "1/s" "us"
 * ```
 */
export function figureUnit(figure: string): string {
  const name = figure.split(".")[0];
  if (name === "bytesPerSecond") return "B/s";
  if (name.endsWith("PerSecond")) return "1/s";
  if (name.endsWith("Ns")) return "ns";
  // CPU time per request or message is microseconds too (`serverCpuUsPerRequest`).
  if (/Us(Per[A-Z]\w*)?$/.test(name)) return "us";
  if (name.endsWith("Ms")) return "ms";
  if (name.endsWith("Sec")) return "s";
  if (name.endsWith("Bytes")) return "bytes";
  if (name.endsWith("Percent")) return "%";
  return "count";
}

/**
 * Whether a larger value of a figure is better: rates and verified responses
 * are (`true`); times, latencies, memory and failures are not (`false`);
 * figures that rank nothing — the harness's own cost, the window's length,
 * counts of work given — have no direction (`null`).
 *
 * @example
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { higherIsBetter } from "./csv.ts";
 *
 * assertEquals(["requestsPerSecond", "latencyUs.p99", "clientCpuPercent"].map(higherIsBetter), [true, false, null]);
 * ```
 */
export function higherIsBetter(figure: string): boolean | null {
  const name = figure.split(".")[0];
  // The load generator, the sampler and the harness are rtbench's side, and the window's length is a setting.
  if (/^(client|sampler|harness|sent|scheduled)/.test(name) || /^(durationMs|windowMs)$/.test(name)) return null;
  if (/PerSecond|PerCore$/.test(name) || /^valid/.test(name)) return true;
  if (/errors|timeouts|failed|mismatches|non2xx|late|missed|outlier/i.test(name)) return false;
  // Times, latency, memory, and the margin of error of a micro-benchmark's estimate.
  if (/^latency/.test(name) || /(Ns|Us|Ms|Sec|Bytes|RmePercent)$/.test(name)) return false;
  return null;
}

function field(value: string | number | boolean | null | undefined): string {
  if (value === null || value === undefined) return "";
  const text = String(value);
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
    const samples = r.runs.map((run) => run.figures[figure]).filter((v) => typeof v === "number").join(" ");
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
          .join(" "),
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
