// The view model: what every human-readable exporter (terminal table,
// Markdown, HTML) shows, built once per result. Per workload × variant: the
// title, the settings line, the results table (ranked, with relative speed,
// CI, the kind's own columns and notes), the latency and resources tables,
// notes and warnings. The exporters only add their syntax (hyperfine's
// `src/export/markup.rs` model).

import { formatFigure, formatLatency, oneByCode } from "./format.ts";
import { type BenchRecord, type BenchResult, type CpuSets, RELEASE_WARNINGS, type Warning } from "../schema/mod.ts";
import { kindView } from "./_kind_views.ts";
import {
  ciText,
  directionText,
  duetText,
  groupRecords,
  pairingText,
  type RecordGroup,
  recordLabel,
  relativeText,
  whyText,
} from "./_groups.ts";
import { resourcesTable } from "./_resources_table.ts";
import { environmentRows, machineText, runtimeRows, topologyText } from "./_environment.ts";
import type { ViewCell, ViewColumn, ViewTable } from "./_view_table.ts";
import { endpointTable, type MatrixView, matrixViews } from "./_matrix.ts";

/** A warning of one record, with the runtime it belongs to. */
export interface RecordWarning {
  /** The record's runtime name. */
  readonly runtime: string;
  /** The warning. */
  readonly warning: Warning;
}

/** Everything reports show of one workload × variant. */
export interface SectionView {
  /** The records, grouped and ranked. */
  readonly group: RecordGroup;
  /** `http-json (default)`. */
  readonly title: string;
  /** How the records ran: {@linkcode settingsText}. */
  readonly settings: string;
  /** How many runs the ranked records measured: `5 runs`, or `3–8 runs` when they differ. */
  readonly measured: string;
  /** Runtimes best first, then the records without a figure; the notes cell last. */
  readonly results: ViewTable;
  /** Merged latency percentiles of the ranked records that have them, or null. */
  readonly latency: ViewTable | null;
  /** Sampled resources of the ranked records, or null when none was sampled. */
  readonly resources: ViewTable | null;
  /** Figures per endpoint of the ranked records, or null when their traffic labels no endpoint. */
  readonly endpoints: ViewTable | null;
  /** Lines the kind adds under the tables (the process timer's own cost). */
  readonly notes: readonly string[];
  /** Every record's warnings, in run order. */
  readonly warnings: readonly RecordWarning[];
}

/** Everything reports show of one result. */
export interface ResultView {
  /** The result itself. */
  readonly result: BenchResult;
  /** One section per workload × variant, in first-seen order. */
  readonly sections: readonly SectionView[];
  /** Per workload measured in several variants (frameworks): variant rows × runtime columns. */
  readonly matrices: readonly MatrixView[];
  /** CPU, logical CPUs and OS in one line. */
  readonly machine: string;
  /** The machines of a multi-host suite in one line; empty when all ran on one. */
  readonly hosts: string;
  /** Suite-wide warnings, but those about the runtimes' releases where the overview shows them. */
  readonly warnings: readonly Warning[];
  /** The machine and suite settings as label/value pairs. */
  readonly environment: readonly [string, string][];
  /** Each runtime requested, with what was measured. */
  readonly runtimes: readonly [string, string][];
}

function pinningText(cpus: CpuSets): string {
  if (cpus.server === null) return "not pinned";
  return cpus.client === null ? `pinned to cpu ${cpus.server}` : `server cpu ${cpus.server}, client cpu ${cpus.client}`;
}

/** The group's records, completed ones first: the first holds the settings the group ran with. */
function byRank(group: RecordGroup): BenchRecord[] {
  return [...group.ranked.map((r) => r.record), ...group.others];
}

/**
 * How a group ran, in one line: what its kind says (load generator,
 * connections and duration × runs, fixed or until the CI is narrow enough;
 * a process timer's runs and warm-ups; tinybench's time per run), the CPU
 * pinning, the workload's options, and the headline figure's direction.
 *
 * @example The stored results
 * ```ts
 * import { settingsText } from "./_view.ts";
 * import { groupRecords } from "./_groups.ts";
 * import { readResultFile } from "../schema/read.ts";
 * const [group] = groupRecords(await readResultFile("fixtures/results/base.json"));
 * console.log(settingsText(group));
 * // "autocannon 9.0.0 · 100 connections · pipelining 1 · 1 s × 5 runs · warm-up 0.5 s · server cpu 0, client cpu 1 · requestsPerSecond: higher is better"
 * ```
 */
export function settingsText(group: RecordGroup): string {
  const records = byRank(group);
  const kind = kindView(group.kind, group.records);
  const options = Object.entries(records[0].options).filter(([k, v]) => v !== null && !kind.described.includes(k));
  return [
    ...kind.settings(records),
    pinningText(records[0].cpus),
    ...(options.length > 0 ? [options.map(([k, v]) => `--${k} ${v}`).join(" ")] : []),
    `${group.figure}: ${directionText(group.higherIsBetter)}`,
  ].join(" · ");
}

function measuredText(group: RecordGroup): string {
  const counts = group.ranked.map((r) => r.headline.n);
  if (counts.length === 0) return "no runs";
  const [low, high] = [Math.min(...counts), Math.max(...counts)];
  return low === high ? `${low} run${low === 1 ? "" : "s"}` : `${low}–${high} runs`;
}

