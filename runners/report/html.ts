/**
 * The HTML exporter: one self-contained page (inline CSS and SVG, no script,
 * no network) with, per workload and variant, a bar chart of the headline
 * figure per runtime with 95% CI whiskers, latency percentile curves, the
 * server process tree's CPU % and RSS over time (when the record carries
 * resource samples), the results table with warnings, per-run figures, and
 * the environment and settings.
 *
 * @module
 */

import { partialNotice } from "./partial.ts";
import { formatNumber, higherIsBetter } from "../stats/mod.ts";
import { formatFigure, formatLatency, formatUs } from "./format.ts";
import type { BenchRecord, BenchResult, RunRecord, Warning } from "../schema/mod.ts";
import { ciText, directionText, type RecordGroup, recordLabel, relativeText, whyText } from "./_groups.ts";
import { buildView, type SectionView } from "./_view.ts";
import { type CellSyntax, renderCell, type ViewColumn, type ViewTable } from "./_view_table.ts";
import { serverResources } from "./_resources_table.ts";
import { barChart, escapeXml, lineChart, type LineSeries } from "./_svg.ts";
import { sweepChart, sweepSteps } from "./_sweep_chart.ts";
import { overviewHtml } from "./_overview_html.ts";

/** Colours of the built-in runtimes in every chart; others take from {@linkcode EXTRA_COLORS}. */
export const RUNTIME_COLORS: Readonly<Record<string, string>> = {
  deno: "#3b6fd8",
  node: "#2f9e44",
  bun: "#e8590c",
};

/** Colours for further runtimes (several versions of one runtime, native baselines), in order. */
export const EXTRA_COLORS: readonly string[] = ["#7048e8", "#c2255c", "#0c8599", "#5c940d", "#e67700", "#495057"];

function colorFor(keys: readonly string[], names: readonly string[]): Map<string, string> {
  const colors = new Map<string, string>();
  const used = new Set<string>();
  keys.forEach((key, i) => {
    const preferred = RUNTIME_COLORS[names[i]];
    if (preferred && !used.has(preferred)) {
      colors.set(key, preferred);
      used.add(preferred);
    }
  });
  let next = 0;
  for (const key of keys) {
    if (colors.has(key)) continue;
    const color = EXTRA_COLORS[next++ % EXTRA_COLORS.length];
    colors.set(key, color);
  }
  return colors;
}

const e = escapeXml;

function warningsHtml(warnings: readonly Warning[]): string {
  return warnings.map((w) => `<span class="warning" title="${e(w.message)}">⚠ ${e(w.code)}: ${e(w.message)}</span>`)
    .join(" ");
}

function column(header: string, numeric = false): ViewColumn {
  return { header, numeric };
}

/** Escapes a cell's text and keeps each number with its unit (`9.33&nbsp;ms`): a narrow cell breaks between figures. */
function figureText(text: string): string {
  return e(text).replace(/(\d) (?=(ns|µs|ms|s|B|KiB|MiB|GiB|B\/s|kB\/s|MB\/s|GB\/s|%)(?![\w/]))/g, "$1&nbsp;");
}

const HTML: CellSyntax = {
  text: figureText,
  status: (status) => `<strong class="status-${e(status)}">${e(status)}</strong>`,
  figure: (cell) =>
    `<span class="num" data-figure="${e(cell.figure)}" data-value="${formatNumber(cell.value)}">${
      figureText(cell.text)
    }</span>`,
  notes: (cell) => [e(cell.reason), warningsHtml(cell.warnings)].filter(Boolean).join(" "),
};

function htmlTable(table: ViewTable, className: string): string {
  // Numbers align right (the style sheet's default), text left.
  const open = table.columns.map((c) => c.numeric ? "" : ` class="text"`);
  const head = table.columns.some((c) => c.header)
    ? `<thead><tr>${table.columns.map((c, i) => `<th${open[i]}>${e(c.header)}</th>`).join("")}</tr></thead>`
    : "";
  const rows = table.rows.map((r) =>
    `<tr>${r.map((c, i) => `<td${open[i]}>${renderCell(c, HTML)}</td>`).join("")}</tr>`
  );
  return `<table class="${className}">${head}<tbody>${rows.join("")}</tbody></table>`;
}

