/**
 * The `Exporter` contract: a printer that takes a finished
 * {@linkcode BenchResult} and returns text. Every output format rtbench
 * writes (terminal table, Markdown, CSV, JSON, HTML) is one.
 *
 * @module
 */

import type { BenchResult } from "../result.ts";

/** Output formats, as named on the command line (`--format`). */
export type ExportFormat = "table" | "md" | "csv" | "json" | "html";

/** Turns a result into one document; pure, never prints or writes. */
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
