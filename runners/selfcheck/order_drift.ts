/**
 * Does interleaving keep a shared machine's drift out of the comparison
 * (`runners/dev/order_drift.ts`)? Runs `deno task bench --workload http-json` on
 * two runtimes with `--order rotate` and with `--order blocked`, alternately,
 * and compares how much the per-run ratio of the two runtimes' requests/s
 * varies under each order. With runs interleaved, run i of both runtimes is
 * measured back to back, so drift moves both and the ratio stays put; blocked,
 * run i of the second runtime comes minutes after the first's.
 *
 * @module
 */

import type { BenchResult, RunOrder } from "../schema/mod.ts";
import { summarize } from "../stats/mod.ts";
import { alignTable, formatCount } from "../report/mod.ts";
import { benchProcess } from "./bench_process.ts";

/** What {@linkcode orderDrift} measures. */
export interface OrderDriftOptions {
  /** The two runtimes, as requested: the ratio is the first's requests/s over the second's. */
  readonly runtimes: readonly [string, string];
  /** Runs per suite (rounds of the interleaved order). */
  readonly runs: number;
  /** Suites per order; the order that goes first alternates. */
  readonly repeats: number;
  /** Measured seconds per run. */
  readonly durationSec: number;
  /** Warm-up seconds per run. */
  readonly warmupSec: number;
  /** Stops it. */
  readonly signal?: AbortSignal;
  /** Called after every suite with its order and ratios. */
  readonly onSuite?: (order: RunOrder, ratios: readonly number[]) => void;
}

/** The ratios each order gave, and how much they varied. */
export interface OrderDriftRow {
  /** `rotate` or `blocked`. */
  readonly order: RunOrder;
  /** Per run: the first runtime's requests/s over the second's, every suite in turn. */
  readonly ratios: readonly number[];
  /** Per suite: the coefficient of variation of its ratios, in percent. */
  readonly suiteCvPercent: readonly number[];
  /** Requests/s of each runtime, every run. */
  readonly requestsPerSecond: readonly [readonly number[], readonly number[]];
}

/** Coefficient of variation in percent: sample standard deviation over the mean. */
export function cvPercent(values: readonly number[]): number {
  const s = summarize(values);
  return s.mean === 0 ? 0 : (s.stdev / s.mean) * 100;
}

/** Per run index, the two runtimes' requests/s of one suite. */
function pairs(result: BenchResult, runtimes: readonly [string, string]): [number[], number[]] {
  const runsOf = (requested: string) => {
    const record = result.records.find((r) => r.runtime.requested === requested);
    if (!record || record.status !== "completed") {
      throw new Error(`${requested}: ${record?.error?.message ?? record?.status ?? "no record"}`);
    }
    return record.runs.toSorted((a, b) => a.index - b.index).map((r) => r.figures.requestsPerSecond);
  };
  return [runsOf(runtimes[0]), runsOf(runtimes[1])];
}

/**
 * Alternates suites with `--order rotate` and `--order blocked` and returns
 * the per-run ratios of each.
 *
 * @param options The runtimes, runs, repeats and load settings.
 * @returns One row per order.
 *
 * @example
 * ```ts ignore
 * import { formatOrderDrift, orderDrift } from "./order_drift.ts";
 * const rows = await orderDrift({ runtimes: ["deno", "node"], runs: 5, repeats: 2, durationSec: 3, warmupSec: 1 });
 * console.log(formatOrderDrift(rows, ["deno", "node"]));
 * ```
 */
export async function orderDrift(options: OrderDriftOptions): Promise<OrderDriftRow[]> {
  const seen = new Map<RunOrder, { ratios: number[]; cv: number[]; a: number[]; b: number[] }>([
    ["rotate", { ratios: [], cv: [], a: [], b: [] }],
    ["blocked", { ratios: [], cv: [], a: [], b: [] }],
  ]);
  for (let repeat = 0; repeat < options.repeats; repeat++) {
    const orders: RunOrder[] = repeat % 2 === 0 ? ["rotate", "blocked"] : ["blocked", "rotate"];
    for (const order of orders) {
      const result = await benchProcess([
        "--workload=http-json",
        `--runtime=${options.runtimes.join(",")}`,
        `--runs=${options.runs}`,
        `--duration=${options.durationSec}`,
        `--warmup=${options.warmupSec}`,
        `--order=${order}`,
        // Only requests/s is compared: no fixed-rate or idle-connection phase.
        "--cpu-rate=0",
        "--idle-connections=0",
      ], options.signal);
      const [a, b] = pairs(result, options.runtimes);
      const ratios = a.map((v, i) => v / b[i]);
      const s = seen.get(order)!;
      s.ratios.push(...ratios);
      s.cv.push(cvPercent(ratios));
      s.a.push(...a);
      s.b.push(...b);
      options.onSuite?.(order, ratios);
    }
  }
  return [...seen].map(([order, s]) => ({
    order,
    ratios: s.ratios,
    suiteCvPercent: s.cv,
    requestsPerSecond: [s.a, s.b],
  }));
}

/**
 * The rows as `runners/dev/order_drift.ts` prints them.
 *
 * @param rows What {@linkcode orderDrift} returned.
 * @param runtimes The two runtimes, in ratio order.
 * @returns A table: per order, the ratio's median and coefficient of variation, and each runtime's.
 *
 * @example
 * ```ts
 * import { assertStringIncludes } from "@std/assert";
 * import { formatOrderDrift } from "./order_drift.ts";
 *
 * const text = formatOrderDrift([
 *   { order: "rotate", ratios: [2, 2.1], suiteCvPercent: [3.4], requestsPerSecond: [[100, 105], [50, 50]] },
 * ], ["deno", "node"]);
 * assertStringIncludes(text, "rotate");
 * ```
 */
export function formatOrderDrift(rows: readonly OrderDriftRow[], runtimes: readonly [string, string]): string {
  const table = [[
    "order",
    `${runtimes[0]}/${runtimes[1]} (median)`,
    "CV of the ratio",
    "CV per suite",
    `CV ${runtimes[0]}`,
    `CV ${runtimes[1]}`,
    "runs",
  ]];
  for (const row of rows) {
    table.push([
      row.order,
      summarize(row.ratios).median.toFixed(3),
      `${cvPercent(row.ratios).toFixed(1)}%`,
      row.suiteCvPercent.map((v) => `${v.toFixed(1)}%`).join(" "),
      `${cvPercent(row.requestsPerSecond[0]).toFixed(1)}%`,
      `${cvPercent(row.requestsPerSecond[1]).toFixed(1)}%`,
      `${row.ratios.length} (${formatCount(summarize(row.requestsPerSecond[0]).median)}/s vs ${
        formatCount(summarize(row.requestsPerSecond[1]).median)
      }/s)`,
    ]);
  }
  return alignTable(table, [1, 2, 4, 5]);
}
