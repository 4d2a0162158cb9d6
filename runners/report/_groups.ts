// Records grouped by workload × variant and ranked by their headline figure,
// with the words every format uses for one record: its label, its ratio to
// the group's best and to its slowest runtime (paired by round where the
// runtimes were measured in the same rounds), its confidence interval, why it
// has no figure. Nothing here assumes a workload kind: figures come from
// `record.headline` and `summary`.

import { formatFigure } from "./format.ts";
import { duetRatio, higherIsBetter, type RatioInterval, ratioOf, SATURATION_WARNINGS } from "../stats/mod.ts";
import type { BenchRecord, BenchResult, RuntimeRelease, Summary, SupportStatus, WorkloadKind } from "../schema/mod.ts";

/** One completed record with its headline figure and its ratios to the group's best and slowest. */
export interface RankedRecord {
  /** The record. */
  readonly record: BenchRecord;
  /** Its headline figure's summary. */
  readonly headline: Summary;
  /** How many times better than the group's reference, its slowest runtime (1 for the reference itself). */
  readonly relative: number;
  /** {@linkcode relative} with its interval (paired by round where possible); null for the reference itself. */
  readonly vsReference: RatioInterval | null;
  /** How many times better the group's best is than this record, with its interval; null for the best itself. */
  readonly vsBest: RatioInterval | null;
  /** Whether this is the group's worst runtime (native baselines aside), the one the others are compared with. */
  readonly isBaseline: boolean;
}

/**
 * Whether two records were measured in the same rounds, so that their runs pair round by round.
 *
 * @example Records of a file written before pairing was recorded
 * ```ts
 * import { isPaired } from "./_groups.ts";
 * import { readResultFile } from "../schema/read.ts";
 * const [a, b] = (await readResultFile("fixtures/results/base.json")).records;
 * console.log(isPaired(a, b)); // false
 * ```
 */
export function isPaired(a: BenchRecord, b: BenchRecord): boolean {
  return a.pairing !== undefined && a.pairing.id === b.pairing?.id && a.pairing.records.includes(b.id);
}

/**
 * How many times better record `x` is than `y` on `figure`, with its 95% interval: `x/y` for a figure where higher
 * is better, `y/x` where lower is; paired by round when the two were measured in the same rounds.
 *
 * @example deno against node in the stored head (not paired: measured runtime after runtime)
 * ```ts
 * import { timesBetter } from "./_groups.ts";
 * import { readResultFile } from "../schema/read.ts";
 * const [deno, node] = (await readResultFile("fixtures/results/head.json")).records;
 * const r = timesBetter(deno, node, "requestsPerSecond", true)!;
 * console.log(r.method, r.ratio > 1); // "unpaired" true
 * ```
 */
export function timesBetter(
  x: BenchRecord,
  y: BenchRecord,
  figure: string,
  higherIsBetter: boolean,
): RatioInterval | null {
  const [a, b] = higherIsBetter ? [x, y] : [y, x];
  // Measured in duet (--pairing duet): the duet's rounds rank, not the variant's own.
  const duet = a.duet?.find((d) => d.against === b.id && d.figure === figure);
  const paired = duet &&
    duetRatio(duet.windows.map((w) => ({ ...w, aCpuUs: w.ratio, bCpuUs: 1, aAnswered: 1, bAnswered: 1 })));
  if (paired) {
    const { n, ratio, ci95, halfWidthPercent, p, stdevLog } = paired;
    return { method: "duet", n, ratio, ci95, halfWidthPercent, p, stdevLog };
  }
  return ratioOf(a.runs, b.runs, figure, isPaired(x, y));
}

/** Records of one workload × variant. */
export interface RecordGroup {
  /** Workload name. */
  readonly workload: string;
  /** Variant name. */
  readonly variant: string;
  /** Workload kind. */
  readonly kind: WorkloadKind;
  /** The headline figure of the group (the first completed record's). */
  readonly figure: string;
  /** Whether a larger headline figure is better. */
  readonly higherIsBetter: boolean;
  /** Completed records with the headline figure, best first (ties keep run order). */
  readonly ranked: readonly RankedRecord[];
  /** Every other record (errored, invalid, skipped, or without the figure), in run order. */
  readonly others: readonly BenchRecord[];
  /** Every record of the group, in run order. */
  readonly records: readonly BenchRecord[];
}

