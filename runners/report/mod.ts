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

export type { Exporter, ExportFormat } from "./types.ts";
export { CSV_COLUMNS, formatCsv } from "./csv.ts";
export { FIGURE_DIRECTIONS, type FigureDirection, figureUnit, formatNumber, higherIsBetter } from "../stats/mod.ts";
export { EXTRA_COLORS, formatHtml, RUNTIME_COLORS } from "./html.ts";
export { formatJson } from "./json.ts";
export { formatMarkdown } from "./markdown.ts";
export * from "./exporters.ts";
export * from "./compare.ts";
export * from "./fair_share.ts";
export * from "./format.ts";
export * from "./history.ts";
export * from "./noise_floor.ts";
export * from "./partial.ts";
export * from "./table.ts";
export * from "./trend.ts";
export * from "./trend_html.ts";