// Latency percentiles on a "nines" axis, so the tail gets room: x = -log10(1 - p).
const NINES: readonly { key: "p50" | "p90" | "p97_5" | "p99" | "p99_9" | "max"; p: number; label: string }[] = [
  { key: "p50", p: 50, label: "50%" },
  { key: "p90", p: 90, label: "90%" },
  { key: "p97_5", p: 97.5, label: "97.5%" },
  { key: "p99", p: 99, label: "99%" },
  { key: "p99_9", p: 99.9, label: "99.9%" },
  { key: "max", p: 99.975, label: "max" },
];

function ninesX(p: number): number {
  return -Math.log10(1 - p / 100);
}

function latencyChart(group: RecordGroup, colors: Map<string, string>): string {
  const records = group.ranked.map((r) => r.record).filter((r) => r.latencyUs);
  if (records.length === 0) return `<p class="empty">no latency figures for this workload</p>`;
  const series: LineSeries[] = records.map((r) => ({
    key: r.runtime.requested,
    label: recordLabel(r),
    color: colors.get(r.runtime.requested)!,
    markers: true,
    points: NINES.map((n) => ({
      x: ninesX(n.p),
      y: r.latencyUs![n.key],
      tooltip: `${recordLabel(r)} ${n.label}: ${formatLatency(r, r.latencyUs![n.key])}`,
    })),
  }));
  const resolution = group.records.find((r) => r.loadGenerator)?.loadGenerator?.latencyResolution;
  return lineChart({
    className: "latency-chart",
    title: "Latency by percentile",
    subtitle: `merged over all runs${resolution === "ms" ? " · whole milliseconds" : ""} · log scale · ${
      directionText(higherIsBetter("latencyUs") === true)
    }`,
    xLabel: "percentile",
    series,
    formatX: (x) => x.toFixed(1),
    formatY: (us) => formatUs(us).replace(/\.0+ /, " "),
    xTicks: NINES.map((n) => ({ value: ninesX(n.p), label: n.label })),
    logY: true,
  });
}

function resourceCharts(group: RecordGroup, colors: Map<string, string>, summarized: boolean): string {
  const measured = group.records.filter((r) => r.status === "completed" || r.runs.length > 0);
  const per = measured.map((r) => ({ record: r, runs: serverResources(r) })).filter((x) => x.runs.length > 0);
  if (per.length === 0) return `<p class="empty">${summarized ? "no resource time series" : "no resource samples"}</p>`;
  const series = (pick: (p: { cpuPercent: number | null; rssBytes: number | null }) => number | null) =>
    per.flatMap(({ record, runs }) =>
      runs.map((run): LineSeries => ({
        key: record.runtime.requested,
        label: recordLabel(record),
        color: colors.get(record.runtime.requested)!,
        points: run.points.filter((p) => pick(p) !== null).map((p) => ({ x: p.tSec, y: pick(p)! })),
      })).filter((s) => s.points.length > 0)
    );
  const cpu = series((p) => p.cpuPercent);
  const rss = series((p) => p.rssBytes === null ? null : p.rssBytes / 1048576);
  const runsNote = `every run drawn · ${per.map((x) => `${recordLabel(x.record)}: ${x.runs.length} runs`).join(", ")}`;
  const charts: string[] = [];
  charts.push(
    cpu.length > 0
      ? lineChart({
        className: "cpu-chart",
        title: "Server CPU over time (process tree, % of one core)",
        subtitle: runsNote,
        xLabel: "seconds into the run",
        series: cpu,
        formatX: (x) => `${x} s`,
        formatY: (y) => `${y} %`,
      })
      : `<p class="empty">no CPU samples</p>`,
  );
  charts.push(
    rss.length > 0
      ? lineChart({
        className: "rss-chart",
        title: "Server memory over time (process tree RSS)",
        subtitle: runsNote,
        xLabel: "seconds into the run",
        series: rss,
        formatX: (x) => `${x} s`,
        formatY: (y) => `${y} MiB`,
      })
      : `<p class="empty">no RSS samples</p>`,
  );
  return charts.map((c) => `<figure>${c}</figure>`).join("");
}

function headlineChart(view: SectionView, colors: Map<string, string>): string {
  const { group } = view;
  if (group.ranked.length === 0) return `<p class="empty">no completed record to chart</p>`;
  const { figure } = group;
  return barChart({
    title: `${figure} by runtime`,
    subtitle: `bar: median of ${view.measured} · whisker: 95% CI of the mean · ${directionText(group.higherIsBetter)}`,
    formatTick: (v) => formatFigure(figure, v),
    bars: group.ranked.map((r) => ({
      key: r.record.runtime.requested,
      label: recordLabel(r.record),
      sublabel: relativeText(group, r) + (r.record.warnings.length > 0 ? " ⚠" : ""),
      value: r.headline.median,
      low: r.headline.ci95?.low ?? null,
      high: r.headline.ci95?.high ?? null,
      color: colors.get(r.record.runtime.requested)!,
      display: formatFigure(figure, r.headline.median),
      tooltip: `${recordLabel(r.record)}: median ${formatFigure(figure, r.headline.median)}, 95% CI ${
        ciText(figure, r.headline)
      }`,
    })),
  });
}

