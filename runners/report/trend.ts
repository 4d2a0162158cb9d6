/**
 * Trends over a history of results: for each workload × variant × runtime,
 * the headline figure of every result in time order, with the runtime's
 * version, median and 95% CI, and each step tested against the previous
 * completed point with compare's test (Welch's t-test on the per-run values):
 * a significant change is marked faster or slower. Rendered as Markdown, as
 * JSON for CI dashboards, and as HTML (see `trend_html.ts`).
 *
 * @example The planted regression in the stored history
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { buildTrend, readHistory } from "@rtbench/rtbench/runners";
 *
 * const trend = buildTrend(await readHistory("fixtures/history"));
 * assertEquals(trend.changes.filter((c) => c.verdict === "slower").map((c) => c.runtime), ["node"]);
 * ```
 *
 * @module
 */

import type { BenchRecord } from "../schema/mod.ts";
import { compareRecords, type FigureComparison, type Verdict, withHolm } from "./compare.ts";
import { formatFigure } from "./format.ts";
import type { HistoryEntry } from "./history.ts";
import { machineMatch } from "../stats/mod.ts";

/**
 * A step from one point to the next, with compare's verdict.
 *
 * @example The verdict of node's third point in the stored history
 * ```ts
 * import { buildTrend, readHistory, type TrendStep } from "@rtbench/rtbench/runners";
 *
 * const node = buildTrend(await readHistory("fixtures/history")).series.find((s) => s.runtime === "node")!;
 * const step: TrendStep = node.points[2].step!;
 * console.log(step.verdict); // "slower"
 * ```
 */
export interface TrendStep {
  /** The file of the point compared against. */
  readonly against: string;
  /** Change in percent: the ratio of the runs' geometric means to the earlier point's, less 1 (see `compare`). */
  readonly changePercent: number | null;
  /** Its 95% confidence interval, in percent. */
  readonly ci95Percent: { readonly low: number; readonly high: number } | null;
  /** Two-sided p-value of Welch's t-test. */
  readonly p: number | null;
  /** `p` corrected by Holm over every step into the same result (the one compared with α); null when not tested. */
  readonly pAdjusted: number | null;
  /** compare's verdict, from `pAdjusted`. */
  readonly verdict: Verdict;
  /** Why it is not comparable, if so. */
  readonly note: string | null;
}

/**
 * One result's record in a series.
 *
 * @example The first point of each series has no step
 * ```ts
 * import { buildTrend, readHistory, type TrendPoint } from "@rtbench/rtbench/runners";
 *
 * const first: TrendPoint = buildTrend(await readHistory("fixtures/history")).series[0].points[0];
 * console.log(first.version, first.step); // "2.9.6" null
 * ```
 */
export interface TrendPoint {
  /** The history file. */
  readonly file: string;
  /** When the result started. */
  readonly startedAt: string;
  /** The runtime's version (null when it could not be had). */
  readonly version: string | null;
  /** The record's status. */
  readonly status: BenchRecord["status"];
  /** Median of the headline figure, null without one. */
  readonly median: number | null;
  /** Its 95% CI, null with fewer than 2 runs. */
  readonly ci95: { readonly low: number; readonly high: number } | null;
  /** Runs measured. */
  readonly runs: number;
  /** Against the previous completed point; null for the first. */
  readonly step: TrendStep | null;
}

/**
 * One workload × variant × runtime over the history.
 *
 * @example Each series' figure
 * ```ts
 * import { buildTrend, readHistory, type TrendSeries } from "@rtbench/rtbench/runners";
 *
 * const [deno]: readonly TrendSeries[] = buildTrend(await readHistory("fixtures/history")).series;
 * console.log(deno.figure, deno.higherIsBetter); // "requestsPerSecond" true
 * ```
 */
export interface TrendSeries {
  /** Workload name. */
  readonly workload: string;
  /** Variant name. */
  readonly variant: string;
  /** Runtime name, or `name@version` as asked for when one result held several of one runtime. */
  readonly runtime: string;
  /** The headline figure. */
  readonly figure: string;
  /** Whether a larger value is better. */
  readonly higherIsBetter: boolean;
  /** Points, oldest first. */
  readonly points: readonly TrendPoint[];
}

/**
 * A significant change, for the summary and `--fail-on-regression`.
 *
 * @example The sentence of the planted regression
 * ```ts
 * import { buildTrend, readHistory, type TrendChange } from "@rtbench/rtbench/runners";
 *
 * const [change]: readonly TrendChange[] = buildTrend(await readHistory("fixtures/history")).changes;
 * console.log(change.sentence.startsWith("http-json (default) node: requestsPerSecond slower")); // true
 * ```
 */
