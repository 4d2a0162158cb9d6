/**
 * How many runs a record gets: exactly `runs`, or with `--min-runs` /
 * `--max-runs` as many as it takes for the 95% confidence interval of the
 * headline figure (Student's t, see `stats.ts`) to be narrower than
 * `--ci-target` percent of its mean on each side.
 *
 * @module
 */

import type { RunSettings, Warning } from "../schema/mod.ts";
import { summarize } from "./summary.ts";
import type { RatioInterval } from "./paired.ts";

/** Fewest runs in adaptive mode when only `--max-runs` is given. */
export const DEFAULT_MIN_RUNS = 3;
/** Most runs in adaptive mode when only `--min-runs` is given. */
export const DEFAULT_MAX_RUNS = 10;
/** Target half-width of the 95% CI, percent of the mean. */
export const DEFAULT_CI_TARGET_PERCENT = 3;

/** The run plan a record follows. */
export interface RunPlan {
  /** Whether runs are added until the interval is narrow enough. */
  readonly adaptive: boolean;
  /** Fewest runs. */
  readonly min: number;
  /** Most runs. */
  readonly max: number;
  /** Target half-width, percent of the mean. */
  readonly ciTargetPercent: number;
}

/**
 * The plan for `settings`: adaptive when `minRuns` or `maxRuns` is set.
 *
 * @example
 * ```ts
 * import { runPlan } from "./adaptive.ts";
 * const s = { durationSec: 3, warmupSec: 1, connections: 100, runs: 2, pipelining: 1, keepAlive: true,
 *   requestTimeoutSec: 10, startTimeoutSec: 30, maxRuns: 8 };
 * console.log(runPlan(s)); // { adaptive: true, min: 3, max: 8, ciTargetPercent: 3 }
 * ```
 */
export function runPlan(settings: RunSettings): RunPlan {
  const ciTargetPercent = settings.ciTargetPercent ?? DEFAULT_CI_TARGET_PERCENT;
  if (settings.minRuns === undefined && settings.maxRuns === undefined) {
    return { adaptive: false, min: settings.runs, max: settings.runs, ciTargetPercent };
  }
  const min = settings.minRuns ?? Math.min(DEFAULT_MIN_RUNS, settings.maxRuns!);
  const max = settings.maxRuns ?? Math.max(min, DEFAULT_MAX_RUNS);
  return { adaptive: true, min, max, ciTargetPercent };
}

/** Half-width of the 95% CI of the mean in percent of the mean; null for fewer than two values. */
export function ciHalfWidthPercent(values: readonly number[]): number | null {
  if (values.length < 2) return null;
  const s = summarize(values);
  if (!s.ci95 || s.mean === 0) return null;
  // From the upper bound: the lower one is truncated at 0 and would understate the width.
  return ((s.ci95.high - s.mean) / Math.abs(s.mean)) * 100;
}

/**
 * Whether another run is due after `values` (the headline figure of each run so far).
 *
 * @example
 * ```ts
 * import { needsAnotherRun } from "./adaptive.ts";
 * const plan = { adaptive: true, min: 3, max: 10, ciTargetPercent: 3 };
 * console.log(needsAnotherRun(plan, [100, 101, 100])); // false
 * console.log(needsAnotherRun(plan, [100, 130, 80])); // true
 * ```
 */
export function needsAnotherRun(plan: RunPlan, values: readonly number[]): boolean {
  if (values.length < plan.min) return true;
  if (!plan.adaptive || values.length >= plan.max) return false;
  const half = ciHalfWidthPercent(values);
  return half === null || half > plan.ciTargetPercent;
}

/**
 * Half-width, in percent of the mean, past which a fixed number of runs gives an interval too wide to rank runtimes
 * by: two runtimes closer than this cannot be told apart (two runs of a noisy server print "0.0/s – 103,164/s").
 */
export const WIDE_CI_PERCENT = 10;

/**
 * A `ci-wide` warning when the headline's 95% CI is too wide to rank by: an adaptive record that stopped at its
 * maximum above its target, or a fixed number of runs (two or more) above {@linkcode WIDE_CI_PERCENT}. The same for
 * every kind: the run loop calls it.
 *
 * @example Two runs far apart
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { ciWarning } from "./adaptive.ts";
 *
 * const fixed = { adaptive: false, min: 2, max: 2, ciTargetPercent: 3 };
 * assertEquals(ciWarning(fixed, [50_000, 60_000], "requestsPerSecond")?.code, "ci-wide");
 * assertEquals(ciWarning(fixed, [50_000, 50_100, 50_050], "requestsPerSecond"), null);
 * ```
 */
