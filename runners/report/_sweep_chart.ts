// The latency–throughput curve of a sweep (`--sweep`) for the HTML report:
// p99 on a log axis against the rate each step achieved, one line per run of
// each runtime, the knee of every run ringed and the p99 objective drawn
// across; and the steps of each runtime's median run as a table.

import type { BenchRecord, RunRecord } from "../schema/mod.ts";
import { DEFAULT_SLO_P99_MS } from "../stats/mod.ts";
import { formatFigure, formatUs } from "./format.ts";
import { type RecordGroup, recordLabel } from "./_groups.ts";
import { lineChart, type LineSeries } from "./_svg.ts";
import type { ViewTable } from "./_view_table.ts";

const KNEE = "sustainableRequestsPerSecond";

function swept(group: RecordGroup): BenchRecord[] {
  return group.ranked.map((r) => r.record).filter((r) => r.runs.some((run) => (run.steps?.length ?? 0) > 0));
}

/** The run whose knee is the median of the record's runs (the lower middle of an even count). */
function medianRun(record: BenchRecord): RunRecord {
  const runs = record.runs.filter((run) => run.steps?.length)
    .sort((a, b) => (a.figures[KNEE] ?? 0) - (b.figures[KNEE] ?? 0));
  return runs[Math.floor((runs.length - 1) / 2)];
}

/**
 * The curve of every swept record in a group, or null when none was swept.
 *
 * @example
 * ```ts ignore
 * const svg = sweepChart(group, colors);
 * ```
 */
export function sweepChart(group: RecordGroup, colors: ReadonlyMap<string, string>): string | null {
  const records = swept(group);
  if (records.length === 0) return null;
  const series: LineSeries[] = records.flatMap((r) =>
    r.runs.filter((run) => run.steps?.length).map((run) => ({
      key: r.runtime.requested,
      label: recordLabel(r),
      color: colors.get(r.runtime.requested)!,
      markers: true,
      points: run.steps!.filter((s) => s.latencyUs !== null && s.latencyUs.p99 > 0).map((s) => ({
        x: s.achievedRate,
        y: s.latencyUs!.p99,
        ring: run.figures[KNEE] === s.achievedRate,
        tooltip: `${recordLabel(r)} run ${run.index + 1}: ${formatFigure("requestsPerSecond", s.achievedRate)} ` +
          `(asked ${formatFigure("requestsPerSecond", s.targetRate)}), p99 ${formatUs(s.latencyUs!.p99)}`,
      })),
    }))
  );
  const slo = records[0].settings.sloP99Ms ?? DEFAULT_SLO_P99_MS;
  return lineChart({
    className: "sweep-chart",
    title: "Latency–throughput: p99 by rate achieved",
    subtitle: `every run · ringed: its knee (highest rate held at p99 ≤ ${slo} ms) · latency from due time · log`,
    xLabel: "requests per second achieved",
    series,
    formatX: (x) => formatFigure("requestsPerSecond", x).replace("/s", ""),
    formatY: (us) => formatUs(us).replace(/\.0+ /, " "),
    logY: true,
    guides: [{ y: slo * 1000, label: `p99 objective ${slo} ms` }],
  });
}

/**
 * The steps of each swept record's median run: rate asked and achieved,
 * latency percentiles, what went out late and what failed; null when none was swept.
 *
 * @example
 * ```ts ignore
 * const table = sweepSteps(group);
 * ```
 */
export function sweepSteps(group: RecordGroup): ViewTable | null {
  const records = swept(group);
  if (records.length === 0) return null;
  const headers = ["asked", "achieved", "p50", "p90", "p99", "p99.9", "late", "errors"];
  return {
    columns: [
      { header: "runtime (median run)", numeric: false },
      ...headers.map((header) => ({ header, numeric: true })),
    ],
    rows: records.flatMap((r) => {
      const run = medianRun(r);
      return run.steps!.map((s) => [
        `${recordLabel(r)} run ${run.index + 1}${run.figures[KNEE] === s.achievedRate ? " · knee" : ""}`,
        formatFigure("requestsPerSecond", s.targetRate),
        formatFigure("requestsPerSecond", s.achievedRate),
        ...(s.latencyUs
          ? [s.latencyUs.p50, s.latencyUs.p90, s.latencyUs.p99, s.latencyUs.p99_9].map(formatUs)
          : ["", "", "", ""]),
        `${s.missed} of ${s.scheduled}`,
        String(s.errors + s.non2xx + s.mismatches),
      ]);
    }),
  };
}
