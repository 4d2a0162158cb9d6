// A table of the view model, before any syntax: columns and cells. Every
// human-readable exporter renders these same tables; a cell that needs more
// than text (a status, a figure with its raw value, the notes of a record)
// says what it is, and each format decides how it looks.

import type { RecordStatus, Warning } from "../schema/mod.ts";

/** A column of a report's table: its header and whether it holds numbers (right-aligned). */
export interface ViewColumn {
  /** The header text. */
  readonly header: string;
  /** Whether the column holds numbers (right-aligned). */
  readonly numeric: boolean;
}

/**
 * A record's status in place of its figure (errored, invalid, skipped, or
 * completed without the headline figure).
 *
 * @example
 * ```ts
 * import type { StatusCell } from "./_view_table.ts";
 * const cell: StatusCell = { type: "status", status: "errored" };
 * console.log(cell.status); // "errored"
 * ```
 */
export interface StatusCell {
  /** Discriminant. */
  readonly type: "status";
  /** The record's status. */
  readonly status: RecordStatus;
}

/**
 * A figure as printed, with its name and raw value (HTML keeps the value in the DOM).
 *
 * @example
 * ```ts
 * import type { FigureCell } from "./_view_table.ts";
 * const cell: FigureCell = { type: "figure", text: "80,115/s", figure: "requestsPerSecond", value: 80115 };
 * console.log(cell.text); // "80,115/s"
 * ```
 */
export interface FigureCell {
  /** Discriminant. */
  readonly type: "figure";
  /** The figure as people read it. */
  readonly text: string;
  /** The figure's name, with its unit. */
  readonly figure: string;
  /** The raw value. */
  readonly value: number;
}

/**
 * What is said next to a record's numbers: why it has none, and its warnings.
 *
 * @example
 * ```ts
 * import type { NotesCell } from "./_view_table.ts";
 * const cell: NotesCell = { type: "notes", reason: "", warnings: [{ code: "client-bound", message: "..." }] };
 * console.log(cell.warnings.length); // 1
 * ```
 */
export interface NotesCell {
  /** Discriminant. */
  readonly type: "notes";
  /** Why the record has no figure (skip reason, phase and error), or "". */
  readonly reason: string;
  /** The record's warnings. */
  readonly warnings: readonly Warning[];
}

/** One cell: plain text, or a cell each format renders in its own way. */
export type ViewCell = string | StatusCell | FigureCell | NotesCell;

/**
 * A table: columns, and rows of one cell per column (the first is the row's label).
 *
 * @example A one-row table
 * ```ts
 * import type { ViewTable } from "./_view_table.ts";
 * const table: ViewTable = {
 *   columns: [{ header: "latency", numeric: false }, { header: "50%", numeric: true }],
 *   rows: [["deno 2.9.6", "1.14 ms"]],
 * };
 * console.log(table.rows.length); // 1
 * ```
 */
export interface ViewTable {
  /** The columns, in order. */
  readonly columns: readonly ViewColumn[];
  /** The rows, one cell per column. */
  readonly rows: readonly (readonly ViewCell[])[];
}

/**
 * What a format writes for each sort of cell: its syntax, and nothing about what the cells hold.
 *
 * @example Plain text
 * ```ts
 * import type { CellSyntax } from "./_view_table.ts";
 * const plain: CellSyntax = {
 *   text: (text) => text,
 *   status: (status) => status,
 *   figure: (cell) => cell.text,
 *   notes: (cell) => [cell.reason, ...cell.warnings.map((w) => w.code)].filter(Boolean).join(" "),
 * };
 * console.log(plain.status("skipped")); // "skipped"
 * ```
 */
export interface CellSyntax {
  /** Plain text. */
  text(text: string): string;
  /** A status in place of a figure. */
  status(status: RecordStatus): string;
  /** A printed figure. */
  figure(cell: FigureCell): string;
  /** The notes of a record. */
  notes(cell: NotesCell): string;
}

/**
 * Renders one cell with a format's syntax.
 *
 * @example
 * ```ts
 * import { renderCell } from "./_view_table.ts";
 * const upper = { text: (t: string) => t, status: (s: string) => s.toUpperCase(), figure: () => "", notes: () => "" };
 * console.log(renderCell({ type: "status", status: "errored" }, upper)); // "ERRORED"
 * ```
 */
export function renderCell(cell: ViewCell, syntax: CellSyntax): string {
  if (typeof cell === "string") return syntax.text(cell);
  if (cell.type === "status") return syntax.status(cell.status);
  if (cell.type === "figure") return syntax.figure(cell);
  return syntax.notes(cell);
}
