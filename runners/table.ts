/**
 * The terminal table exporter: per workload and variant, runtimes side by
 * side, fastest first, with relative speed, confidence interval, latency
 * percentiles and warnings next to the numbers.
 *
 * @module
 */

import { runPlan } from "./adaptive.ts";
import { alignTable, formatFigure, formatUs } from "./format.ts";
import { resourcesTable } from "./resources_table.ts";
import type { BenchRecord, BenchResult } from "./result.ts";

function label(r: BenchRecord): string {
  return r.runtime.version ? `${r.runtime.name} ${r.runtime.version}` : r.runtime.requested;
}

function runsText(s: BenchRecord["settings"]): string {
  const plan = runPlan(s);
  return plan.adaptive
    ? `${plan.min}–${plan.max} runs (until the 95% CI is ±${plan.ciTargetPercent}%)`
    : `${s.runs} runs`;
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
  const s = first.settings;
  const gen = records.find((r) => r.loadGenerator)?.loadGenerator;
  const head = `${first.workload} (${first.variant})` +
    (gen ? ` · ${gen.name} ${gen.version}${gen.selectedBy?.startsWith("auto") ? " (auto)" : ""}` : "") +
    ` · ${s.connections} connections · ${s.durationSec} s × ` +
    runsText(s) +
    (first.cpus.server !== null
      ? ` · server cpu ${first.cpus.server}, client cpu ${first.cpus.client}`
      : " · not pinned");
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
    "p50",
    "p99",
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
      r.latencyUs ? formatUs(r.latencyUs.p50) : "",
      r.latencyUs ? formatUs(r.latencyUs.p99) : "",
      r.warnings.map((w) => `⚠ ${w.code}`).join(" "),
    ]);
  }
  for (const r of records.filter((r) => !done.includes(r))) {
    rows.push([label(r), r.status.toUpperCase(), "", "", "", "", why(r)]);
  }
  let text = `${head}\n${alignTable(rows, [1, 3, 4, 5])}`;
  const withLatency = done.filter((r) => r.latencyUs);
  if (withLatency.length > 0) {
    const lat: string[][] = [["latency", "2.5%", "50%", "97.5%", "99%", "avg", "stdev", "max"]];
    for (const r of withLatency) {
      const l = r.latencyUs!;
      lat.push([label(r), ...[l.p2_5, l.p50, l.p97_5, l.p99, l.mean, l.stdev, l.max].map(formatUs)]);
    }
    text += `\n\n${alignTable(lat, [1, 2, 3, 4, 5, 6, 7])}`;
  }
  const resources = resourcesTable(done, label);
  if (resources) text += `\n\n${resources}`;
  const notes = records.flatMap((r) => r.warnings.map((w) => `  ⚠ ${r.runtime.name}: ${w.message}`));
  if (notes.length > 0) text += `\n${notes.join("\n")}`;
  return text;
}

/**
 * Renders a finished result as terminal tables, one section per workload and
 * variant, then suite-wide warnings.
 *
 * @example Render a stored result
 * ```ts ignore
 * import { parseResult } from "./schema.ts";
 * import { formatTable } from "./table.ts";
 * console.log(formatTable(parseResult(await Deno.readTextFile("r.json"))));
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