export function ciWarning(plan: RunPlan, values: readonly number[], figure: string): Warning | null {
  if (!plan.adaptive) {
    const half = ciHalfWidthPercent(values);
    if (half === null || half <= WIDE_CI_PERCENT) return null;
    return {
      code: "ci-wide",
      message: `the 95% CI of ${figure} is ±${half.toFixed(1)}% of the mean after ${values.length} runs: too wide to ` +
        `rank runtimes closer than that (use more --runs, or --min-runs/--max-runs)`,
    };
  }
  if (values.length < plan.max) return null;
  const half = ciHalfWidthPercent(values);
  if (half === null || half <= plan.ciTargetPercent) return null;
  return {
    code: "ci-wide",
    message: `the 95% CI of ${figure} is still ±${half.toFixed(1)}% of the mean after ${values.length} runs ` +
      `(target ±${plan.ciTargetPercent}%): the machine is noisy, or raise --max-runs`,
  };
}

/**
 * A `ci-wide` warning for a record measured round by round with others, judged on the paired interval of its ratio
 * to the runtime it is least sure against (the widest of its pairs): runtimes are ranked by these intervals, not by
 * each runtime's own. The threshold is the one {@linkcode ciWarning} uses: `--ci-target` with adaptive runs, else
 * {@linkcode WIDE_CI_PERCENT}.
 *
 * @param plan The record's run plan.
 * @param pairs Each other runtime (as labelled in the message) with the ratio interval of this record against it.
 * @param figure The headline figure.
 * @returns The warning, or null when every pair's interval is narrow enough or none has one.
 *
 * @example Three rounds whose deno/node ratios spread by ±10%
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { pairedCiWarning } from "./adaptive.ts";
 * import { pairedRatio } from "./paired.ts";
 *
 * const plan = { adaptive: false, min: 3, max: 3, ciTargetPercent: 3 };
 * const wide = pairedRatio([[2.2, 1], [1.8, 1], [2.0, 1]])!;
 * assertEquals(pairedCiWarning(plan, [{ against: "node", interval: wide }], "requestsPerSecond")?.code, "ci-wide");
 * ```
 */
export function pairedCiWarning(
  plan: RunPlan,
  pairs: readonly { readonly against: string; readonly interval: RatioInterval }[],
  figure: string,
): Warning | null {
  const judged = pairs.filter((p) => p.interval.halfWidthPercent !== null);
  if (judged.length === 0) return null;
  const widest = judged.reduce((a, b) => b.interval.halfWidthPercent! > a.interval.halfWidthPercent! ? b : a);
  const half = widest.interval.halfWidthPercent!;
  const limit = plan.adaptive ? plan.ciTargetPercent : WIDE_CI_PERCENT;
  if (half <= limit) return null;
  const rounds = widest.interval.n;
  return {
    code: "ci-wide",
    message: `the paired 95% CI of ${figure} against ${widest.against} is ±${half.toFixed(1)}% after ${rounds} ` +
      `rounds: too wide to rank runtimes closer than that (${
        plan.adaptive
          ? `target ±${plan.ciTargetPercent}%: raise --max-runs`
          : "use more --runs, or --min-runs/--max-runs"
      })`,
  };
}

/**
 * The `single-run` warning for a record measured once: it has no interval, so every ratio to it is one measurement,
 * not a ranking (the default suite measures `postgres`, `install` and `fs` once to keep within its time).
 *
 * @param runs The record's measured runs.
 * @returns The warning, or null for any other number of runs.
 *
 * @example
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { singleRunWarning } from "./adaptive.ts";
 *
 * assertEquals(singleRunWarning(1)?.code, "single-run");
 * assertEquals(singleRunWarning(3), null);
 * ```
 */
export function singleRunWarning(runs: number): Warning | null {
  if (runs !== 1) return null;
  return {
    code: "single-run",
    message: "measured once: no interval, so its ratios to other runtimes are one measurement each, not a ranking " +
      "(--runs 3 or more gives one)",
  };
}
