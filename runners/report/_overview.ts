// The overview every human-readable report opens with: one row per workload ×
// variant, one column per runtime asked for, each cell the headline median
// and how many times the row's best is better — a tie where that ratio's 95%
// interval (paired by round where the runtimes were interleaved) includes 1,
// since the data cannot order them — with warnings as badges; then the key
// findings. Built once from the view model; each format renders the table and
// findings with its own syntax.

import { formatFigure, oneByCode } from "./format.ts";
import { type BenchRecord, RELEASE_WARNINGS, type Warning } from "../schema/mod.ts";
import { boundMark, efficiencyOf, type RankedRecord, type RecordGroup, recordLabel, releaseText } from "./_groups.ts";
import type { ResultView } from "./_view.ts";
import type { ViewCell, ViewTable } from "./_view_table.ts";
import { type Finding, findingsOf } from "./_findings.ts";
import { type FloorRow, floorRows } from "./noise_floor.ts";
import { ratioRangeText } from "./_groups.ts";
import {
  FAIR_SHARE_LEGEND,
  FAIR_SHARE_SHARED_NOTE,
  type FairShareTable,
  fairShareTable,
  fairShareTitle,
  resultFairShare,
} from "./fair_share.ts";

/** Where a record stands against its row's best. */
export type Standing = "best" | "tie" | "behind";

/** One runtime in one row of the overview. */
export interface OverviewCell {
  /** The record. */
  readonly record: BenchRecord;
  /** Its rank entry, or null when it has no headline figure (errored, invalid, skipped). */
  readonly ranked: RankedRecord | null;
  /** Best, tied with the best (the 95% interval of their ratio includes 1), or behind it. */
  readonly standing: Standing | null;
  /** How many times the best is better (1 for the best): the geometric mean of per-round ratios where paired. */
  readonly timesBehind: number | null;
  /** Warning badges. */
  readonly warnings: readonly Warning[];
}

/** One workload × variant. */
export interface OverviewRow {
  /** `http-json (default)`, or `http-json (default) at 20,000/s` for its CPU per request at the fixed rate. */
  readonly title: string;
  /** The group behind the row. */
  readonly group: RecordGroup;
  /** One cell per column; null where the runtime did not run this workload. */
  readonly cells: readonly (OverviewCell | null)[];
  /** For a row of CPU per request at the fixed rate: the figure of the load's own CPU per response, shown beside. */
  readonly client?: string;
}

/** The overview of a result. */
export interface Overview {
  /** The runtimes as asked for (`node@22`), one per column. */
  readonly keys: readonly string[];
  /** Column headers, each runtime with its release line and support (`node 26.10.0 (line 26, Active LTS)`). */
  readonly labels: readonly string[];
  /** The result's warnings about the runtimes' releases (end of life, lines years apart, chosen offline). */
  readonly releases: readonly Warning[];
  /** One row per workload × variant. */
  readonly rows: readonly OverviewRow[];
  /** Significant differences, one sentence each. */
  readonly findings: readonly Finding[];
  /** An A/A run's noise floor, per workload × variant × figure; empty for any other result. */
  readonly floor: readonly FloorRow[];
  /**
   * Multi-core records (`--server-cpus` above 1, or several core budgets) at equal CPU: per workload × variant a line
   * per core budget, each runtime's rate, the CPU its server used, per used core and CPU per request; empty otherwise.
   */
  readonly fairShare: readonly FairShareTable[];
}

/** What the cells say, under the overview in every format. */
export const OVERVIEW_LEGEND =
  "Each cell: the headline median; best = the row's best; N× behind = the best is N times better, from per-round " +
  "ratios where the runtimes were measured in the same rounds, and for CPU per request at a fixed rate from duets " +
  "(both servers measured in the same seconds) where they were; ≈ best = the 95% CI of that ratio includes 1 (a " +
  "tie); 1 run = measured once, no interval: a ratio to such a cell is one measurement, not a ranking (--runs 3 or " +
  "more gives one); ⚠ = a warning, explained in the workload's section.";

/** Whether the interval of the best's lead over `r` includes 1: the data cannot order them. */
function tied(r: RankedRecord): boolean {
  const ci = r.vsBest?.ci95;
  return ci !== null && ci !== undefined && ci.low <= 1 && ci.high >= 1;
}

function cellOf(group: RecordGroup, record: BenchRecord): OverviewCell {
  const ranked = group.ranked.find((r) => r.record === record) ?? null;
  const best = group.ranked[0];
  if (ranked === null) {
    return { record, ranked, standing: null, timesBehind: null, warnings: oneByCode(record.warnings) };
  }
  const standing: Standing = ranked === best ? "best" : tied(ranked) ? "tie" : "behind";
  const timesBehind = ranked === best ? 1 : ranked.vsBest?.ratio ?? best.relative / ranked.relative;
  return { record, ranked, standing, timesBehind, warnings: oneByCode(record.warnings) };
}