export interface TrendChange {
  /** Workload name. */
  readonly workload: string;
  /** Variant name. */
  readonly variant: string;
  /** The series' runtime. */
  readonly runtime: string;
  /** The figure. */
  readonly figure: string;
  /** `faster` or `slower`. */
  readonly verdict: "faster" | "slower";
  /** The earlier point. */
  readonly from: TrendPoint;
  /** The point that changed. */
  readonly to: TrendPoint;
  /** The change, in one sentence with its numbers and interval. */
  readonly sentence: string;
}

/**
 * A history's trends.
 *
 * @example How many results and series
 * ```ts
 * import { buildTrend, readHistory, type Trend } from "@rtbench/rtbench/runners";
 *
 * const trend: Trend = buildTrend(await readHistory("fixtures/history"));
 * console.log(trend.results.length, trend.series.length); // 4 4
 * ```
 */
export interface Trend {
  /** Significance level. */
  readonly alpha: number;
  /** The history's files, oldest first, with when each started. */
  readonly results: readonly { readonly file: string; readonly startedAt: string }[];
  /** One series per workload × variant × runtime, in first-seen order. */
  readonly series: readonly TrendSeries[];
  /** Every significant change, in series order. */
  readonly changes: readonly TrendChange[];
}

function keyOf(r: BenchRecord, all: readonly BenchRecord[]): string {
  const same = all.filter((o) =>
    o.workload === r.workload && o.variant === r.variant && o.runtime.name === r.runtime.name
  );
  return same.length > 1 ? r.runtime.requested : r.runtime.name;
}

function pct(n: number): string {
  return `${n > 0 ? "+" : n < 0 ? "−" : ""}${Math.abs(n).toFixed(1)}%`;
}

/** The date and time a point's result started, to the minute. */
export function pointTime(point: TrendPoint): string {
  return point.startedAt.slice(0, 16).replace("T", " ");
}

function changeSentence(s: TrendSeries, from: TrendPoint, to: TrendPoint): string {
  const step = to.step!;
  const v = (p: TrendPoint) => `${formatFigure(s.figure, p.median!)}${p.version ? ` (${s.runtime} ${p.version})` : ""}`;
  const p = step.pAdjusted! < 0.001 ? "p (Holm) < 0.001" : `p (Holm) = ${step.pAdjusted!.toFixed(3)}`;
  return `${s.workload} (${s.variant}) ${s.runtime}: ${s.figure} ${step.verdict} on ${pointTime(to)}: ${v(to)} vs ${
    v(from)
  } on ${pointTime(from)}; change ${pct(step.changePercent!)}, 95% CI ${pct(step.ci95Percent!.low)} to ${
    pct(step.ci95Percent!.high)
  }, ${p}`;
}

/** compare's verdict on one step of a series; figures from two machines are not compared. */
function stepOf(
  from: { record: BenchRecord; entry: HistoryEntry },
  to: { record: BenchRecord; entry: HistoryEntry },
  figure: string,
  alpha: number,
  tested: Map<TrendStep, FigureComparison>,
): TrendStep | null {
  const against = from.entry.file;
  const match = machineMatch(from.entry.result, to.entry.result);
  if (!match.comparable) {
    const note = match.why!;
    return {
      against,
      changePercent: null,
      ci95Percent: null,
      p: null,
      pAdjusted: null,
      verdict: "not comparable",
      note,
    };
  }
  const c = compareRecords(from.record, to.record, "", alpha)[0];
  if (c === undefined || c.figure !== figure) return null;
  const { changePercent, ci95Percent, p, verdict, note } = c;
  const step = { against, changePercent, ci95Percent, p, pAdjusted: null, verdict, note };
  tested.set(step, c);
  return step;
}

/**
 * The steps into one result are one family of tests, as a comparison of two results is in compare: their verdicts
 * are corrected together (Holm), so that a history of many runtimes flags no more changes by chance than one.
 */
