/**
 * Ratios between two records' figures with a 95% confidence interval, computed on the log scale. Where the two were
 * measured in the same rounds (interleaved), each round gives one ratio and the interval is Student's t on the mean
 * of the rounds' log-ratios: the machine's state moves both runtimes together within a round, so the rounds' ratios
 * vary far less than either runtime's figure (on a shared 2-core machine: requests/s CV 8–10% per runtime, the
 * deno/node ratio CV 2%). Where they were not (a result measured runtime after runtime, or two result files), the
 * interval is Welch's on the runs' logs. On the log scale a ratio's interval never reaches 0 (a change never passes
 * −100%) and is the same read either way round (a/b's interval is the reciprocal of b/a's).
 *
 * @module
 */

import type { RunRecord } from "../schema/mod.ts";
import { tQuantile, tTwoSidedP } from "./student_t.ts";

/**
 * How a ratio's interval was had: `paired` from per-round ratios of runs measured in the same rounds, `duet` from
 * rounds where both servers were measured in the same seconds (`--pairing duet`), `unpaired` from two independent
 * samples (Welch's t-test on the logs).
 *
 * @example Say how a ratio was had
 * ```ts
 * import type { RatioMethod } from "@rtbench/rtbench/runners";
 *
 * const how = (m: RatioMethod) => m === "paired" ? "per-round ratios" : "runs measured apart";
 * ```
 */
export type RatioMethod = "paired" | "duet" | "unpaired";

/**
 * A ratio of one figure between two records (`a` over `b`), with its 95% confidence interval.
 *
 * @example Is a ranking stated?
 * ```ts
 * import type { RatioInterval } from "./paired.ts";
 *
 * const ranked = (r: RatioInterval) => r.ci95 !== null && (r.ci95.low > 1 || r.ci95.high < 1);
 * ```
 */
export interface RatioInterval {
  /** Paired by round, by duet round, or two independent samples. */
  readonly method: RatioMethod;
  /** Rounds paired (`paired`, `duet`), or the smaller of the two samples (`unpaired`). */
  readonly n: number;
  /** The estimate: the geometric mean of the rounds' ratios (`paired`), or the ratio of geometric means. */
  readonly ratio: number;
  /** 95% confidence interval of the ratio; null when there are too few values for one. */
  readonly ci95: { readonly low: number; readonly high: number } | null;
  /** Half-width of the interval in percent, on the log scale: `(e^(t·s/√n) − 1) × 100`; null without an interval. */
  readonly halfWidthPercent: number | null;
  /** Two-sided p-value of "the ratio is 1"; null without an interval. */
  readonly p: number | null;
  /** Sample standard deviation of the rounds' log-ratios (`paired`; ≈ the ratio's CV); null otherwise. */
  readonly stdevLog: number | null;
}

/**
 * The values of `figure` in runs of `a` and `b` that share a round, in round order: one `[a, b]` pair per round both
 * measured. A value that is missing, not finite or not positive leaves its round out (a ratio needs two positive
 * figures).
 *
 * @param a Runs of one record.
 * @param b Runs of another record of the same variant, measured in the same rounds.
 * @param figure The figure to pair.
 * @returns One pair per shared round.
 *
 * @example Round 2 of b is missing
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { roundPairs } from "./paired.ts";
 *
 * const run = (round: number, v: number) => ({ round, figures: { requestsPerSecond: v } });
 * const a = [run(0, 100), run(1, 110), run(2, 105)];
 * const b = [run(0, 50), run(1, 52)];
 * assertEquals(roundPairs(a, b, "requestsPerSecond"), [[100, 50], [110, 52]]);
 * ```
 */
export function roundPairs(
  a: readonly Pick<RunRecord, "round" | "figures">[],
  b: readonly Pick<RunRecord, "round" | "figures">[],
  figure: string,
): [number, number][] {
  const usable = (v: number | undefined): v is number => typeof v === "number" && Number.isFinite(v) && v > 0;
  const byRound = new Map<number, number>();
  for (const run of b) {
    if (run.round !== undefined && usable(run.figures[figure])) byRound.set(run.round, run.figures[figure]);
  }
  return a.flatMap((run) => {
    const other = run.round === undefined ? undefined : byRound.get(run.round);
    return run.round !== undefined && usable(run.figures[figure]) && other !== undefined
      ? [[run.figures[figure], other] as [number, number]]
      : [];
  });
}