/**
 * `deno 2.9.6`, or what was asked for when the runtime could not be had.
 *
 * @example
 * ```ts
 * import { recordLabel } from "./_groups.ts";
 * import { readResultFile } from "../schema/read.ts";
 * const [record] = (await readResultFile("fixtures/results/base.json")).records;
 * console.log(recordLabel(record)); // "deno 2.9.6"
 * ```
 */
export function recordLabel(r: BenchRecord): string {
  const label = r.runtime.version ? `${r.runtime.name} ${r.runtime.version}` : r.runtime.requested;
  if (r.runtime.arm) return `${label} (${r.runtime.arm})`;
  return isNativeBaseline(r) ? `${label} (baseline)` : label;
}

const STATUS_TEXT: Readonly<Record<SupportStatus, string>> = {
  "current": "Current",
  "active-lts": "Active LTS",
  "maintenance": "Maintenance",
  "end-of-life": "end of life",
  "latest": "latest",
  "superseded": "superseded",
  "unknown": "support unknown",
};

/**
 * A runtime's release line and its support in a few words, the day a status began where known.
 *
 * @example
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { releaseText } from "./_groups.ts";
 * const release = { line: "20", status: "end-of-life", since: "2026-04-30", lineReleased: null, asOf: "", source: "" } as const;
 * assertEquals(releaseText(release), "line 20, end of life since 2026-04-30");
 * assertEquals(releaseText({ ...release, status: "active-lts", since: "2026-10-28" }), "line 20, Active LTS");
 * ```
 */
export function releaseText(release: RuntimeRelease): string {
  const since = release.status === "end-of-life" && release.since ? ` since ${release.since}` : "";
  return `line ${release.line}, ${STATUS_TEXT[release.status]}${since}`;
}

/**
 * Whether a record measured a native baseline (Go, Rust): reports show those rows apart, after the runtimes.
 *
 * @example
 * ```ts
 * import { isNativeBaseline } from "./_groups.ts";
 * import { readResultFile } from "../schema/read.ts";
 * const [record] = (await readResultFile("fixtures/results/base.json")).records;
 * console.log(isNativeBaseline(record)); // false
 * ```
 */
export function isNativeBaseline(r: BenchRecord): boolean {
  return r.facts.baseline === true;
}

/**
 * Groups records by workload × variant (in first-seen order) and ranks each group.
 *
 * @example Best first
 * ```ts
 * import { groupRecords } from "./_groups.ts";
 * import { readResultFile } from "../schema/read.ts";
 * const [group] = groupRecords(await readResultFile("fixtures/results/head.json"));
 * console.log(group.ranked.map((r) => r.record.runtime.name)); // ["bun", "deno", "node"]
 * ```
 */
export function groupRecords(result: BenchResult): RecordGroup[] {
  const byKey = new Map<string, BenchRecord[]>();
  for (const r of result.records) {
    const key = `${r.workload}\u0000${r.variant}`;
    byKey.set(key, [...(byKey.get(key) ?? []), r]);
  }
  return [...byKey.values()].map((records) => {
    const measured = records.find((r) => r.status === "completed") ?? records[0];
    return rankBy(records, measured.headline.figure, measured.headline.higherIsBetter);
  });
}

/**
 * One workload × variant's records ranked by `figure`: the completed ones that have it, best first (native
 * baselines after the runtimes), each with its ratios to the best and to the slowest runtime.
 *
 * @param records The records of one workload × variant, in run order.
 * @param figure The figure to rank by, a key of each record's summary.
 * @param higherIsBetter Its direction.
 * @returns The group.
 *
 * @example The stored head by its p99 latency instead of its headline
 * ```ts
 * import { groupRecords, rankBy } from "./_groups.ts";
 * import { readResultFile } from "../schema/read.ts";
 * const [group] = groupRecords(await readResultFile("fixtures/results/head.json"));
 * console.log(rankBy(group.records, "latencyP99Us", false).ranked.length); // 0
 * ```
 */
