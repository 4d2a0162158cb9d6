/**
 * The noise floor an A/A run publishes (`bench --aa`): one runtime measured as two arms, A and B, interleaved round
 * by round exactly as two runtimes would be. Their per-round ratios can differ from 1 only by the machine's noise, so
 * their spread says how far apart two runtimes must be before this machine, at this run count, can tell them apart:
 * the smallest change a paired comparison detects (α = 0.05, power 80%). `compare` and `--fail-on-regression` refuse
 * to call a change smaller than it.
 *
 * @module
 */

import type { BenchRecord, BenchResult, RunRecord } from "../schema/mod.ts";
import { detectableChangePercent, duetRatio, pairedRatio, type RatioInterval, roundPairs } from "../stats/mod.ts";
import { comparedFigures, type NoiseFloor } from "./compare.ts";

/**
 * One figure of one workload × variant of an A/A run.
 *
 * @example One line per figure
 * ```ts
 * import type { FloorRow } from "./noise_floor.ts";
 *
 * const line = (f: FloorRow) => `${f.workload}/${f.variant} ${f.figure}: ±${f.detectablePercent?.toFixed(1)}%`;
 * ```
 */
export interface FloorRow {
  /** Workload name. */
  readonly workload: string;
  /** Variant name. */
  readonly variant: string;
  /** The figure (`requestsPerSecond`, `latencyUs.p99`: each run's own p99, `serverCpuUsPerRequestAtRate`). */
  readonly figure: string;
  /** The arms' records, A then B. */
  readonly arms: readonly [BenchRecord, BenchRecord];
  /** A over B from the paired rounds, with its interval: 1 but for noise. */
  readonly interval: RatioInterval;
  /** Standard deviation of the rounds' log-ratios, in percent (≈ the CV of a per-round ratio). */
  readonly spreadPercent: number | null;
  /** The smallest change a paired comparison with as many rounds detects on this machine, in percent. */
  readonly detectablePercent: number | null;
}

/** A run's value of `figure`: a figure of its own, or `latencyUs.p99`, its latency's p99. */
function perRun(run: RunRecord, figure: string): number | undefined {
  return figure === "latencyUs.p99" ? run.latencyUs?.p99 : run.figures[figure];
}

function asFigure(runs: readonly RunRecord[], figure: string): Pick<RunRecord, "round" | "figures">[] {
  return runs.map((r) => {
    const v = perRun(r, figure);
    return { round: r.round, figures: v === undefined ? {} : { [figure]: v } };
  });
}

/**
 * Every figure's floor in an A/A result: per workload × variant whose two arms both completed, each figure `compare`
 * tests (the headline, each run's p99 where the runs have latency, the server's CPU time per request at the fixed
 * rate where both arms measured it). Empty for a result that is not an A/A run.
 *
 * @param result A result written by `bench --aa`.
 * @returns One row per workload × variant × figure, in the result's order.
 *
 * @example A result of two runtimes has no arms
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { floorRows } from "./noise_floor.ts";
 * import { readResultFile } from "../schema/read.ts";
 * assertEquals(floorRows(await readResultFile("fixtures/results/head.json")), []);
 * ```
 */
export function floorRows(result: BenchResult): FloorRow[] {
  const rows: FloorRow[] = [];
  const seen = new Set<string>();
  for (const a of result.records) {
    if (a.runtime.arm !== "A" || a.status !== "completed") continue;
    const b = result.records.find((r) =>
      r.runtime.arm === "B" && r.workload === a.workload && r.variant === a.variant && r.status === "completed"
    );
    const key = `${a.workload}/${a.variant}`;
    if (!b || seen.has(key)) continue;
    seen.add(key);
    for (const { figure } of comparedFigures(a, b)) {
      const interval = pairedRatio(roundPairs(asFigure(a.runs, figure), asFigure(b.runs, figure), figure));
      if (!interval) continue;
      const s = interval.stdevLog;
      rows.push({
        workload: a.workload,
        variant: a.variant,
        figure,
        arms: [a, b],
        interval,
        spreadPercent: s === null ? null : (Math.exp(s) - 1) * 100,
        detectablePercent: s === null ? null : detectableChangePercent(s, interval.n),
      });
    }
    // The same figure paired in duet (--pairing duet), beside the rounds' floor: what duet buys on this machine.
    const duet = a.duet?.find((d) => d.against === b.id);
    const r = duet &&
      duetRatio(duet.windows.map((w) => ({ ...w, aCpuUs: w.ratio, bCpuUs: 1, aAnswered: 1, bAnswered: 1 })));
    if (duet && r) {
      const s = r.stdevLog;
      rows.push({
        workload: a.workload,
        variant: a.variant,
        figure: `${duet.figure} (duet)`,
        arms: [a, b],
        interval: { method: "paired", ...r },
        spreadPercent: s === null ? null : (Math.exp(s) - 1) * 100,
        detectablePercent: s === null ? null : detectableChangePercent(s, r.n),
      });
    }
  }
  return rows;
}

/**
 * The noise floor of an A/A result for `compare` and `--fail-on-regression`: per `workload/variant/figure`, the
 * smallest change its run count detects on its machine. Throws a `RangeError` when the result is not an A/A run.
 *
 * @param result A result written by `bench --aa`.
 * @returns The floor in percent per `workload/variant/figure`.
 *
 * @example A result of two runtimes is no A/A run
 * ```ts
 * import { assertThrows } from "@std/assert";
 * import { noiseFloorOf, readResultFile } from "@rtbench/rtbench/runners";
 *
 * const head = await readResultFile("fixtures/results/head.json");
 * assertThrows(() => noiseFloorOf(head), RangeError, "not an A/A result");
 * ```
 */
export function noiseFloorOf(result: BenchResult): NoiseFloor {
  const rows = floorRows(result);
  if (rows.length === 0) {
    throw new RangeError("not an A/A result: no workload has two completed arms measured in the same rounds (--aa)");
  }
  return new Map(
    rows.flatMap((r) =>
      r.detectablePercent === null ? [] : [[`${r.workload}/${r.variant}/${r.figure}`, r.detectablePercent]]
    ),
  );
}