function meanSd(values: readonly number[]): [number, number] {
  const mean = values.reduce((s, v) => s + v, 0) / values.length;
  const sd = values.length > 1 ? Math.sqrt(values.reduce((s, v) => s + (v - mean) ** 2, 0) / (values.length - 1)) : 0;
  return [mean, sd];
}

/**
 * The interval `e^(m ± half)`, its half-width in percent and p, from the mean log `m`, its standard error and df.
 *
 * @param method How the values were paired.
 * @param n The number of values.
 * @param m The mean log-ratio.
 * @param se Its standard error.
 * @param df Degrees of freedom of the t distribution.
 * @param alpha 1 − the interval's confidence.
 * @param stdevLog The values' standard deviation on the log scale, kept on the result.
 * @returns The ratio with its interval.
 *
 * @example A mean log of ln 2 with a tenth's standard error
 * ```ts
 * import { assertAlmostEquals } from "@std/assert";
 * import { ratioOnLogScale } from "./paired.ts";
 *
 * assertAlmostEquals(ratioOnLogScale("paired", 5, Math.log(2), 0.1, 4, 0.05, 0.22).ratio, 2);
 * ```
 */
export function ratioOnLogScale(
  method: RatioMethod,
  n: number,
  m: number,
  se: number,
  df: number,
  alpha: number,
  stdevLog: number | null,
): RatioInterval {
  if (se === 0) {
    // No spread at all: the ratio is what every value says, and any difference from 1 is certain.
    return {
      method,
      n,
      ratio: Math.exp(m),
      ci95: { low: Math.exp(m), high: Math.exp(m) },
      halfWidthPercent: 0,
      p: m === 0 ? 1 : 0,
      stdevLog,
    };
  }
  const half = tQuantile(df, alpha) * se;
  return {
    method,
    n,
    ratio: Math.exp(m),
    ci95: { low: Math.exp(m - half), high: Math.exp(m + half) },
    halfWidthPercent: (Math.exp(half) - 1) * 100,
    p: tTwoSidedP(m / se, df),
    stdevLog,
  };
}

/**
 * The ratio a/b from pairs measured in the same rounds: Student's t on the rounds' log-ratios (a paired t-test on
 * the logs), exponentiated back. Null without a pair; one pair gives the ratio without an interval.
 *
 * @param pairs `[a, b]` per round, both positive (see {@linkcode roundPairs}).
 * @param alpha Significance level; the interval is the `1 − alpha` one. @default {0.05}
 * @returns The geometric mean of the rounds' ratios with its interval.
 *
 * @example Rounds whose ratios are e^0.10, e^0.12 and e^0.14
 * ```ts
 * import { assertAlmostEquals } from "@std/assert";
 * import { pairedRatio } from "./paired.ts";
 *
 * const r = pairedRatio([[Math.exp(0.10), 1], [Math.exp(0.12), 1], [Math.exp(0.14), 1]])!;
 * // mean log 0.12, s = 0.02, t(2) = 4.302653: e^(0.12 ± 4.302653 · 0.02 / √3)
 * assertAlmostEquals(r.ci95!.low, Math.exp(0.12 - 0.0496828), 1e-6);
 * ```
 */
export function pairedRatio(pairs: readonly (readonly [number, number])[], alpha = 0.05): RatioInterval | null {
  if (pairs.length === 0) return null;
  const logs = pairs.map(([a, b]) => Math.log(a / b));
  const [m, sd] = meanSd(logs);
  const n = logs.length;
  if (n < 2) {
    return { method: "paired", n, ratio: Math.exp(m), ci95: null, halfWidthPercent: null, p: null, stdevLog: null };
  }
  return ratioOnLogScale("paired", n, m, sd / Math.sqrt(n), n - 1, alpha, sd);
}

/**
 * The ratio a/b of two independent samples: Welch's t-test on the logs, exponentiated back (the ratio of geometric
 * means). Null when a side has no positive value; without two on each side, the ratio without an interval.
 *
 * @param a One record's per-run values.
 * @param b The other's.
 * @param alpha Significance level. @default {0.05}
 * @returns The ratio of geometric means with its interval.
 *
 * @example Two runs each, no spread on the log scale within either
 * ```ts
 * import { assertAlmostEquals } from "@std/assert";
 * import { unpairedRatio } from "./paired.ts";
 *
 * assertAlmostEquals(unpairedRatio([200, 200], [100, 100])!.ratio, 2, 1e-12);
 * ```
 */
