/**
 * Compares two results (a base and a head) record by record: per workload ×
 * variant × runtime and figure, the change in percent with its 95% confidence
 * interval and a verdict — faster, slower, or no significant difference. Two
 * result files were measured at different times, so their runs do not pair:
 * the change is the ratio of the runs' geometric means, tested by Welch's
 * t-test on the logs of the per-run values, so that its interval is a ratio's
 * and never passes −100%.
 *
 * Figures compared: the record's headline figure (direction from
 * `record.headline`), the latency p99 of each run (lower is better), the
 * tail, which the headline does not fix, and, where both records measured it,
 * the server's CPU time per request (or message) at the fixed rate of
 * `--cpu-rate` (lower is better): the work a request costs at equal load,
 * which a closed model's throughput does not fix where the load generator is
 * at its limit; a pair measured at two rates is not comparable on it. Reports
 * show the p99 of every run's responses merged; a test needs one value per
 * run, so compare's is each run's own p99, and it says so (`p99 per run`).
 * Figures derived from the headline would only repeat its verdict and are
 * left out: `bytesPerSecond` and `filesWrittenPerSecond` follow the same
 * responses, and in a closed model the typical latency is connections ÷
 * throughput (Little's law), so p50 is the headline again. Counts, window
 * lengths and client CPU describe the run, not the runtime.
 *
 * A pair measured with different load generators or different measurement
 * settings (connections, duration, rate, ...) is "not comparable": its change
 * would be the settings', not the runtime's. The verdicts of all figures are
 * corrected for testing many at once (Holm): `p` is each test's own, `pAdjusted`
 * the one compared with α. Given a noise floor (an A/A result's smallest
 * detectable difference), a significant change smaller than it is `within
 * noise floor`, never faster or slower.
 *
 * @module
 */

import { alignTable, formatFigure } from "./format.ts";
import { serverCpuAtRate } from "./_groups.ts";
import { UsageError } from "../base/mod.ts";
import type { BenchRecord, BenchResult } from "../schema/mod.ts";
import { higherIsBetter, holmAdjust, machineMatch, unpairedRatio } from "../stats/mod.ts";

/**
 * What a figure's change means.
 *
 * @example Tally the verdicts of a comparison
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { compareResults, parseResult, type Verdict } from "@rtbench/rtbench";
 *
 * const base = parseResult(await Deno.readTextFile("fixtures/results/base.json"));
 * const head = parseResult(await Deno.readTextFile("fixtures/results/head.json"));
 * const tally = new Map<Verdict, number>();
 * for (const f of compareResults(base, head).figures) tally.set(f.verdict, (tally.get(f.verdict) ?? 0) + 1);
 * assertEquals(tally.has("slower"), true);
 * ```
 */
export type Verdict = "faster" | "slower" | "no significant difference" | "within noise floor" | "not comparable";

/**
 * One workload × variant × runtime × figure in both results.
 *
 * @example Node.js got slower
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { compareResults, type FigureComparison, parseResult } from "@rtbench/rtbench";
 *
 * const base = parseResult(await Deno.readTextFile("fixtures/results/base.json"));
 * const head = parseResult(await Deno.readTextFile("fixtures/results/head.json"));
 * const node: FigureComparison | undefined = compareResults(base, head).figures
 *   .find((f) => f.runtime === "node" && f.figure === "requestsPerSecond");
 * assertEquals(node?.changePercent?.toFixed(0), "-30");
 * ```
 */
export interface FigureComparison {
  /** Workload name. */
  readonly workload: string;
  /** Variant name. */
  readonly variant: string;
  /** Runtime name (or `name@version` when a file holds several of one runtime). */
  readonly runtime: string;
  /** Runtime version in base and head (null when it could not be had). */
  readonly versions: { readonly base: string | null; readonly head: string | null };
  /** Figure name, with its unit (`requestsPerSecond`, `latencyUs.p99`: the p99 of each run, see the module). */
  readonly figure: string;
  /** Whether a larger value is better. */
  readonly higherIsBetter: boolean;
  /** Per-run values of base. */
  readonly base: readonly number[];
  /** Per-run values of head. */
  readonly head: readonly number[];
  /** Geometric mean of base's per-run values, null without values. */
  readonly baseMean: number | null;
  /** Geometric mean of head's per-run values, null without values. */
  readonly headMean: number | null;
  /** Change from base to head (head's geometric mean over base's, less 1), in percent; null when not comparable. */
  readonly changePercent: number | null;
  /** 95% confidence interval of the change in percent, from the ratio's (never below −100%); null when not comparable. */
  readonly ci95Percent: { readonly low: number; readonly high: number } | null;
  /** Two-sided p-value of Welch's t-test on the logs; null when not comparable. */
  readonly p: number | null;
  /** `p` corrected by Holm over every figure of the comparison, the one compared with α; null when not comparable. */
  readonly pAdjusted: number | null;
  /** The verdict. */
  readonly verdict: Verdict;
  /** Why the figure is not comparable, or another remark. */
  readonly note: string | null;
}