function perCoreText(figure: string, record: BenchRecord): string {
  const perCore = record.summary[`${figure}PerCore`];
  const workers = record.facts.serverWorkers;
  return perCore ? `${formatFigure(figure, perCore.median)} × ${workers}` : "";
}

/** A multi-core server's rate per core it actually used, and how many it used (`--server-cpus`). */
function perUsedCoreText(figure: string, record: BenchRecord): string {
  const perUsed = record.summary[`${figure}PerUsedCore`];
  const used = record.summary.serverCoresUsed;
  return perUsed && used ? `${formatFigure(figure, perUsed.median)} (${used.median.toFixed(2)} used)` : "";
}

function resultsTable(group: RecordGroup): ViewTable {
  const kind = kindView(group.kind, group.records);
  const cells = group.ranked.map((r) => kind.cells(r.record));
  // A column of the kind with nothing in it says nothing (no latency without a latency figure).
  const shown = kind.columns.map((_, i) => i).filter((i) => cells.some((row) => row[i] !== ""));
  // A server on several CPUs (--server-cpus) is also shown per core.
  const perCore = group.ranked.some((r) => r.record.summary[`${group.figure}PerCore`] !== undefined);
  const perUsed = group.ranked.some((r) => r.record.summary[`${group.figure}PerUsedCore`] !== undefined);
  const columns: ViewColumn[] = [
    { header: "runtime", numeric: false },
    { header: `${group.figure} (median)`, numeric: true },
    { header: "95% CI", numeric: true },
    { header: "relative", numeric: true },
    ...(perCore ? [{ header: "per server core", numeric: true }] : []),
    ...(perUsed ? [{ header: "per used core", numeric: true }] : []),
    ...shown.map((i) => kind.columns[i]),
    { header: "notes", numeric: false },
  ];
  const rows: ViewCell[][] = group.ranked.map((r, k) => [
    recordLabel(r.record),
    {
      type: "figure",
      text: formatFigure(group.figure, r.headline.median),
      figure: group.figure,
      value: r.headline.median,
    },
    ciText(group.figure, r.headline),
    relativeText(group, r),
    ...(perCore ? [perCoreText(group.figure, r.record)] : []),
    ...(perUsed ? [perUsedCoreText(group.figure, r.record)] : []),
    ...shown.map((i) => cells[k][i]),
    { type: "notes", reason: "", warnings: oneByCode(r.record.warnings) },
  ]);
  for (const r of group.others) {
    rows.push([
      recordLabel(r),
      { type: "status", status: r.status },
      "",
      "",
      ...(perCore ? [""] : []),
      ...(perUsed ? [""] : []),
      ...shown.map(() => ""),
      { type: "notes", reason: whyText(r), warnings: oneByCode(r.warnings) },
    ]);
  }
  return { columns, rows };
}

function latencyTable(group: RecordGroup): ViewTable | null {
  const { latency } = kindView(group.kind, group.records);
  const records = group.ranked.map((r) => r.record).filter((r) => r.latencyUs);
  if (records.length === 0 || latency.length === 0) return null;
  return {
    columns: [
      { header: "latency", numeric: false },
      ...latency.map(([, header]) => ({ header, numeric: true })),
    ],
    rows: records.map((r) => [recordLabel(r), ...latency.map(([key]) => formatLatency(r, r.latencyUs![key]))]),
  };
}

function pairingNotes(group: RecordGroup): string[] {
  return [pairingText(group), duetText(group)].filter((t) => t !== null);
}

/**
 * The view of one group of records.
 *
 * @example The heading of a section
 * ```ts
 * import { sectionView } from "./_view.ts";
 * import { groupRecords } from "./_groups.ts";
 * import { readResultFile } from "../schema/read.ts";
 * const [group] = groupRecords(await readResultFile("fixtures/results/head.json"));
 * console.log(sectionView(group).title); // "http-json (default)"
 * ```
 */
export function sectionView(group: RecordGroup): SectionView {
  return {
    group,
    title: `${group.workload} (${group.variant})`,
    settings: settingsText(group),
    measured: measuredText(group),
    results: resultsTable(group),
    latency: latencyTable(group),
    resources: resourcesTable(group.ranked.map((r) => r.record), recordLabel),
    endpoints: endpointTable(group),
    notes: [...pairingNotes(group), ...kindView(group.kind, group.records).notes(group.records)],
    warnings: group.records.flatMap((r) => r.warnings.map((warning) => ({ runtime: r.runtime.name, warning }))),
  };
}

/**
 * Builds the view of a result: what every human-readable exporter shows.
 *
 * @example One section per workload and variant
 * ```ts
 * import { buildView } from "./_view.ts";
 * import { readResultFile } from "../schema/read.ts";
 * const view = buildView(await readResultFile("fixtures/results/head.json"));
 * console.log(view.sections.map((s) => s.title)); // ["http-json (default)"]
 * ```
 */
export function buildView(result: BenchResult): ResultView {
  const sections = groupRecords(result).map(sectionView);
  return {
    result,
    sections,
    matrices: matrixViews(result),
    machine: machineText(result.environment),
    hosts: topologyText(result.topology),
    // The overview shows the releases' warnings under its table; a result without records has no overview.
    warnings: sections.length > 0 ? result.warnings.filter((w) => !RELEASE_WARNINGS.includes(w.code)) : result.warnings,
    environment: environmentRows(result),
    runtimes: runtimeRows(result),
  };
}