export function unpairedRatio(a: readonly number[], b: readonly number[], alpha = 0.05): RatioInterval | null {
  const la = a.filter((v) => Number.isFinite(v) && v > 0).map(Math.log);
  const lb = b.filter((v) => Number.isFinite(v) && v > 0).map(Math.log);
  if (la.length === 0 || lb.length === 0) return null;
  const [ma, sa] = meanSd(la);
  const [mb, sb] = meanSd(lb);
  const m = ma - mb;
  const n = Math.min(la.length, lb.length);
  if (n < 2) {
    return { method: "unpaired", n, ratio: Math.exp(m), ci95: null, halfWidthPercent: null, p: null, stdevLog: null };
  }
  const qa = sa ** 2 / la.length;
  const qb = sb ** 2 / lb.length;
  const se = Math.sqrt(qa + qb);
  const df = se === 0
    ? la.length + lb.length - 2
    : (qa + qb) ** 2 / (qa ** 2 / (la.length - 1) + qb ** 2 / (lb.length - 1));
  return ratioOnLogScale("unpaired", n, m, se, df, alpha, null);
}

/**
 * The ratio of `figure` between records `a` and `b`: paired by round when both were interleaved in the same rounds
 * (`paired`), else two independent samples. Null when either has no usable value.
 *
 * @param a Runs of one record.
 * @param b Runs of the other.
 * @param figure The figure.
 * @param paired Whether the two records' runs were measured in the same rounds.
 * @param alpha Significance level. @default {0.05}
 * @returns The ratio a/b with its interval.
 *
 * @example The same runs read paired and unpaired
 * ```ts
 * import { assert } from "@std/assert";
 * import { ratioOf } from "./paired.ts";
 *
 * // Both move together from round to round: each alone varies by ±10%, their ratio by ±1%.
 * const run = (round: number, v: number) => ({ round, figures: { rps: v } });
 * const a = [run(0, 200), run(1, 240), run(2, 180)].map((r, i) => ({ ...r, figures: { rps: r.figures.rps * [1, 1.01, 0.99][i] } }));
 * const b = [run(0, 100), run(1, 120), run(2, 90)];
 * const paired = ratioOf(a, b, "rps", true)!;
 * const unpaired = ratioOf(a, b, "rps", false)!;
 * assert(paired.halfWidthPercent! < 5 && unpaired.halfWidthPercent! > 20);
 * ```
 */
export function ratioOf(
  a: readonly Pick<RunRecord, "round" | "figures">[],
  b: readonly Pick<RunRecord, "round" | "figures">[],
  figure: string,
  paired: boolean,
  alpha = 0.05,
): RatioInterval | null {
  if (paired) return pairedRatio(roundPairs(a, b, figure), alpha);
  const values = (runs: typeof a) =>
    runs.flatMap((r) => typeof r.figures[figure] === "number" ? [r.figures[figure]] : []);
  return unpairedRatio(values(a), values(b), alpha);
}

/**
 * The smallest change a paired comparison of `n` rounds detects with the given power, in percent, when the rounds'
 * log-ratios spread with standard deviation `stdevLog` (an A/A run's): `e^((t₁₋α/₂ + t_power) · s/√n) − 1`, both
 * quantiles of Student's t with n − 1 degrees of freedom. Null for fewer than two rounds.
 *
 * @param stdevLog Standard deviation of per-round log-ratios (from an A/A run).
 * @param n Rounds of the comparison.
 * @param alpha Two-sided significance level. @default {0.05}
 * @param power Chance of detecting a change of that size. @default {0.8}
 * @returns The smallest detectable change in percent.
 *
 * @example Five rounds whose ratios spread by 2%
 * ```ts
 * import { detectableChangePercent } from "./paired.ts";
 * // t(4) quantiles 2.776445 (97.5%) and 0.940965 (80%): e^(3.71741 · 0.02 / √5) − 1 = 3.38%
 * console.log(detectableChangePercent(0.02, 5)!.toFixed(2)); // "3.38"
 * ```
 */
export function detectableChangePercent(stdevLog: number, n: number, alpha = 0.05, power = 0.8): number | null {
  if (n < 2) return null;
  if (!(power > 0 && power < 1)) throw new RangeError(`power must be between 0 and 1, got ${power}`);
  const df = n - 1;
  // One-sided quantile at `power` = the two-sided quantile at 2(1 − power).
  const t = tQuantile(df, alpha) + (power > 0.5 ? tQuantile(df, 2 * (1 - power)) : -tQuantile(df, 2 * power));
  return (Math.exp(t * stdevLog / Math.sqrt(n)) - 1) * 100;
}