/**
 * The comparison of two results.
 *
 * @example Records only one of the results has
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { compareResults, type Comparison, parseResult } from "@rtbench/rtbench";
 *
 * const base = parseResult(await Deno.readTextFile("fixtures/results/base.json"));
 * const head = parseResult(await Deno.readTextFile("fixtures/results/head.json"));
 * const c: Comparison = compareResults(base, head);
 * assertEquals(c.onlyInHead, ["http-json/default/node@99"]);
 * ```
 */
export interface Comparison {
  /** Significance level of the verdicts (0.05: 95% confidence). */
  readonly alpha: number;
  /** When each result was started. */
  readonly startedAt: { readonly base: string; readonly head: string };
  /** Every compared figure, grouped by workload, variant and runtime in base's order. */
  readonly figures: readonly FigureComparison[];
  /** Records (`workload/variant/runtime`) in base but not in head. */
  readonly onlyInBase: readonly string[];
  /** Records (`workload/variant/runtime`) in head but not in base. */
  readonly onlyInHead: readonly string[];
  /** Differences in machine or settings that make the comparison less fair. */
  readonly notes: readonly string[];
}

/**
 * Options of {@linkcode compareResults}.
 *
 * @example 99% confidence
 * ```ts
 * import type { CompareOptions } from "@rtbench/rtbench/runners";
 *
 * const options: CompareOptions = { alpha: 0.01 };
 * ```
 */
export interface CompareOptions {
  /** Significance level. @default {0.05} */
  readonly alpha?: number;
  /**
   * The smallest change to call, per `workload/variant/figure`, in percent (from an A/A result, see
   * {@linkcode noiseFloorOf}): a significant change smaller than its floor is `within noise floor`.
   */
  readonly noiseFloor?: NoiseFloor;
}

/**
 * The smallest change worth calling, per `workload/variant/figure` (`http-json/default/requestsPerSecond`), in
 * percent: what an A/A run measured as the smallest difference its run count detects on its machine.
 *
 * @example A floor of 3.4% for http-json's requests/s
 * ```ts
 * import type { NoiseFloor } from "@rtbench/rtbench/runners";
 *
 * const floor: NoiseFloor = new Map([["http-json/default/requestsPerSecond", 3.4]]);
 * ```
 */
export type NoiseFloor = ReadonlyMap<string, number>;

function keyOf(r: BenchRecord, all: readonly BenchRecord[]): string {
  const same = all.filter((o) =>
    o.workload === r.workload && o.variant === r.variant && o.runtime.name === r.runtime.name
  );
  return `${r.workload}/${r.variant}/${same.length > 1 ? r.runtime.requested : r.runtime.name}`;
}

function geometricMean(values: readonly number[]): number | null {
  const positive = values.filter((v) => v > 0);
  return positive.length === 0 ? null : Math.exp(positive.reduce((a, v) => a + Math.log(v), 0) / positive.length);
}

/**
 * The independent figures of a pair of records (see the module): the headline, each run's p99 where both have latency,
 * and the server's CPU time per request at the fixed rate where both measured it. An A/A run's noise floor covers the
 * same figures, so that `compare --noise-floor` has a floor for each.
 *
 * @param base One record.
 * @param head The other (the arm B of an A/A run).
 * @returns Each figure's name and direction, the headline first.
 *
 * @example The stored pair: requests/s and each run's p99
 * ```ts
 * import { comparedFigures } from "./compare.ts";
 * import { readResultFile } from "../schema/read.ts";
 * const [base, head] = await Promise.all(["base", "head"].map((f) => readResultFile(`fixtures/results/${f}.json`)));
 * console.log(comparedFigures(base.records[0], head.records[0]).map((f) => f.figure)); // ["requestsPerSecond", "latencyUs.p99"]
 * ```
 */
