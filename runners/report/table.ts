/**
 * The terminal table exporter: per workload and variant, runtimes side by
 * side, fastest first, with relative speed, confidence interval, latency
 * percentiles and warnings next to the numbers.
 *
 * @module
 */

import { alignTable, formatFigure, formatUs } from "./format.ts";
import { resourcesTable } from "./resources_table.ts";
import type { BenchRecord, BenchResult } from "../schema/result.ts";
import { kindColumns, sectionHead, sectionNotes } from "./table_kinds.ts";

function label(r: BenchRecord): string {
  return r.runtime.version ? `${r.runtime.name} ${r.runtime.version}` : r.runtime.requested;
}

function headlineOf(r: BenchRecord): number | undefined {
  return r.summary[r.headline.figure]?.median;
}

function group(result: BenchResult): Map<string, BenchRecord[]> {
  const groups = new Map<string, BenchRecord[]>();
  for (const r of result.records) {
    const key = `${r.workload}/${r.variant}`;
    groups.set(key, [...(groups.get(key) ?? []), r]);
  }
  return groups;
}

function why(r: BenchRecord): string {
  if (r.status === "skipped") return r.skipReason ?? "";
  if (r.error) return `${r.error.phase}: ${r.error.message}`.slice(0, 160);
  return "";
}

function sectionFor(records: BenchRecord[]): string {
  const first = records[0];
  const head = sectionHead(records);
  const columns = kindColumns(first.kind);
  const figure = first.headline.figure;
  const done = records.filter((r) => r.status === "completed" && headlineOf(r) !== undefined);
  const better = first.headline.higherIsBetter ? -1 : 1;
  done.sort((a, b) => better * (headlineOf(a)! - headlineOf(b)!));
  const baseline = done.at(-1);
  const rows: string[][] = [[
    "runtime",
    `${figure} (median)`,
    "95% CI",
    "relative",
    ...columns.headers,
    "notes",
  ]];
  for (const r of done) {
    const s = r.summary[figure];
    const ratio = baseline && headlineOf(baseline)
      ? (first.headline.higherIsBetter
        ? headlineOf(r)! / headlineOf(baseline)!
        : headlineOf(baseline)! / headlineOf(r)!)
      : 1;
    rows.push([
      label(r),
      formatFigure(figure, s.median),
      s.ci95 ? `${formatFigure(figure, s.ci95.low)} – ${formatFigure(figure, s.ci95.high)}` : "n/a (1 run)",
      r === baseline ? "1.0× (slowest)" : `${ratio.toFixed(2)}× ${baseline!.runtime.name}`,
      ...columns.cells(r),
      r.warnings.map((w) => `⚠ ${w.code}`).join(" "),
    ]);
  }
  for (const r of records.filter((r) => !done.includes(r))) {
    rows.push([label(r), r.status.toUpperCase(), "", "", ...columns.headers.map(() => ""), why(r)]);
  }
  const right = [1, 3, ...columns.numeric.flatMap((numeric, i) => numeric ? [4 + i] : [])];
  let text = `${head}\n${alignTable(rows, right)}`;
  const withLatency = done.filter((r) => r.latencyUs);
  if (withLatency.length > 0) {
    // WebSocket latencies are per message, where the tail (p99.9) is what users feel.
    const ws = first.kind === "websocket";
    const lat: string[][] = [
      ws
        ? ["latency", "50%", "90%", "99%", "99.9%", "avg", "stdev", "max"]
        : ["latency", "2.5%", "50%", "97.5%", "99%", "avg", "stdev", "max"],
    ];
    for (const r of withLatency) {
      const l = r.latencyUs!;
      const cells = ws ? [l.p50, l.p90, l.p99, l.p99_9] : [l.p2_5, l.p50, l.p97_5, l.p99];
      lat.push([label(r), ...[...cells, l.mean, l.stdev, l.max].map(formatUs)]);
    }
    text += `\n\n${alignTable(lat, [1, 2, 3, 4, 5, 6, 7])}`;
  }
  const resources = resourcesTable(done, label);
  if (resources) text += `\n\n${resources}`;
  const notes = [
    ...sectionNotes(records),
    ...records.flatMap((r) => r.warnings.map((w) => `  ⚠ ${r.runtime.name}: ${w.message}`)),
  ];
  if (notes.length > 0) text += `\n${notes.join("\n")}`;
  return text;
}

/**
 * Renders a finished result as terminal tables, one section per workload and
 * variant, then suite-wide warnings.
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
 * assert(text.startsWith("http-json (default)"));
 * ```
 */
export function formatTable(result: BenchResult): string {
  const sections = [...group(result).values()].map(sectionFor);
  const env = result.environment;
  const footer = [
    `${env.cpuModel ?? env.arch} · ${env.logicalCores} logical CPUs · ${env.osName ?? env.os} ${env.kernel}` +
    ` · harness deno ${env.harness.deno}`,
    ...result.warnings.map((w) => `⚠ ${w.message}`),
  ];
  return [...sections, footer.join("\n")].join("\n\n") + "\n";
}
