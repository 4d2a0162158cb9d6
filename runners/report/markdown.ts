/**
 * The Markdown exporter: one section per workload and variant with runtimes
 * side by side (best first), the headline figure's median, 95% CI and
 * relative speed, latency percentiles when the kind has them, warnings inline
 * next to the numbers, and an environment summary. Renders GitHub-flavoured
 * Markdown tables, for pull requests, issues and READMEs.
 *
 * @module
 */

import { formatFigure, formatUs } from "./format.ts";
import type { BenchResult } from "../schema/result.ts";
import {
  ciText,
  directionText,
  groupRecords,
  type RecordGroup,
  recordLabel,
  relativeText,
  whyText,
} from "./_groups.ts";
import { environmentRows, runtimeRows } from "./_environment.ts";
import { settingsText } from "./_view.ts";

function cell(text: string): string {
  return text.replace(/\\/g, "\\\\").replace(/\|/g, "\\|").replace(/\r?\n/g, " ");
}

function table(header: readonly string[], align: readonly ("l" | "r")[], rows: readonly (readonly string[])[]): string {
  const line = (cells: readonly string[]) => `| ${cells.map(cell).join(" | ")} |`;
  return [
    line(header),
    `|${align.map((a) => (a === "r" ? " ---: " : " --- ")).join("|")}|`,
    ...rows.map(line),
  ].join("\n");
}

function section(group: RecordGroup): string {
  const { figure } = group;
  const withLatency = group.ranked.some((r) => r.record.latencyUs);
  const header = [
    "runtime",
    `${figure} (median)`,
    "95% CI",
    "relative",
    ...(withLatency ? ["p50", "p99"] : []),
    "notes",
  ];
  const align: ("l" | "r")[] = ["l", "r", "r", "r", ...(withLatency ? ["r", "r"] as const : []), "l"];
  const rows: string[][] = [];
  for (const r of group.ranked) {
    const l = r.record.latencyUs;
    rows.push([
      recordLabel(r.record),
      formatFigure(figure, r.headline.median),
      ciText(figure, r.headline),
      relativeText(group, r),
      ...(withLatency ? [l ? formatUs(l.p50) : "", l ? formatUs(l.p99) : ""] : []),
      r.record.warnings.map((w) => `⚠ ${w.code}: ${w.message}`).join("; "),
    ]);
  }
  for (const r of group.others) {
    rows.push([
      recordLabel(r),
      `**${r.status}**`,
      "",
      "",
      ...(withLatency ? ["", ""] : []),
      [whyText(r), ...r.warnings.map((w) => `⚠ ${w.code}: ${w.message}`)].filter(Boolean).join("; "),
    ]);
  }
  const parts = [
    `## ${group.workload} (${group.variant})`,
    `${settingsText(group)} · ${figure}: ${directionText(group.higherIsBetter)}`,
    table(header, align, rows),
  ];
  const latency = group.ranked.filter((r) => r.record.latencyUs);
  if (latency.length > 0) {
    parts.push(
      table(
        ["latency", "min", "2.5%", "50%", "90%", "97.5%", "99%", "99.9%", "max", "mean", "stdev"],
        ["l", "r", "r", "r", "r", "r", "r", "r", "r", "r", "r"],
        latency.map(({ record }) => {
          const l = record.latencyUs!;
          return [
            recordLabel(record),
            ...[l.min, l.p2_5, l.p50, l.p90, l.p97_5, l.p99, l.p99_9, l.max, l.mean, l.stdev].map(formatUs),
          ];
        }),
      ),
    );
  }
  return parts.join("\n\n");
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
  const parts = ["# rtbench results"];
  const env = result.environment;
  parts.push(
    `${result.startedAt.slice(0, 16).replace("T", " ")} UTC · ${
      env.cpuModel ?? env.arch
    } · ${env.logicalCores} logical CPUs` +
      ` · ${env.osName ?? env.os} · rtbench ${result.suite.version}` +
      (result.finishedAt === null ? " · **unfinished**" : ""),
  );
  if (result.warnings.length > 0) {
    parts.push(result.warnings.map((w) => `> ⚠ **${w.code}**: ${w.message}`).join("\n>\n"));
  }
  const groups = groupRecords(result);
  if (groups.length === 0) parts.push("No records.");
  parts.push(...groups.map(section));
  parts.push(
    "## Environment",
    table(["", ""], ["l", "l"], [...environmentRows(result), ...runtimeRows(result)].map(([k, v]) => [`**${k}**`, v])),
  );
  return parts.join("\n\n") + "\n";
}