export function comparedFigures(base: BenchRecord, head: BenchRecord): { figure: string; higherIsBetter: boolean }[] {
  const out = [{ figure: base.headline.figure, higherIsBetter: base.headline.higherIsBetter }];
  const latency = base.runs.some((r) => r.latencyUs) && head.runs.some((r) => r.latencyUs);
  // Every figure but the headline takes its direction from the one table of directions.
  const withDirection = (figure: string) => ({ figure, higherIsBetter: higherIsBetter(figure) === true });
  if (latency && base.headline.figure !== "latencyP99Us") out.push(withDirection("latencyUs.p99"));
  const cpu = serverCpuAtRate(base);
  if (cpu !== null && cpu === serverCpuAtRate(head) && cpu !== base.headline.figure) out.push(withDirection(cpu));
  return out;
}

/** Settings that change how many runs there are or how they are watched, not what one run measures. */
const PLAN_SETTINGS = new Set([
  "runs",
  "minRuns",
  "maxRuns",
  "ciTargetPercent",
  "sampleIntervalMs",
  "startTimeoutSec",
  // Measured after a run's window, on its server: they add figures, they do not change the window's.
  "cpuRate",
  "idleConnections",
]);

/** Why a pair measured differently cannot be compared (other load generator, other measurement settings), or null. */
function measuredDifferently(base: BenchRecord, head: BenchRecord): string | null {
  const keys = new Set([...Object.keys(base.settings), ...Object.keys(head.settings)]) as Set<
    keyof BenchRecord["settings"]
  >;
  const changed = [...keys].filter((k) => !PLAN_SETTINGS.has(k) && base.settings[k] !== head.settings[k])
    .map((k) => `${k} ${base.settings[k] ?? "unset"} → ${head.settings[k] ?? "unset"}`);
  if ((base.loadGenerator?.name ?? null) !== (head.loadGenerator?.name ?? null)) {
    changed.unshift(`load generator ${base.loadGenerator?.name ?? "none"} → ${head.loadGenerator?.name ?? "none"}`);
  }
  return changed.length > 0 ? `measured differently: ${changed.join(", ")}` : null;
}

function samples(r: BenchRecord, figure: string): number[] {
  if (figure.startsWith("latencyUs.")) {
    const key = figure.slice("latencyUs.".length) as "p50" | "p99";
    return r.runs.flatMap((run) => run.latencyUs ? [run.latencyUs[key]] : []);
  }
  return r.runs.flatMap((run) => typeof run.figures[figure] === "number" ? [run.figures[figure]] : []);
}

function compareFigure(
  base: BenchRecord,
  head: BenchRecord,
  runtime: string,
  figure: string,
  higherIsBetter: boolean,
  alpha: number,
): FigureComparison {
  const b = samples(base, figure);
  const h = samples(head, figure);
  const common = {
    workload: base.workload,
    variant: base.variant,
    runtime,
    versions: { base: base.runtime.version, head: head.runtime.version },
    figure,
    higherIsBetter,
    base: b,
    head: h,
    baseMean: geometricMean(b),
    headMean: geometricMean(h),
  };
  const notComparable = (note: string): FigureComparison => ({
    ...common,
    changePercent: null,
    ci95Percent: null,
    p: null,
    pAdjusted: null,
    verdict: "not comparable",
    note,
  });
  if (base.status !== "completed" || head.status !== "completed") {
    const side = base.status !== "completed" ? ["base", base] as const : ["head", head] as const;
    const why = side[1].error ? `: ${side[1].error.phase}: ${side[1].error.message}` : "";
    return notComparable(`${side[1].status} in ${side[0]}${why}`);
  }
  const different = measuredDifferently(base, head);
  if (different) return notComparable(different);
  // `--cpu-rate` is not one of the settings that make a pair measured differently (it adds a window after the measured
  // one), but per request at another rate is another figure.
  if (figure === serverCpuAtRate(base) && base.settings.cpuRate !== head.settings.cpuRate) {
    return notComparable(`measured at another fixed rate: cpuRate ${base.settings.cpuRate} → ${head.settings.cpuRate}`);
  }
  if (b.length < 2 || h.length < 2) {
    return notComparable(`needs ≥ 2 runs on each side (base ${b.length}, head ${h.length})`);
  }
  if (b.some((v) => !(v > 0)) || h.some((v) => !(v > 0))) return notComparable("a run's value is 0: no ratio");
  const r = unpairedRatio(h, b, alpha)!;
  const pct = (ratio: number) => (ratio - 1) * 100;
  const better = (r.ratio > 1) === higherIsBetter;
  return {
    ...common,
    changePercent: pct(r.ratio),
    ci95Percent: { low: pct(r.ci95!.low), high: pct(r.ci95!.high) },
    p: r.p,
    // Until Holm's correction over the whole comparison (see withHolm) the verdict is the test's own.
    pAdjusted: r.p,
    verdict: r.p! < alpha ? (better ? "faster" : "slower") : "no significant difference",
    note: null,
  };
}