function correctedPerResult(
  series: readonly TrendSeries[],
  tested: ReadonlyMap<TrendStep, FigureComparison>,
  alpha: number,
): TrendSeries[] {
  const byFile = new Map<string, { s: number; i: number }[]>();
  series.forEach((s, si) =>
    s.points.forEach((p, i) => {
      if (p.step && tested.has(p.step)) byFile.set(p.file, [...(byFile.get(p.file) ?? []), { s: si, i }]);
    })
  );
  const points = series.map((s) => [...s.points]);
  for (const family of byFile.values()) {
    const corrected = withHolm(family.map(({ s, i }) => tested.get(points[s][i].step!)!), alpha);
    family.forEach(({ s, i }, k) => {
      const { pAdjusted, verdict } = corrected[k];
      points[s][i] = { ...points[s][i], step: { ...points[s][i].step!, pAdjusted, verdict } };
    });
  }
  return series.map((s, si) => ({ ...s, points: points[si] }));
}

/**
 * Builds the trends of a history (oldest first, as {@linkcode readHistory} returns it).
 *
 * @param history The results, oldest first.
 * @param alpha Significance level of the steps.
 * @returns Every series with its points and steps, and the significant changes.
 *
 * @example Three series in the stored history, one per runtime
 * ```ts
 * import { buildTrend, readHistory } from "@rtbench/rtbench/runners";
 * const trend = buildTrend(await readHistory("fixtures/history"));
 * console.log(trend.series.map((s) => s.runtime)); // ["deno", "node", "bun", "node@99"]
 * ```
 */
export function buildTrend(history: readonly HistoryEntry[], alpha = 0.05): Trend {
  type Open = {
    s: Omit<TrendSeries, "points">;
    points: TrendPoint[];
    last: { record: BenchRecord; entry: HistoryEntry } | null;
  };
  const series = new Map<string, Open>();
  const tested = new Map<TrendStep, FigureComparison>();
  for (const entry of history) {
    const { file, result } = entry;
    for (const r of result.records) {
      const runtime = keyOf(r, result.records);
      const key = `${r.workload}\u0000${r.variant}\u0000${runtime}`;
      const { figure, higherIsBetter } = r.headline;
      const open = series.get(key) ??
        { s: { workload: r.workload, variant: r.variant, runtime, figure, higherIsBetter }, points: [], last: null };
      series.set(key, open);
      const summary = r.status === "completed" ? r.summary[open.s.figure] : undefined;
      open.points.push({
        file,
        startedAt: result.startedAt,
        version: r.runtime.version,
        status: r.status,
        median: summary?.median ?? null,
        ci95: summary?.ci95 ?? null,
        runs: summary?.n ?? 0,
        step: summary && open.last ? stepOf(open.last, { record: r, entry }, open.s.figure, alpha, tested) : null,
      });
      if (summary) open.last = { record: r, entry };
    }
  }
  const all = correctedPerResult(
    [...series.values()].map(({ s, points }): TrendSeries => ({ ...s, points })),
    tested,
    alpha,
  );
  const changes = all.flatMap((s) =>
    s.points.flatMap((to, i): TrendChange[] => {
      const verdict = to.step?.verdict;
      if (verdict !== "faster" && verdict !== "slower") return [];
      const from = s.points.slice(0, i).findLast((p) => p.file === to.step!.against)!;
      const { workload, variant, runtime, figure } = s;
      return [{ workload, variant, runtime, figure, verdict, from, to, sentence: changeSentence(s, from, to) }];
    })
  );
  return {
    alpha,
    results: history.map((h) => ({ file: h.file, startedAt: h.result.startedAt })),
    series: all,
    changes,
  };
}

function stepText(step: TrendStep | null): string {
  if (step === null) return "";
  if (step.verdict === "not comparable") return `not comparable: ${step.note}`;
  const change = `${pct(step.changePercent!)} (${pct(step.ci95Percent!.low)} … ${pct(step.ci95Percent!.high)})`;
  const mark = step.verdict === "slower"
    ? "✗ slower"
    : step.verdict === "faster"
    ? "✓ faster"
    : "no significant change";
  return `${change} · ${mark}`;
}

/**
 * One workload × variant of a trend as a table: every point of every runtime.
 *
 * @example The table's rows
 * ```ts
 * import { buildTrend, readHistory, type TrendTable, trendTables } from "@rtbench/rtbench/runners";
 *
 * const [table]: TrendTable[] = trendTables(buildTrend(await readHistory("fixtures/history")));
 * console.log(table.rows.length); // 14
 * ```
 */
export interface TrendTable {
  /** `http-json (default)`. */
  readonly title: string;
  /** The series of the table. */
  readonly series: readonly TrendSeries[];
  /** `requestsPerSecond: higher is better`. */
  readonly figure: string;
  /** Header cells. */
  readonly header: readonly string[];
  /** Rows of text cells, with the step's verdict for the format to mark. */
  readonly rows: readonly { readonly cells: readonly string[]; readonly verdict: Verdict | null }[];
}

