/**
 * The Markdown exporter: one section per workload and variant with runtimes
 * side by side (best first), the headline figure's median, 95% CI and
 * relative speed, latency percentiles when the kind has them, warnings inline
 * next to the numbers, and an environment summary. Renders GitHub-flavoured
 * Markdown tables, for pull requests, issues and READMEs.
 *
 * @module
 */

import { partialNotice } from "./partial.ts";
import type { BenchResult } from "../schema/mod.ts";
import { buildView, type SectionView } from "./_view.ts";
import { type CellSyntax, renderCell, type ViewTable } from "./_view_table.ts";
import { overviewBlocks, overviewOf } from "./_overview.ts";

function escape(text: string): string {
  return text.replace(/\\/g, "\\\\").replace(/\|/g, "\\|").replace(/\r?\n/g, " ");
}

const MARKDOWN: CellSyntax = {
  text: escape,
  status: (status) => `**${status}**`,
  figure: (cell) => escape(cell.text),
  notes: (cell) =>
    escape([cell.reason, ...cell.warnings.map((w) => `⚠ ${w.code}: ${w.message}`)].filter(Boolean).join("; ")),
};

function table(t: ViewTable): string {
  const line = (cells: readonly string[]) => `| ${cells.join(" | ")} |`;
  return [
    line(t.columns.map((c) => escape(c.header))),
    `|${t.columns.map((c) => (c.numeric ? " ---: " : " --- ")).join("|")}|`,
    ...t.rows.map((row) => line(row.map((c) => renderCell(c, MARKDOWN)))),
  ].join("\n");
}

function section(view: SectionView): string {
  const tables = [view.results, view.latency, view.endpoints, view.resources].filter((t) => t !== null).map(table);
  return [
    `## ${view.title}`,
    view.settings,
    ...tables,
    ...(view.notes.length > 0 ? [view.notes.map((note) => `- ${note}`).join("\n")] : []),
  ].join("\n\n");
}

/**
 * Renders a result as Markdown.
 *
 * @param result A finished result.
 * @returns One Markdown section per workload and variant, then the environment.
 *
 * @example Render a stored result
 * ```ts
 * import { assert } from "@std/assert";
 * import { formatMarkdown, readResultFile } from "@rtbench/rtbench/runners";
 *
 * const md = formatMarkdown(await readResultFile("fixtures/results/base.json"));
 * assert(md.includes("| deno"));
 * ```
 */
export function formatMarkdown(result: BenchResult): string {
  const view = buildView(result);
  const parts = [
    "# rtbench results",
    `${result.startedAt.slice(0, 16).replace("T", " ")} UTC · ${view.machine} · rtbench ${result.suite.version}` +
    (result.finishedAt === null ? " · **unfinished**" : ""),
    ...(view.hosts ? [view.hosts] : []),
  ];
  const partial = partialNotice(result);
  if (partial) parts.push(`> **${escape(partial)}**`);
  if (view.warnings.length > 0) {
    parts.push(view.warnings.map((w) => `> ⚠ **${w.code}**: ${w.message}`).join("\n>\n"));
  }
  if (view.sections.length === 0) parts.push("No records.");
  parts.push(...overviewBlocks(overviewOf(view), {
    heading: (text, level) => `${"#".repeat(level + 1)} ${text}`,
    table,
    list: (items) => items.map((item) => `- ${escape(item)}`).join("\n"),
  }));
  parts.push(...view.sections.map(section));
  parts.push(...view.matrices.flatMap((m) => [`## ${m.title}`, table(m.table)]));
  const environment = [...view.environment, ...view.runtimes].map(([k, v]) => [`**${k}**`, v]);
  parts.push(
    "## Environment",
    table({ columns: [{ header: "", numeric: false }, { header: "", numeric: false }], rows: environment }),
  );
  return parts.join("\n\n") + "\n";
}