/**
 * Compares one record of a base result with one of a head result, figure by
 * figure, with the same test as {@linkcode compareResults} (the trend over a
 * history and the findings of a report use it on pairs they choose).
 *
 * @param base The earlier (or reference) record.
 * @param head The record compared against `base`.
 * @param runtime The name the comparisons carry for the runtime.
 * @param alpha Significance level.
 * @returns The figures of {@linkcode comparedFigures}, the headline first; per pair, without Holm's correction.
 *
 * @example Node.js in the stored pair
 * ```ts
 * import { compareRecords } from "./compare.ts";
 * import { readResultFile } from "../schema/read.ts";
 * const node = async (file: string) =>
 *   (await readResultFile(`fixtures/results/${file}.json`)).records.find((r) => r.runtime.requested === "node")!;
 * const [rps] = compareRecords(await node("base"), await node("head"), "node");
 * console.log(rps.figure, rps.verdict); // "requestsPerSecond slower"
 * ```
 */
export function compareRecords(
  base: BenchRecord,
  head: BenchRecord,
  runtime: string,
  alpha = 0.05,
): FigureComparison[] {
  return comparedFigures(base, head).map(({ figure, higherIsBetter }) =>
    compareFigure(base, head, runtime, figure, higherIsBetter, alpha)
  );
}

/**
 * The figures with `pAdjusted` corrected by Holm over all the tested ones, and the verdicts that follow from it:
 * one family of tests, as one comparison is (the findings of a report, the steps of a version sweep or into one
 * result of a history use it on their own families).
 *
 * @param figures Comparisons from {@linkcode compareRecords}, one family.
 * @param alpha Significance level.
 * @returns The same comparisons, index for index, with `pAdjusted` and the verdict it gives.
 *
 * @example Two tests: a lone p of 0.04 is no longer significant
 * ```ts
 * import { compareRecords, withHolm } from "./compare.ts";
 * import { readResultFile } from "../schema/read.ts";
 * const [base, head] = await Promise.all(["base", "head"].map((f) => readResultFile(`fixtures/results/${f}.json`)));
 * const node = compareRecords(base.records[1], head.records[1], "node");
 * console.log(withHolm(node, 0.05).map((f) => f.pAdjusted !== null)); // [true, true]
 * ```
 */
export function withHolm(figures: readonly FigureComparison[], alpha: number): FigureComparison[] {
  const tested = figures.filter((f) => f.p !== null);
  const adjusted = new Map(tested.map((f, i) => [f, holmAdjust(tested.map((t) => t.p!))[i]]));
  return figures.map((f) => {
    const pAdjusted = adjusted.get(f);
    if (pAdjusted === undefined) return f;
    const better = ((f.headMean ?? 0) > (f.baseMean ?? 0)) === f.higherIsBetter;
    const verdict: Verdict = pAdjusted < alpha ? (better ? "faster" : "slower") : "no significant difference";
    return { ...f, pAdjusted, verdict };
  });
}

function differences(base: BenchResult, head: BenchResult): string[] {
  const notes: string[] = [];
  const be = base.environment;
  const he = head.environment;
  const pairs: [string, unknown, unknown][] = [
    ["CPU", be.cpuModel, he.cpuModel],
    ["logical CPUs", be.logicalCores, he.logicalCores],
    ["kernel", be.kernel, he.kernel],
    ["CPU governor", be.cpuGovernor, he.cpuGovernor],
    ["harness deno", be.harness.deno, he.harness.deno],
    ["load generator", base.settings.loadGenerator, head.settings.loadGenerator],
  ];
  for (const [what, a, b] of pairs) if (a !== b) notes.push(`${what} differs: ${a ?? "unknown"} → ${b ?? "unknown"}`);
  return notes;
}