export function rankBy(records: readonly BenchRecord[], figure: string, higherIsBetter: boolean): RecordGroup {
  const measured = records.find((r) => r.status === "completed") ?? records[0];
  const done = records.filter((r) => r.status === "completed" && r.summary[figure] !== undefined);
  const sign = higherIsBetter ? -1 : 1;
  // The runtimes first, best first, then the native baselines; all relative to the slowest runtime.
  done.sort((a, b) =>
    Number(isNativeBaseline(a)) - Number(isNativeBaseline(b)) ||
    sign * (a.summary[figure].median - b.summary[figure].median)
  );
  const slowest = () => done.findLast((r) => !isNativeBaseline(r)) ?? done.at(-1);
  // In duet the paired ratios order the runtimes, not the medians, which come from other seconds: a pair's medians can
  // lie in one order while the duet, measured in the same seconds, finds the other.
  if (done.some((r) => r.duet?.some((d) => d.figure === figure))) {
    const last = slowest()!;
    const relative = new Map(
      done.map((r) => [
        r,
        r === last
          ? 1
          : timesBetter(r, last, figure, higherIsBetter)?.ratio ?? medianRatio(r, last, figure, higherIsBetter),
      ]),
    );
    done.sort((a, b) =>
      Number(isNativeBaseline(a)) - Number(isNativeBaseline(b)) || relative.get(b)! - relative.get(a)!
    );
  }
  const reference = slowest();
  const best = done[0];
  const ranked = done.map((record): RankedRecord => {
    const vsReference = record === reference ? null : timesBetter(record, reference!, figure, higherIsBetter);
    return {
      record,
      headline: record.summary[figure],
      relative: record === reference
        ? 1
        : vsReference?.ratio ?? medianRatio(record, reference!, figure, higherIsBetter),
      vsReference,
      vsBest: record === best ? null : timesBetter(best, record, figure, higherIsBetter),
      isBaseline: record === reference,
    };
  });
  return {
    workload: measured.workload,
    variant: measured.variant,
    kind: measured.kind,
    figure,
    higherIsBetter,
    ranked,
    others: records.filter((r) => !done.includes(r)),
    records: [...records],
  };
}

/** The figures of CPU time per request at the fixed rate of `--cpu-rate`, server's and load's, per kind's unit. */
const AT_RATE = [
  { server: "serverCpuUsPerRequestAtRate", client: "clientCpuUsPerResponseAtRate" },
  { server: "serverCpuUsPerMessageAtRate", client: "clientCpuUsPerMessageAtRate" },
] as const;

/**
 * The group's records ranked by the server's CPU time per request at the fixed rate (`--cpu-rate`), in the figure's
 * direction from the table of directions (lower is better), with the rate and the load's own figure's name; null when no record has it.
 *
 * @example The stored head has no fixed-rate window
 * ```ts
 * import { efficiencyOf, groupRecords } from "./_groups.ts";
 * import { readResultFile } from "../schema/read.ts";
 * const [group] = groupRecords(await readResultFile("fixtures/results/head.json"));
 * console.log(efficiencyOf(group)); // null
 * ```
 */
export function efficiencyOf(group: RecordGroup): { group: RecordGroup; rate: number; client: string } | null {
  for (const names of AT_RATE) {
    const withIt = group.records.filter((r) => r.status === "completed" && r.summary[names.server] !== undefined);
    if (withIt.length === 0) continue;
    const rate = withIt[0].settings.cpuRate ?? 0;
    const ranked = rankBy(group.records, names.server, higherIsBetter(names.server) === true);
    return { group: ranked, rate, client: names.client };
  }
  return null;
}

/**
 * The name of the server's CPU time per request (or message) at the fixed rate that a record's runs carry, or null
 * when no run measured it (no `--cpu-rate`, or no run held the rate).
 *
 * @example The stored head has no fixed-rate window
 * ```ts
 * import { serverCpuAtRate } from "./_groups.ts";
 * import { readResultFile } from "../schema/read.ts";
 * console.log(serverCpuAtRate((await readResultFile("fixtures/results/head.json")).records[0])); // null
 * ```
 */