/**
 * The overview of a result's view.
 *
 * @example The stored head: bun best, deno tied with it, node behind
 * ```ts
 * import { overviewOf } from "./_overview.ts";
 * import { buildView } from "./_view.ts";
 * import { readResultFile } from "../schema/read.ts";
 * const overview = overviewOf(buildView(await readResultFile("fixtures/results/head.json")));
 * console.log(overview.rows[0].cells.map((c) => c?.standing ?? c?.record.status));
 * // ["tie", "behind", "best", "errored"]
 * ```
 */
export function overviewOf(view: ResultView): Overview {
  const keys: string[] = [];
  const labels: string[] = [];
  for (const r of view.result.records) {
    if (keys.includes(r.runtime.requested)) continue;
    keys.push(r.runtime.requested);
    const release = r.runtime.release ? ` (${releaseText(r.runtime.release)})` : "";
    labels.push(`${recordLabel(r)}${release}`);
  }
  const rowOf = (title: string, group: RecordGroup, client?: string, badges?: readonly string[]): OverviewRow => ({
    title,
    group,
    cells: keys.map((key) => {
      const record = group.records.find((r) => r.runtime.requested === key);
      if (!record) return null;
      const cell = cellOf(group, record);
      return badges ? { ...cell, warnings: cell.warnings.filter((w) => badges.includes(w.code)) } : cell;
    }),
    ...(client ? { client } : {}),
  });
  // Each workload's headline, then (with --cpu-rate) its server's CPU per request at the fixed rate.
  const rows = view.sections.flatMap((section): OverviewRow[] => {
    const efficiency = efficiencyOf(section.group);
    const main = rowOf(section.title, section.group);
    if (!efficiency) return [main];
    const title = `${section.title} at ${efficiency.rate.toLocaleString("en-US")}/s`;
    return [main, rowOf(title, efficiency.group, efficiency.client, ["cpu-rate-not-held"])];
  });
  return {
    keys,
    labels,
    releases: view.result.warnings.filter((w) => RELEASE_WARNINGS.includes(w.code)),
    rows,
    findings: findingsOf(rows.map((r) => r.group)),
    floor: floorRows(view.result),
    fairShare: resultFairShare(view.result),
  };
}

/** `83,557/s · 1.90× behind`, `≈ best`, or the status of a record without a figure. */
export function standingText(row: OverviewRow, cell: OverviewCell): string {
  if (cell.ranked === null) return cell.record.status;
  const figure = formatFigure(row.group.figure, cell.ranked.headline.median);
  // A side whose load generator was at its limit makes the ratio a bound (see boundMark); at a fixed rate it was not.
  const bound = row.client ? "" : boundMark(row.group.ranked[0].record, cell.record);
  const where = cell.standing === "best"
    ? "best"
    : cell.standing === "tie"
    ? "≈ best"
    : `${bound}${cell.timesBehind!.toFixed(2)}× behind`;
  const client = row.client ? cell.record.summary[row.client] : undefined;
  const beside = client ? ` (client ${formatFigure(row.client!, client.median)})` : "";
  // Without an interval nothing says whether the next run would order them the same way.
  return `${figure}${beside} · ${where}${cell.ranked.headline.n === 1 ? " · 1 run" : ""}`;
}

/**
 * The overview as a plain table (cells as text, warnings as `⚠ code`), for the
 * terminal and Markdown; null when the result has no records.
 */
export function overviewTable(overview: Overview): ViewTable | null {
  if (overview.rows.length === 0) return null;
  return {
    columns: [
      { header: "workload", numeric: false },
      { header: "headline", numeric: false },
      ...overview.labels.map((header) => ({ header, numeric: false })),
    ],
    rows: overview.rows.map((row): ViewCell[] => [
      row.title,
      `${row.group.figure} ${row.group.higherIsBetter ? "↑" : "↓"}`,
      ...row.cells.map((cell) =>
        cell === null ? "–" : [standingText(row, cell), ...cell.warnings.map((w) => `⚠ ${w.code}`)].join(" ")
      ),
    ]),
  };
}

/** What stands in for the findings when there are none: no difference (saying where a pair had no interval). */
export function noFindingText(overview: Overview): string {
  const rows = overview.rows.filter((row) => row.group.ranked.length > 1);
  if (rows.length === 0) return "Nothing to compare: no workload has two runtimes with a figure.";
  // Say how many workloads had a pair without the two rounds (or runs on each side) an interval needs.
  const short = rows.filter((row) => row.group.ranked.some((r) => r.vsBest !== null && !r.vsBest?.ci95)).length;
  return short === 0
    ? "No significant difference between runtimes in any workload."
    : `No significant difference between runtimes found; in ${short} of ${rows.length} workloads a pair had fewer ` +
      "than the 2 rounds (or 2 runs on each side) an interval needs.";
}