function settingsNote(base: BenchRecord, head: BenchRecord): string | null {
  const changed = (Object.keys(base.settings) as (keyof BenchRecord["settings"])[])
    .filter((k) => base.settings[k] !== head.settings[k])
    .map((k) => `${k} ${base.settings[k]} → ${head.settings[k]}`);
  const genB = base.loadGenerator ? `${base.loadGenerator.name} ${base.loadGenerator.version}` : null;
  const genH = head.loadGenerator ? `${head.loadGenerator.name} ${head.loadGenerator.version}` : null;
  if (genB !== genH) changed.push(`load generator ${genB ?? "none"} → ${genH ?? "none"}`);
  return changed.length > 0 ? `${base.workload}/${base.variant}/${base.runtime.name}: ${changed.join(", ")}` : null;
}

/**
 * Compares `head` against `base`. Throws {@linkcode UsageError} when the two
 * have no workload × variant × runtime in common, or ran on different
 * machines, or on one machine at speeds apart beyond the calibrations' noise
 * (see `stats/machine.ts`): the message says which fields differ.
 *
 * @param base The earlier result.
 * @param head The later result, compared against `base`.
 * @param options The significance level.
 * @returns Every figure of every record in both results, with its change, interval, p-value and verdict.
 *
 * @example Compare two stored results
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { compareResults, readResultFile } from "@rtbench/rtbench/runners";
 *
 * const c = compareResults(
 *   await readResultFile("fixtures/results/base.json"),
 *   await readResultFile("fixtures/results/head.json"),
 * );
 * const node = c.figures.filter((f) => f.runtime === "node");
 * assertEquals(node.map((f) => [f.figure, f.verdict]), [
 *   // p = 0.016 alone, but not after Holm's correction over the comparison's six tests.
 *   ["requestsPerSecond", "no significant difference"],
 *   ["latencyUs.p99", "slower"],
 * ]);
 * ```
 */
export function compareResults(base: BenchResult, head: BenchResult, options: CompareOptions = {}): Comparison {
  const alpha = options.alpha ?? 0.05;
  if (!(alpha > 0 && alpha < 1)) throw new RangeError(`alpha must be between 0 and 1, got ${alpha}`);
  // A change between two machines, or one machine at two speeds, is the machines', not the runtimes'.
  const machine = machineMatch(base, head);
  if (!machine.comparable) throw new UsageError(`Cannot compare: ${machine.why}`);
  const headByKey = new Map(head.records.map((r) => [keyOf(r, head.records), r]));
  const baseKeys = new Set(base.records.map((r) => keyOf(r, base.records)));
  const figures: FigureComparison[] = [];
  const notes = [...(machine.note ? [machine.note] : []), ...differences(base, head)];
  const onlyInBase: string[] = [];
  for (const b of base.records) {
    const key = keyOf(b, base.records);
    const h = headByKey.get(key);
    if (!h) {
      onlyInBase.push(key);
      continue;
    }
    const runtime = key.slice(`${b.workload}/${b.variant}/`.length);
    const note = settingsNote(b, h);
    if (note) notes.push(`settings differ for ${note}`);
    if (b.headline.figure !== h.headline.figure) {
      notes.push(`${key}: headline figure differs (${b.headline.figure} → ${h.headline.figure})`);
    }
    figures.push(...compareRecords(b, h, runtime, alpha));
  }
  const onlyInHead = head.records.map((r) => keyOf(r, head.records)).filter((k) => !baseKeys.has(k));
  if (figures.length === 0) {
    throw new UsageError("Cannot compare: the two results have no workload × variant × runtime in common");
  }
  const floor = options.noiseFloor;
  if (floor && floor.size > 0) notes.push(`noise floor from an A/A run: ${floor.size} figures`);
  return {
    alpha,
    startedAt: { base: base.startedAt, head: head.startedAt },
    figures: floor ? withFloor(withHolm(figures, alpha), floor) : withHolm(figures, alpha),
    onlyInBase,
    onlyInHead,
    notes,
  };
}