/**
 * The trend's tables, one per workload × variant, as every format shows them.
 *
 * @param trend A trend from {@linkcode buildTrend}.
 * @returns One table per workload × variant.
 *
 * @example The title of the first table
 * ```ts
 * import { buildTrend, readHistory, trendTables } from "@rtbench/rtbench/runners";
 * const [table] = trendTables(buildTrend(await readHistory("fixtures/history")));
 * console.log(table.title); // "http-json (default)"
 * ```
 */
export function trendTables(trend: Trend): TrendTable[] {
  const titles = [...new Set(trend.series.map((s) => `${s.workload} (${s.variant})`))];
  return titles.map((title) => {
    const series = trend.series.filter((s) => `${s.workload} (${s.variant})` === title);
    return {
      title,
      series,
      figure: `${series[0].figure}: ${series[0].higherIsBetter ? "higher" : "lower"} is better`,
      header: ["started", "runtime", "version", "median", "95% CI", "change vs previous (95% CI)"],
      rows: series.flatMap((s) =>
        s.points.map((p, i) => ({
          cells: [
            pointTime(p),
            s.runtime,
            versionText(s, i),
            p.median === null ? p.status : formatFigure(s.figure, p.median),
            p.ci95 ? `${formatFigure(s.figure, p.ci95.low)} – ${formatFigure(s.figure, p.ci95.high)}` : "",
            stepText(p.step),
          ],
          verdict: p.step?.verdict ?? null,
        }))
      ),
    };
  });
}

/** A point's version, and the one before when it changed: `22.21.1 (was 20.20.2)`. */
export function versionText(series: TrendSeries, index: number): string {
  const version = series.points[index].version;
  const before = series.points.slice(0, index).findLast((p) => p.version !== null)?.version;
  return version === null ? "–" : before && before !== version ? `${version} (was ${before})` : version;
}

/** What the trend's verdicts rest on, in one sentence. */
export function trendMethod(trend: Trend): string {
  return `${trend.results.length} results, ${trend.results[0]?.startedAt.slice(0, 10) ?? "–"} to ${
    trend.results.at(-1)?.startedAt.slice(0, 10) ?? "–"
  }. Each step is Welch's t-test on the per-run values against the previous completed point of the same runtime ` +
    `(two-sided), corrected with Holm's method over the steps into the same result, α = ${trend.alpha}.`;
}

/**
 * Renders a trend as Markdown: the significant changes first, then per
 * workload × variant a table of every point of every runtime.
 *
 * @param trend A trend from {@linkcode buildTrend}.
 * @returns The Markdown document.
 *
 * @example The regression in the stored history, marked
 * ```ts
 * import { assert } from "@std/assert";
 * import { buildTrend, formatTrendMarkdown, readHistory } from "@rtbench/rtbench/runners";
 * const md = formatTrendMarkdown(buildTrend(await readHistory("fixtures/history")));
 * assert(md.includes("✗ slower"));
 * ```
 */
export function formatTrendMarkdown(trend: Trend): string {
  const cell = (t: string) => t.replace(/\\/g, "\\\\").replace(/\|/g, "\\|");
  const line = (cells: readonly string[]) => `| ${cells.map(cell).join(" | ")} |`;
  const parts = [
    "# rtbench trend",
    trendMethod(trend),
    "## Significant changes",
    trend.changes.length > 0
      ? trend.changes.map((c) => `- ${c.verdict === "slower" ? "✗" : "✓"} ${cell(c.sentence)}`).join("\n")
      : "None.",
  ];
  for (const t of trendTables(trend)) {
    parts.push(
      `## ${t.title}`,
      t.figure,
      [line(t.header), "| --- | --- | --- | ---: | ---: | --- |", ...t.rows.map((r) => line(r.cells))].join("\n"),
    );
  }
  return parts.join("\n\n") + "\n";
}

/**
 * The trend as JSON, for CI dashboards.
 *
 * @param trend A trend from {@linkcode buildTrend}.
 * @returns Pretty-printed JSON of the trend.
 *
 * @example Read the JSON back
 * ```ts
 * import { buildTrend, formatTrendJson, readHistory } from "@rtbench/rtbench/runners";
 * const data = JSON.parse(formatTrendJson(buildTrend(await readHistory("fixtures/history"))));
 * console.log(data.series.length); // 4
 * ```
 */
export function formatTrendJson(trend: Trend): string {
  return JSON.stringify(trend, null, 2) + "\n";
}