/**
 * A record's per-run figures, the longer side down the page so the table stays narrow: a row per run where there are
 * more runs than figures (startup: dozens of runs, four figures), else a row per figure and a column per run.
 */
function runsTable(r: BenchRecord): string {
  const figures = [...new Set(r.runs.flatMap((run) => Object.keys(run.figures)))];
  const failures = "errors / timeouts / non-2xx / mismatches";
  const cells = (run: RunRecord) => [
    ...figures.map((f) => run.figures[f] === undefined ? "" : formatFigure(f, run.figures[f])),
    `${run.counts.errors} / ${run.counts.timeouts} / ${run.counts.non2xx} / ${run.counts.mismatches}`,
  ];
  if (r.runs.length > figures.length) {
    return htmlTable({
      columns: [column("run"), ...figures.map((f) => column(f, true)), column(failures)],
      rows: r.runs.map((run) => [String(run.index + 1), ...cells(run)]),
    }, "runs");
  }
  const byRun = r.runs.map(cells);
  return htmlTable({
    columns: [column("figure"), ...r.runs.map((run) => column(`run ${run.index + 1}`, true))],
    rows: [...figures, failures].map((name, i) => [name, ...byRun.map((c) => c[i])]),
  }, "runs");
}

function runsDetails(group: RecordGroup): string {
  const parts: string[] = [];
  for (const r of group.records) {
    const checks = r.verification.checks.map((c) => `${c.passed ? "✓" : "✗"} ${e(c.name)}`).join(" · ");
    parts.push(
      `<h4>${e(recordLabel(r))} · ${e(r.status)}</h4>` +
        (r.command ? `<p class="command"><code>${e(r.command.join(" "))}</code></p>` : "") +
        (checks ? `<p class="checks">verified: ${checks}</p>` : "") +
        (r.runs.length > 0
          ? runsTable(r)
          : `<p class="empty">no measured runs${r.status === "completed" ? "" : `: ${e(whyText(r))}`}</p>`),
    );
  }
  return `<details><summary>Per-run figures, commands and verification</summary>${parts.join("")}</details>`;
}

function sweepHtml(group: RecordGroup, colors: Map<string, string>): string {
  const chart = sweepChart(group, colors);
  const steps = sweepSteps(group);
  if (chart === null || steps === null) return "";
  return `<h3>Latency–throughput</h3><figure>${chart}</figure>${htmlTable(steps, "sweep-steps")}`;
}

function section(view: SectionView, index: number): string {
  const { group } = view;
  const keys = group.records.map((r) => r.runtime.requested);
  const colors = colorFor(keys, group.records.map((r) => r.runtime.name));
  return `<section class="workload" id="workload-${index + 1}" data-workload="${e(group.workload)}" data-variant="${
    e(group.variant)
  }">` +
    `<h2>${e(group.workload)} <span class="variant">(${e(group.variant)})</span></h2>` +
    `<p class="settings">${e(view.settings)}</p>` +
    `<figure class="headline">${headlineChart(view, colors)}</figure>` +
    htmlTable(view.results, "results") +
    view.notes.map((note) => `<p class="note">${e(note)}</p>`).join("") +
    sweepHtml(group, colors) +
    `<h3>Latency</h3><figure>${latencyChart(group, colors)}</figure>` +
    (view.latency ? htmlTable(view.latency, "latency") : "") +
    (view.endpoints ? `<h3>Per endpoint</h3>${htmlTable(view.endpoints, "endpoints")}` : "") +
    `<h3>Server resources</h3>` + (view.resources ? htmlTable(view.resources, "resources") : "") +
    resourceCharts(group, colors, view.resources !== null) +
    runsDetails(group) +
    `</section>`;
}

