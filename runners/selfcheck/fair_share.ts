/**
 * Multi-core at equal CPU (`runners/dev/fair_share.ts`): the suite once per core
 * budget (`--server-cpus 1`, `2`, ... `all`), each runtime in its own
 * multi-core form at that budget, then the fair-share overview of the records
 * ({@linkcode fairShare}): the rate, the CPU each server actually used, the
 * rate per used core and the CPU time per request, a line per budget with the
 * client's own CPUs stated and a line whose client shares the server's CPUs
 * marked.
 *
 * @module
 */

import { UsageError } from "../platform/mod.ts";
import { fairShare, type FairShareTable } from "../report/mod.ts";
import type { BenchResult } from "../schema/mod.ts";
import { benchProcess } from "./bench_process.ts";

/**
 * What {@linkcode fairShareRun} measures.
 *
 * @example http-json on three runtimes at one and two cores
 * ```ts
 * import type { FairShareOptions } from "./fair_share.ts";
 *
 * const options: FairShareOptions = {
 *   budgets: [1, 2],
 *   bench: ["--workload=http-json", "--runtime=deno,node,bun", "--runs=3"],
 *   signal: AbortSignal.timeout(3_600_000),
 * };
 * ```
 */
export interface FairShareOptions {
  /** Server CPUs of each budget, fewest first. */
  readonly budgets: readonly number[];
  /** Flags of the bench command run at every budget (workloads, runtimes, durations). */
  readonly bench: readonly string[];
  /** Stops it. */
  readonly signal: AbortSignal;
  /** Called with each budget's result as it is measured. */
  readonly onBudget?: (cores: number, result: BenchResult) => void | Promise<void>;
}

/**
 * Parses `--budgets` (`1,2,all`) against the CPUs rtbench may use: whole numbers from 1 to `allowed`, or `all`;
 * duplicates (2 and all on two CPUs) counted once, fewest first.
 *
 * @example On a 2-CPU machine, 1, 2 and all are two budgets
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { parseBudgets } from "./fair_share.ts";
 *
 * assertEquals(parseBudgets("1,2,all", 2), [1, 2]);
 * ```
 */
export function parseBudgets(text: string, allowed: number): number[] {
  const budgets = text.split(",").map((part) => {
    const p = part.trim();
    if (p === "all") return allowed;
    const n = Number(p);
    if (!/^\d+$/.test(p) || n < 1) throw new UsageError(`--budgets must list whole numbers of CPUs or all, got "${p}"`);
    if (n > allowed) throw new UsageError(`--budgets ${n}: only ${allowed} CPUs may be used here`);
    return n;
  });
  return [...new Set(budgets)].sort((a, b) => a - b);
}

/**
 * Runs the bench command once per budget (in a fresh process, as a user runs it) and returns every result with the
 * overview of their multi-core records.
 *
 * @example
 * ```ts ignore
 * import { fairShareRun } from "./fair_share.ts";
 * import { formatFairShare } from "../report/mod.ts";
 * const { tables } = await fairShareRun({ budgets: [1, 2], bench: ["--workload=http-json"], signal: new AbortController().signal });
 * console.log(formatFairShare(tables));
 * ```
 */
export async function fairShareRun(
  options: FairShareOptions,
): Promise<{ results: BenchResult[]; tables: FairShareTable[] }> {
  const results: BenchResult[] = [];
  for (const cores of options.budgets) {
    options.signal.throwIfAborted();
    const result = await benchProcess([...options.bench, `--server-cpus=${cores}`], options.signal);
    results.push(result);
    await options.onBudget?.(cores, result);
  }
  return { results, tables: fairShare(results.flatMap((r) => r.records)) };
}
