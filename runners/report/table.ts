/**
 * The terminal table exporter: per workload and variant, runtimes side by
 * side, fastest first, with relative speed, confidence interval, latency
 * percentiles and warnings next to the numbers. It renders the view model
 * the Markdown and HTML exporters render, as aligned text.
 *
 * @module
 */

import { partialNotice } from "./partial.ts";
import { alignTable } from "./format.ts";
import type { BenchResult } from "../schema/mod.ts";
import { buildView, type SectionView } from "./_view.ts";
import { type CellSyntax, renderCell, type ViewTable } from "./_view_table.ts";
import { overviewBlocks, overviewOf } from "./_overview.ts";
import { machineIdentityText, variablesText } from "./_environment.ts";

/** Longest reason shown in a row; the rest of an error is in the result file. */
const REASON_CHARS = 160;

const TEXT: CellSyntax = {
  text: (text) => text,
  status: (status) => status.toUpperCase(),
  figure: (cell) => cell.text,
  // Codes only, to keep rows short: the messages follow the tables.
  notes: (cell) =>
    [cell.reason.slice(0, REASON_CHARS), ...cell.warnings.map((w) => `⚠ ${w.code}`)].filter(Boolean).join(" "),
};

function aligned(table: ViewTable): string {
  const right = table.columns.flatMap((c, i) => c.numeric ? [i] : []);
  return alignTable(
    [table.columns.map((c) => c.header), ...table.rows.map((r) => r.map((c) => renderCell(c, TEXT)))],
    right,
  );
}

function section(view: SectionView): string {
  const tables = [view.results, view.latency, view.endpoints, view.resources].filter((t) => t !== null).map(aligned);
  const notes = [
    ...view.notes.map((note) => `  ${note}`),
    ...view.warnings.map(({ runtime, warning }) => `  ⚠ ${runtime}: ${warning.message}`),
  ];
  return `${view.title} · ${view.settings}\n${tables.join("\n\n")}` + (notes.length > 0 ? `\n${notes.join("\n")}` : "");
}

/**
 * Renders a finished result as terminal tables: the overview and key
 * findings, one section per workload and variant, then suite-wide warnings.
 *
 * @param result A finished (or partial) result.
 * @returns The tables, one section per workload and variant.
 *
 * @example Render a stored result
 * ```ts
 * import { assert } from "@std/assert";
 * import { formatTable, readResultFile } from "@rtbench/rtbench/runners";
 *
 * const text = formatTable(await readResultFile("fixtures/results/base.json"));
 * assert(text.startsWith("At a glance") && text.includes("\nhttp-json (default) · "));
 * ```
 */
export function formatTable(result: BenchResult): string {
  const view = buildView(result);
  const env = result.environment;
  const footer = [
    `${view.machine} ${env.kernel} · harness deno ${env.harness.deno}`,
    ...(view.hosts ? [view.hosts] : []),
    ...[machineIdentityText(env), variablesText(env)].filter(Boolean),
    ...view.warnings.map((w) => `⚠ ${w.message}`),
  ];
  const matrices = view.matrices.map((m) => `${m.title}\n${aligned(m.table)}`);
  const overview = overviewBlocks(overviewOf(view), {
    heading: (text, level) => level === 1 ? `${text}\n${"═".repeat(text.length)}` : `${text}:`,
    table: aligned,
    list: (items) => items.map((item) => `• ${item}`).join("\n"),
  });
  const partial = partialNotice(result);
  return [...(partial ? [partial] : []), ...overview, ...view.sections.map(section), ...matrices, footer.join("\n")]
    .join("\n\n") + "\n";
}