const STYLE = `
:root { color-scheme: light; }
body { font: 15px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: #1f2328; margin: 0; background: #fff; }
main { width: fit-content; min-width: min(980px, 100%); max-width: 100%; box-sizing: border-box; margin: 0 auto;
  padding: 24px; }
main p, main ul, .warnings { max-width: 980px; }
h1 { margin: 0 0 4px; font-size: 26px; }
h2 { margin: 40px 0 4px; font-size: 21px; border-bottom: 1px solid #d0d7de; padding-bottom: 4px; }
h2 .variant { color: #59636e; font-weight: normal; }
h3 { margin: 24px 0 6px; font-size: 16px; }
h4 { margin: 16px 0 4px; font-size: 14px; }
.meta, .settings, .note, .command, .checks { color: #59636e; font-size: 13px; margin: 4px 0; }
.command code { word-break: break-all; }
figure { margin: 8px 0; }
svg.chart { max-width: 100%; height: auto; display: block; }
svg text { font: 12px system-ui, sans-serif; fill: #1f2328; }
svg .chart-title { font-size: 14px; font-weight: 600; }
svg .chart-subtitle, svg .tick, svg .sublabel, svg .axis-label { fill: #59636e; font-size: 11px; }
svg .value { font-weight: 600; }
svg .grid { stroke: #eaeef2; }
svg .axis { stroke: #8c959f; }
svg .whisker { stroke: #1f2328; stroke-width: 1.5; fill: none; }
svg .guide line { stroke: #cf222e; stroke-width: 2; stroke-dasharray: 6 4; }
table { border-collapse: collapse; margin: 8px 0; font-size: 13px; }
th, td { border: 1px solid #d0d7de; padding: 4px 8px; text-align: right; vertical-align: top; white-space: nowrap; }
th { white-space: normal; }
table.results td { white-space: normal; }
th.text, td.text { text-align: left; }
td.text:last-child { white-space: normal; }
.warning { color: #9a6700; }
.warnings { background: #fff8c5; border: 1px solid #d4a72c; padding: 8px 12px; border-radius: 6px; }
.empty { color: #59636e; font-style: italic; }
.status-errored, .status-invalid { color: #cf222e; }
.status-skipped { color: #59636e; }
details { margin: 12px 0; }
footer { margin-top: 40px; color: #59636e; font-size: 12px; }
`;

/**
 * Renders a result as one self-contained HTML page with SVG charts.
 *
 * @param result A finished result.
 * @returns One self-contained HTML page.
 *
 * @example Write a report next to a result
 * ```ts
 * import { assert } from "@std/assert";
 * import { formatHtml, readResultFile } from "@rtbench/rtbench/runners";
 *
 * const html = formatHtml(await readResultFile("fixtures/results/base.json"));
 * assert(!html.includes("<script"));
 * ```
 */
export function formatHtml(result: BenchResult): string {
  const view = buildView(result);
  const when = result.startedAt.slice(0, 16).replace("T", " ") + " UTC";
  const warnings = view.warnings.length > 0
    ? `<div class="warnings">${
      view.warnings.map((w) => `<p>⚠ <strong>${e(w.code)}</strong>: ${e(w.message)}</p>`)
        .join("")
    }</div>`
    : "";
  const records = result.records.length;
  const flagged = result.records.filter((r) => r.warnings.length > 0).length;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>rtbench report · ${e(when)}</title>
<style>${STYLE}</style>
</head>
<body>
<main>
<header>
<h1>rtbench report</h1>
<p class="meta">${e(when)} · ${e(view.machine)} · ${records} records${
    flagged > 0 ? ` · ${flagged} with warnings` : ""
  }${result.finishedAt === null ? " · <strong>unfinished</strong>" : ""}</p>${
    view.hosts ? `\n<p class="meta">${e(view.hosts)}</p>` : ""
  }${partialNotice(result) ? `\n<p class="partial"><strong>${e(partialNotice(result)!)}</strong></p>` : ""}
</header>
${warnings}
${overviewHtml(view, RUNTIME_COLORS)}
${view.sections.length === 0 ? `<p class="empty">No records.</p>` : view.sections.map(section).join("\n")}
${
    view.matrices.map((m) => `<section class="matrix"><h2>${e(m.title)}</h2>${htmlTable(m.table, "matrix")}</section>`)
      .join("\n")
  }
<section id="environment">
<h2>Environment and settings</h2>
${
    htmlTable({
      columns: [column(""), column("")],
      rows: [...view.environment, ...view.runtimes.map(([k, v]) => [`runtime ${k}`, v])],
    }, "env")
  }
</section>
<footer>Made by rtbench ${e(result.suite.version)} from a result of schema version ${result.schemaVersion}.</footer>
</main>
</body>
</html>
`;
}