/**
 * The figures with every significant change smaller than its noise floor called `within noise floor`: the A/A run
 * says a difference that small cannot be told from the machine's own noise at its run count.
 *
 * @param figures Comparisons after Holm's correction.
 * @param floor The floor per `workload/variant/figure`, in percent.
 * @returns The same comparisons, index for index.
 *
 * @example A 2% change against a 3.4% floor
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { type FigureComparison, withFloor } from "./compare.ts";
 *
 * const f = { workload: "http-json", variant: "default", figure: "requestsPerSecond", verdict: "faster", changePercent: 2 };
 * const [within] = withFloor([f as FigureComparison], new Map([["http-json/default/requestsPerSecond", 3.4]]));
 * assertEquals(within.verdict, "within noise floor");
 * ```
 */
export function withFloor(figures: readonly FigureComparison[], floor: NoiseFloor): FigureComparison[] {
  return figures.map((f) => {
    const percent = floor.get(`${f.workload}/${f.variant}/${f.figure}`);
    if (percent === undefined || f.changePercent === null || (f.verdict !== "faster" && f.verdict !== "slower")) {
      return f;
    }
    // The size of a change either way as a ratio: +10% and −9.1% are the same step on the log scale.
    const ratio = 1 + f.changePercent / 100;
    const size = (Math.max(ratio, 1 / ratio) - 1) * 100;
    if (size >= percent) return f;
    return {
      ...f,
      verdict: "within noise floor",
      note: `${f.verdict}, but by less than the noise floor of ±${percent.toFixed(1)}% (A/A)`,
    };
  });
}

/**
 * The figures that got significantly worse by more than `thresholdPercent`
 * (for a lower-is-better figure, worse means higher).
 *
 * @param comparison A comparison from {@linkcode compareResults}.
 * @param thresholdPercent How much worse, in percent of base's mean, a figure must be to count.
 * @returns The figures that are significantly worse by more than `thresholdPercent`.
 *
 * @example Fail a CI job on a regression of more than 5%
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { compareResults, readResultFile, regressions } from "@rtbench/rtbench/runners";
 *
 * const base = await readResultFile("fixtures/results/base.json");
 * const head = await readResultFile("fixtures/results/head.json");
 * const worse = regressions(compareResults(base, head), 5);
 * assertEquals([...new Set(worse.map((f) => f.runtime))], ["node"]);
 * ```
 */
export function regressions(comparison: Comparison, thresholdPercent: number): FigureComparison[] {
  return comparison.figures.filter((f) =>
    f.verdict === "slower" && f.changePercent !== null &&
    (f.higherIsBetter ? -f.changePercent : f.changePercent) > thresholdPercent
  );
}

function signed(n: number, digits = 1): string {
  const text = Math.abs(n).toFixed(digits);
  return n > 0 ? `+${text}%` : n < 0 ? `−${text}%` : `${text}%`;
}

function value(figure: string, v: number | null): string {
  return v === null ? "–" : formatFigure(figure.split(".")[0], v);
}

function runtimeText(f: FigureComparison): string {
  const { base, head } = f.versions;
  if (base === head) return base ? `${f.runtime} ${base}` : f.runtime;
  return `${f.runtime} ${base ?? "?"} → ${head ?? "?"}`;
}

function verdictText(f: FigureComparison): string {
  if (f.verdict === "slower") return "✗ slower";
  if (f.verdict === "faster") return "✓ faster";
  if (f.verdict === "not comparable" || f.verdict === "within noise floor") return `${f.verdict}: ${f.note}`;
  return f.verdict;
}

/** The figure as compare tests it: the headline as named, the latency tail as each run's own p99. */
function figureText(figure: string): string {
  return figure === "latencyUs.p99" ? "latencyUs.p99 (per run)" : figure;
}

function rows(comparison: Comparison, regressed: Set<FigureComparison>): string[][] {
  return comparison.figures.map((f) => [
    `${f.workload} (${f.variant})`,
    runtimeText(f),
    figureText(f.figure),
    `${value(f.figure, f.baseMean)} (${f.base.length})`,
    `${value(f.figure, f.headMean)} (${f.head.length})`,
    f.changePercent === null ? "" : signed(f.changePercent),
    f.ci95Percent ? `${signed(f.ci95Percent.low)} … ${signed(f.ci95Percent.high)}` : "",
    f.pAdjusted === null ? "" : f.pAdjusted < 0.001 ? "<0.001" : f.pAdjusted.toFixed(3),
    verdictText(f) + (regressed.has(f) ? " (regression)" : ""),
  ]);
}