export function serverCpuAtRate(record: BenchRecord): string | null {
  const names = AT_RATE.find((n) => record.runs.some((r) => r.figures[n.server] !== undefined));
  return names?.server ?? null;
}

/** The ratio of medians, for a record without a positive figure in every run (no ratio of logs can be had). */
function medianRatio(x: BenchRecord, y: BenchRecord, figure: string, higherIsBetter: boolean): number {
  const [a, b] = [x.summary[figure].median, y.summary[figure].median];
  if (a === 0 || b === 0) return 1;
  return higherIsBetter ? a / b : b / a;
}

/**
 * `1.18× deno (1.12–1.24)` (better than the worst by, with the ratio's 95% interval), `1.0× (slowest)` for the worst
 * itself, or `1.0×` when the group has one ranked record.
 *
 * @example
 * ```ts
 * import { groupRecords, relativeText } from "./_groups.ts";
 * import { readResultFile } from "../schema/read.ts";
 * const [group] = groupRecords(await readResultFile("fixtures/results/head.json"));
 * console.log(relativeText(group, group.ranked.at(-1)!)); // "1.0× (slowest)"
 * ```
 */
export function relativeText(group: RecordGroup, r: RankedRecord): string {
  if (r.isBaseline) return group.ranked.length > 1 ? "1.0× (slowest)" : "1.0×";
  const reference = group.ranked.find((x) => x.isBaseline) ?? group.ranked.at(-1)!;
  const ci = r.vsReference?.ci95;
  return `${boundMark(r.record, reference.record)}${r.relative.toFixed(2)}× ${reference.record.runtime.name}${
    ci ? ` (${ratioRangeText(ci)})` : ""
  }`;
}

/**
 * A ratio's interval as people read it, `1.87–1.95`, with enough decimals that its ends differ.
 *
 * @example
 * ```ts
 * import { ratioRangeText } from "./_groups.ts";
 * console.log(ratioRangeText({ low: 1.8734, high: 1.9512 })); // "1.87–1.95"
 * console.log(ratioRangeText({ low: 1.0012, high: 1.0041 })); // "1.001–1.004"
 * ```
 */
export function ratioRangeText(ci: { readonly low: number; readonly high: number }): string {
  let digits = 2;
  while (digits < 4 && ci.low.toFixed(digits) === ci.high.toFixed(digits)) digits++;
  return `${ci.low.toFixed(digits)}–${ci.high.toFixed(digits)}`;
}

/**
 * How a group's ratios were had, for the line under its table: paired over how many rounds, or from runs measured
 * apart; null when the group has fewer than two ranked records.
 *
 * @example
 * ```ts
 * import { groupRecords, pairingText } from "./_groups.ts";
 * import { readResultFile } from "../schema/read.ts";
 * const [group] = groupRecords(await readResultFile("fixtures/results/head.json"));
 * console.log(pairingText(group)?.startsWith("relative: runs measured one runtime after another")); // true
 * ```
 */
export function pairingText(group: RecordGroup): string | null {
  const intervals = group.ranked.flatMap((r) => r.vsReference ? [r.vsReference] : []);
  if (intervals.length === 0) return null;
  if (intervals.every((i) => i.method !== "unpaired")) {
    const rounds = [...new Set(intervals.map((i) => i.n))].sort((a, b) => a - b);
    return `relative: paired by round (${rounds.join("/")} rounds, runtimes interleaved within each), the geometric ` +
      "mean of the per-round ratios with its 95% CI (Student's t on the log-ratios)";
  }
  return "relative: runs measured one runtime after another (not paired by round): the ratio of geometric means " +
    "with its 95% CI (Welch's t-test on the logs), wider than a paired one";
}

/**
 * Every pair's duet ratio in a group (`--pairing duet`), for the line under its table: the leaner side first, with the
 * ratio's 95% interval and rounds, and its rate where a crowded first round lowered it; null without duet ratios.
 *
 * @example The stored head was measured in rounds
 * ```ts
 * import { duetText, groupRecords } from "./_groups.ts";
 * import { readResultFile } from "../schema/read.ts";
 * const [group] = groupRecords(await readResultFile("fixtures/results/head.json"));
 * console.log(duetText(group)); // null
 * ```
 */
