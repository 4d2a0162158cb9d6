/**
 * The `Exporter` contract: a printer that takes a finished
 * {@linkcode BenchResult} and returns text. Every output format rtbench
 * writes (terminal table, Markdown, CSV, JSON, HTML) is one.
 *
 * @module
 */

import type { BenchResult } from "../schema/mod.ts";

/**
 * Output formats, as named on the command line (`--format`).
 *
 * @example Every format has an exporter
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { EXPORTERS, type ExportFormat } from "@rtbench/rtbench/runners";
 *
 * const format: ExportFormat = "csv";
 * assertEquals(EXPORTERS[format].mediaType, "text/csv");
 * ```
 */
export type ExportFormat = "table" | "md" | "csv" | "json" | "html";

/**
 * Turns a result into one document; pure, never prints or writes.
 *
 * @example An exporter of your own: one line per record
 * ```ts
 * import { assert } from "@std/assert";
 * import { type Exporter, parseResult } from "@rtbench/rtbench";
 *
 * const lines: Exporter = {
 *   format: "table",
 *   extension: "txt",
 *   mediaType: "text/plain",
 *   description: "one line per record",
 *   render: (result) => result.records.map((r) => `${r.id} ${r.status}`).join("\n"),
 * };
 * const result = parseResult(await Deno.readTextFile("fixtures/results/base.json"));
 * assert(lines.render(result).startsWith("http-json/default/deno completed"));
 * ```
 */
export interface Exporter {
  /** The `--format` name. */
  readonly format: ExportFormat;
  /** File extension of the document, without the dot. */
  readonly extension: string;
  /** MIME type of the document. */
  readonly mediaType: string;
  /** One line for `--help`. */
  readonly description: string;
  /** Renders the whole result. */
  render(result: BenchResult): string;
}