const HEADER = [
  "workload",
  "runtime",
  "figure",
  "base (runs)",
  "head (runs)",
  "change",
  "95% CI",
  "p (Holm)",
  "verdict",
];

/**
 * Renders a comparison as an aligned terminal table (`table`) or Markdown
 * (`md`), with a method line, the verdict tally and any notes. Figures that
 * regressed beyond `thresholdPercent` are marked.
 *
 * @param comparison A comparison from {@linkcode compareResults}.
 * @param format `table` for a terminal, `md` for Markdown.
 * @param thresholdPercent Marks figures that regressed by more than this percent.
 * @returns The rendered comparison.
 *
 * @example A Markdown table for a pull request
 * ```ts
 * import { assert } from "@std/assert";
 * import { compareResults, formatComparison, readResultFile } from "@rtbench/rtbench/runners";
 *
 * const base = await readResultFile("fixtures/results/base.json");
 * const head = await readResultFile("fixtures/results/head.json");
 * assert(formatComparison(compareResults(base, head), "md", 5).includes("| node"));
 * ```
 */
export function formatComparison(
  comparison: Comparison,
  format: "table" | "md" = "table",
  thresholdPercent?: number,
): string {
  const regressed = new Set(thresholdPercent === undefined ? [] : regressions(comparison, thresholdPercent));
  const body = rows(comparison, regressed);
  const method =
    `Welch's t-test on the logs of the per-run values (a ratio), two-sided, α = ${comparison.alpha} over all ${
      comparison.figures.filter((f) => f.p !== null).length
    } tests (p corrected by Holm); base and head = the runs' geometric means, change = head over base with its ${
      Math.round((1 - comparison.alpha) * 100)
    }% CI; latencyUs.p99 (per run) = each run's own p99 (reports show the p99 of all runs' responses merged)`;
  const tally = (["faster", "slower", "no significant difference", "within noise floor", "not comparable"] as const)
    .map((v) => [v, comparison.figures.filter((f) => f.verdict === v).length] as const)
    .filter(([, n]) => n > 0).map(([v, n]) => `${n} ${v}`).join(", ");
  const extra = [
    ...comparison.onlyInBase.map((k) => `only in base: ${k}`),
    ...comparison.onlyInHead.map((k) => `only in head: ${k}`),
    ...comparison.notes,
  ];
  const threshold = thresholdPercent === undefined ? [] : [
    regressed.size > 0
      ? `${regressed.size} regression${regressed.size > 1 ? "s" : ""} beyond ${thresholdPercent}%`
      : `no regression beyond ${thresholdPercent}%`,
  ];
  if (format === "md") {
    const cell = (t: string) => t.replace(/\|/g, "\\|");
    const line = (r: readonly string[]) => `| ${r.map(cell).join(" | ")} |`;
    return [
      `**rtbench compare** · base ${comparison.startedAt.base} · head ${comparison.startedAt.head}`,
      "",
      line(HEADER),
      `| --- | --- | --- | ---: | ---: | ---: | ---: | ---: | --- |`,
      ...body.map(line),
      "",
      `${tally}${threshold.length > 0 ? ` · ${threshold[0]}` : ""}. ${method}.`,
      ...(extra.length > 0 ? ["", ...extra.map((n) => `- ${n}`)] : []),
    ].join("\n") + "\n";
  }
  const sections: string[] = [];
  for (const group of new Set(body.map((r) => r[0]))) {
    const own = body.filter((r) => r[0] === group).map((r) => r.slice(1));
    sections.push(`${group}\n${alignTable([HEADER.slice(1), ...own], [2, 3, 4, 5, 6])}`);
  }
  return [
    `base ${comparison.startedAt.base} · head ${comparison.startedAt.head}`,
    "",
    sections.join("\n\n"),
    "",
    tally + (threshold.length > 0 ? ` · ${threshold[0]}` : ""),
    method,
    ...extra.map((n) => `note: ${n}`),
  ].join("\n") + "\n";
}