/** How a format writes the overview's parts. */
export interface OverviewSyntax {
  /** A heading of `level` 1 (the overview) or 2 (its findings). */
  heading(text: string, level: 1 | 2): string;
  /** A table. */
  table(table: ViewTable): string;
  /** A list of sentences. */
  list(items: readonly string[]): string;
}

/** What the findings rest on, said once under them. */
export const FINDINGS_METHOD =
  "Findings compare each workload's best runtime with every other on the ratio of their headline figures: " +
  "Student's t on the per-round log-ratios where the runtimes were measured in the same rounds (paired), else " +
  "Welch's t-test on the runs' logs; two-sided, corrected for testing every pair at once (Holm), α = 0.05; only " +
  "significant differences are listed.";

/** What the noise floor rests on, said once under it. */
export const FLOOR_METHOD =
  "A/A: one runtime measured as two arms, A and B, interleaved round by round exactly as two runtimes are. A/B is " +
  "the geometric mean of the per-round ratios with its 95% CI; spread = the standard deviation of the per-round " +
  "log-ratios; the smallest difference detected = (t(97.5%) + t(80%)) × spread / √rounds, the change a paired " +
  "comparison with as many rounds finds 80% of the time at α = 0.05. compare --noise-floor and bench " +
  "--noise-floor refuse to call a change smaller than it.";

/**
 * One sentence per figure of an A/A run: the arms' ratio, the spread of the rounds and the smallest difference
 * this run count detects on this machine.
 *
 * @example
 * ```ts
 * import { floorSentence } from "./_overview.ts";
 * const row = {
 *   workload: "http-json", variant: "default", figure: "requestsPerSecond", arms: [] as never, spreadPercent: 1.2,
 *   detectablePercent: 5.1,
 *   interval: { method: "paired", n: 3, ratio: 1.004, ci95: { low: 0.981, high: 1.027 }, halfWidthPercent: 2.3, p: 0.5, stdevLog: 0.012 },
 * } as const;
 * console.log(floorSentence(row));
 * // "http-json (default) requestsPerSecond: A/B 1.004× (0.981–1.027) over 3 rounds; per-round spread ±1.2%; the smallest difference 3 rounds detect here: 5.1%"
 * ```
 */
export function floorSentence(row: FloorRow): string {
  const i = row.interval;
  // A duet floor's samples are its rounds too (each round's windows averaged).
  const ci = i.ci95 ? ` (${ratioRangeText(i.ci95)})` : "";
  const floor = row.detectablePercent === null
    ? "no floor: it takes 2 rounds or more"
    : `the smallest difference ${i.n} rounds detect here: ${row.detectablePercent.toFixed(1)}%`;
  const spread = row.spreadPercent === null ? "" : `; per-round spread ±${row.spreadPercent.toFixed(1)}%`;
  return `${row.workload} (${row.variant}) ${row.figure}: A/B ${
    i.ratio.toFixed(3)
  }×${ci} over ${i.n} rounds${spread}; ${floor}`;
}

/** The fair share of a multi-core result as blocks: a title and a table per workload × variant, then the legend. */
function fairShareBlocks(tables: readonly FairShareTable[], syntax: OverviewSyntax): string[] {
  if (tables.length === 0) return [];
  return [
    syntax.heading("At equal CPU", 2),
    ...tables.flatMap((t) => [
      fairShareTitle(t),
      syntax.table(fairShareTable(t)),
      ...(t.lines.some((l) => l.shared) ? [FAIR_SHARE_SHARED_NOTE] : []),
    ]),
    FAIR_SHARE_LEGEND,
  ];
}

/**
 * The overview and its findings as blocks of a text format (terminal,
 * Markdown); empty when the result has no records. An A/A run adds its noise
 * floor.
 */
export function overviewBlocks(overview: Overview, syntax: OverviewSyntax): string[] {
  const table = overviewTable(overview);
  if (table === null) return [];
  const findings = overview.findings.length > 0
    ? syntax.list(overview.findings.map((f) => f.sentence))
    : noFindingText(overview);
  return [
    syntax.heading("At a glance", 1),
    syntax.table(table),
    ...(overview.releases.length > 0 ? [syntax.list(overview.releases.map((w) => `⚠ ${w.message}`))] : []),
    OVERVIEW_LEGEND,
    ...fairShareBlocks(overview.fairShare, syntax),
    syntax.heading("Key findings", 2),
    findings,
    FINDINGS_METHOD,
    ...(overview.floor.length > 0
      ? [syntax.heading("Noise floor (A/A)", 2), syntax.list(overview.floor.map(floorSentence)), FLOOR_METHOD]
      : []),
  ];
}