export function duetText(group: RecordGroup): string | null {
  const records = group.records.filter((r) => r.status === "completed" && r.duet?.length);
  const pairs: { text: string; rate: number }[] = [];
  for (const [i, x] of records.entries()) {
    for (const y of records.slice(i + 1)) {
      const d = x.duet!.find((d) => d.against === y.id);
      const r = d && timesBetter(x, y, d.figure, higherIsBetter(d.figure) === true);
      if (!d || !r) continue;
      const [better, worse] = r.ratio >= 1 ? [x, y] : [y, x];
      const ratio = r.ratio >= 1 ? r.ratio : 1 / r.ratio;
      const ci = r.ci95 && (r.ratio >= 1 ? r.ci95 : { low: 1 / r.ci95.high, high: 1 / r.ci95.low });
      const text = `${recordLabel(better)} ${ratio.toFixed(2)}× ${higherIsBetter(d.figure) ? "better" : "leaner"} ` +
        `than ${recordLabel(worse)} (${ci ? `${ratioRangeText(ci)}, ` : ""}${r.n} rounds`;
      pairs.push({ text, rate: d.ratePerSecond });
    }
  }
  if (pairs.length === 0) return null;
  // The rate most pairs kept; a pair whose first round crowded its CPUs went on at a lower one, said beside it.
  const count = (rate: number) => pairs.filter((p) => p.rate === rate).length;
  const rate = pairs.map((p) => p.rate).reduce((a, b) => count(b) > count(a) ? b : a);
  const perSec = (n: number) => `${n.toLocaleString("en-US")}/s`;
  const texts = pairs.map((p) => `${p.text}${p.rate === rate ? "" : ` at ${perSec(p.rate)}`})`);
  return `CPU per request in duet at ${perSec(rate)} (both servers measured in the same seconds): ${texts.join("; ")}`;
}

/**
 * `≥ ` when the record's own figure is a bound (its client was saturated: the server may do better, so it leads by
 * at least this), `≤ ` when the baseline's is, `≷ ` when both are (neither way is known), else nothing.
 */
export function boundMark(record: BenchRecord, baseline: BenchRecord): string {
  const bounded = (r: BenchRecord) => r.warnings.some((w) => SATURATION_WARNINGS.includes(w.code));
  const [self, base] = [bounded(record), bounded(baseline)];
  return self && base ? "≷ " : self ? "≥ " : base ? "≤ " : "";
}

/**
 * `44,505/s – 75,909/s`, or a note when there was one run.
 *
 * @example
 * ```ts
 * import { ciText } from "./_groups.ts";
 * const one = { n: 1, median: 5, mean: 5, stdev: 0, min: 5, max: 5, ci95: null };
 * console.log(ciText("wallMs", one)); // "n/a (1 run)"
 * ```
 */
export function ciText(figure: string, s: Summary): string {
  return s.ci95 ? `${formatFigure(figure, s.ci95.low)} – ${formatFigure(figure, s.ci95.high)}` : "n/a (1 run)";
}

/**
 * Why a record has no figure: the skip reason, the phase and error, or the missing figure.
 *
 * @example
 * ```ts
 * import { whyText } from "./_groups.ts";
 * import { readResultFile } from "../schema/read.ts";
 * const errored = (await readResultFile("fixtures/results/head.json")).records.find((r) => r.error)!;
 * console.log(whyText(errored).startsWith("provision: ")); // true
 * ```
 */
export function whyText(r: BenchRecord): string {
  if (r.status === "skipped") return r.skipReason ?? "";
  if (r.error) return `${r.error.phase}: ${r.error.message}`;
  if (r.status === "completed") return `no ${r.headline.figure} figure`;
  return "";
}

/**
 * Direction of a figure in words.
 *
 * @example
 * ```ts
 * import { directionText } from "./_groups.ts";
 * console.log(directionText(false)); // "lower is better"
 * ```
 */
export function directionText(higherIsBetter: boolean): string {
  return higherIsBetter ? "higher is better" : "lower is better";
}
