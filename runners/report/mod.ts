/**
 * Exporters: every way rtbench turns a finished {@linkcode BenchResult} into
 * a document, behind the one {@linkcode Exporter} interface — terminal table,
 * Markdown, CSV, JSON and a self-contained HTML page with SVG charts.
 *
 * @example Render a stored result as Markdown
 * ```ts ignore
 * import { exportResult, parseResult } from "@rtbench/rtbench";
 * const result = parseResult(await Deno.readTextFile("results/run.json"));
 * console.log(exportResult(result, "md"));
 * ```
 *
 * @module
 */

import type { BenchResult } from "../schema/mod.ts";
import { UsageError } from "../platform/mod.ts";
import { formatTable } from "./table.ts";
import { formatCsv } from "./csv.ts";
import { formatHtml } from "./html.ts";
import { formatJson } from "./json.ts";
import { formatMarkdown } from "./markdown.ts";
import type { Exporter, ExportFormat } from "./types.ts";

export type { Exporter, ExportFormat } from "./types.ts";
export { CSV_COLUMNS, formatCsv } from "./csv.ts";
export { FIGURE_DIRECTIONS, type FigureDirection, figureUnit, formatNumber, higherIsBetter } from "../stats/mod.ts";
export { EXTRA_COLORS, formatHtml, RUNTIME_COLORS } from "./html.ts";
export { formatJson } from "./json.ts";
export { formatMarkdown } from "./markdown.ts";

/**
 * The built-in exporters, by `--format` name.
 *
 * @example File name and media type of a report
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { EXPORTERS } from "@rtbench/rtbench/runners";
 *
 * assertEquals(`report.${EXPORTERS.md.extension}`, "report.md");
 * ```
 */
export const EXPORTERS: Readonly<Record<ExportFormat, Exporter>> = {
  table: {
    format: "table",
    extension: "txt",
    mediaType: "text/plain",
    description: "aligned tables for a terminal (the default)",
    render: formatTable,
  },
  md: {
    format: "md",
    extension: "md",
    mediaType: "text/markdown",
    description: "Markdown tables per workload, for pull requests and READMEs",
    render: formatMarkdown,
  },
  csv: {
    format: "csv",
    extension: "csv",
    mediaType: "text/csv",
    description: "one row per record × figure (long format), for spreadsheets",
    render: formatCsv,
  },
  json: {
    format: "json",
    extension: "json",
    mediaType: "application/json",
    description: "the result document itself (bench_result.schema.json)",
    render: formatJson,
  },
  html: {
    format: "html",
    extension: "html",
    mediaType: "text/html",
    description: "one self-contained page with SVG charts",
    render: formatHtml,
  },
};

/**
 * Every `--format` name, in help order.
 *
 * @example The `--format` names
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { EXPORT_FORMATS } from "@rtbench/rtbench/runners";
 *
 * assertEquals(EXPORT_FORMATS, ["table", "md", "csv", "json", "html"]);
 * ```
 */
export const EXPORT_FORMATS: readonly ExportFormat[] = Object.keys(EXPORTERS) as ExportFormat[];

/**
 * Checks a `--format` value; throws {@linkcode UsageError} naming the flag
 * and the allowed formats. `markdown` is accepted for `md`.
 *
 * @param value A `--format` value.
 * @param allowed The formats accepted here.
 * @returns The format's canonical name.
 *
 * @example Markdown by either name
 * ```ts
 * import { parseFormat } from "./mod.ts";
 * console.log(parseFormat("markdown")); // "md"
 * ```
 */
export function parseFormat(value: string, allowed: readonly ExportFormat[] = EXPORT_FORMATS): ExportFormat {
  const name = value === "markdown" ? "md" : value;
  if (!(allowed as readonly string[]).includes(name)) {
    throw new UsageError(`--format: unknown format "${value}" (allowed: ${allowed.join(", ")})`);
  }
  return name as ExportFormat;
}

/**
 * Renders `result` in `format` with the built-in exporter.
 *
 * @param result A finished result.
 * @param format The format to render.
 * @returns The document as text.
 *
 * @example Write an HTML report
 * ```ts
 * import { assert } from "@std/assert";
 * import { exportResult, readResultFile } from "@rtbench/rtbench/runners";
 *
 * const html = exportResult(await readResultFile("fixtures/results/base.json"), "html");
 * assert(html.startsWith("<!doctype html>") && html.includes("<svg"));
 * ```
 */
export function exportResult(result: BenchResult, format: ExportFormat): string {
  const exporter = EXPORTERS[format];
  if (!exporter) throw new RangeError(`Unknown export format "${format}"`);
  return exporter.render(result);
}
export * from "./compare.ts";
export * from "./fair_share.ts";
export * from "./format.ts";
export * from "./history.ts";
export * from "./noise_floor.ts";
export * from "./partial.ts";
export * from "./progress.ts";
export * from "./table.ts";
export * from "./trend.ts";
export * from "./trend_html.ts";
