/**
 * A history: a directory that keeps every result a machine produced
 * (`deno task bench --history <dir>`), read back in time order by
 * `deno task trend` and by `--fail-on-regression`, which compares a new
 * result against the last comparable one kept there.
 *
 * @example Keep a result and read the history back
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { keepInHistory, readHistory, readResultFile } from "@rtbench/rtbench/runners";
 *
 * const dir = await Deno.makeTempDir();
 * await keepInHistory(dir, await readResultFile("fixtures/results/base.json"));
 * assertEquals((await readHistory(dir)).length, 1);
 * await Deno.remove(dir, { recursive: true });
 * ```
 *
 * @module
 */

import { UsageError } from "../base/mod.ts";
import { type BenchResult, readResultFile, type WriteOptions, writeResult } from "../schema/mod.ts";
import { machineMatch } from "../stats/mod.ts";

/**
 * One result of a history, with the file it was read from.
 *
 * @example The oldest result of the stored history
 * ```ts
 * import { type HistoryEntry, readHistory } from "@rtbench/rtbench/runners";
 *
 * const [oldest]: HistoryEntry[] = await readHistory("fixtures/history");
 * console.log(oldest.file, oldest.result.startedAt); // "fixtures/history/rtbench-20261119-140940.json" "2026-11-19T14:09:40.525Z"
 * ```
 */
export interface HistoryEntry {
  /** The file, inside the history directory. */
  readonly file: string;
  /** The result. */
  readonly result: BenchResult;
}

/**
 * Every result in `dir` (`*.json`), oldest first by `startedAt`. A file that
 * is not a result is a {@linkcode UsageError} naming it; so is a missing
 * directory.
 *
 * @param dir The history directory.
 * @returns The results, oldest first.
 *
 * @example The stored fixture history
 * ```ts
 * import { readHistory } from "./history.ts";
 * console.log((await readHistory("fixtures/history")).length); // 4
 * ```
 */
export async function readHistory(dir: string): Promise<HistoryEntry[]> {
  const names: string[] = [];
  try {
    for await (const entry of Deno.readDir(dir)) {
      if (entry.isFile && entry.name.endsWith(".json") && !entry.name.startsWith(".")) names.push(entry.name);
    }
  } catch (error) {
    const why = error instanceof Deno.errors.NotFound ? "no such directory" : (error as Error).message.split(":")[0];
    throw new UsageError(`Cannot read history ${dir}: ${why}`);
  }
  const entries = await Promise.all(
    names.sort().map(async (name) => ({ file: `${dir}/${name}`, result: await readResultFile(`${dir}/${name}`) })),
  );
  return entries.sort((a, b) => a.result.startedAt.localeCompare(b.result.startedAt));
}

/**
 * Copies `result` into the history `dir` (made if missing) as
 * `rtbench-<start time>.json`, never over an earlier one.
 *
 * @param dir The history directory.
 * @param result The result to keep.
 * @param options Who answers for the temporary file written before the rename ({@linkcode writeResult}).
 * @returns The path written.
 *
 * @example Keep a stored result in a new history
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { keepInHistory, readResultFile } from "@rtbench/rtbench/runners";
 *
 * const dir = await Deno.makeTempDir();
 * const path = await keepInHistory(`${dir}/history`, await readResultFile("fixtures/results/base.json"));
 * assertEquals(path, `${dir}/history/rtbench-20261121-140940.json`);
 * await Deno.remove(dir, { recursive: true });
 * ```
 */
export async function keepInHistory(dir: string, result: BenchResult, options: WriteOptions = {}): Promise<string> {
  await Deno.mkdir(dir, { recursive: true });
  const stamp = result.startedAt.replace(/[-:]/g, "").replace("T", "-").slice(0, 15);
  for (let n = 1;; n++) {
    const path = `${dir}/rtbench-${stamp}${n === 1 ? "" : `-${n}`}.json`;
    const taken = await Deno.stat(path).then(() => true, () => false);
    if (taken) continue;
    await writeResult(path, result, options);
    return path;
  }
}

/**
 * Whether two results ran on the same machine in the same state (its identity, and calibrations within their
 * noise; see `stats/machine.ts`): only then are their figures compared.
 *
 * @param a A result.
 * @param b Another result.
 * @returns Whether the machines match.
 *
 * @example The stored pair ran on one machine
 * ```ts
 * import { sameMachine } from "./history.ts";
 * import { readResultFile } from "../schema/mod.ts";
 * const [base, head] = await Promise.all(["base", "head"].map((f) => readResultFile(`fixtures/results/${f}.json`)));
 * console.log(sameMachine(base, head)); // true
 * ```
 */
export function sameMachine(a: BenchResult, b: BenchResult): boolean {
  return machineMatch(a, b).comparable;
}

/** `workload/variant/runtime` of every completed record, the keys compare matches. */
function completedKeys(result: BenchResult): Set<string> {
  return new Set(
    result.records.filter((r) => r.status === "completed").map((r) => `${r.workload}/${r.variant}/${r.runtime.name}`),
  );
}

/**
 * The newest result in `history` that `result` can be compared with: started
 * before it, on the same machine in the same state ({@linkcode sameMachine}),
 * with at least one workload × variant × runtime completed in both. Null when
 * there is none.
 *
 * @param history A history, oldest first.
 * @param result The new result.
 * @returns The entry to compare against, or null.
 *
 * @example What a result would be compared with
 * ```ts
 * import { lastComparable, readHistory } from "./history.ts";
 * import { readResultFile } from "../schema/mod.ts";
 * const head = await readResultFile("fixtures/results/head.json");
 * console.log(lastComparable(await readHistory("fixtures/history"), head) !== null); // true
 * ```
 */
export function lastComparable(history: readonly HistoryEntry[], result: BenchResult): HistoryEntry | null {
  return comparableIn(history, result).entry;
}

/**
 * {@linkcode lastComparable}, and why each newer result with a workload × variant × runtime in common was passed
 * over (another machine, another speed), newest first.
 *
 * @param history A history, oldest first.
 * @param result The new result.
 * @returns The entry to compare against, or null, and the results passed over with the reason.
 *
 * @example
 * ```ts
 * import { comparableIn, readHistory } from "./history.ts";
 * import { readResultFile } from "../schema/mod.ts";
 * const head = await readResultFile("fixtures/results/head.json");
 * console.log(comparableIn(await readHistory("fixtures/history"), head).passedOver); // []
 * ```
 */
export function comparableIn(
  history: readonly HistoryEntry[],
  result: BenchResult,
): { entry: HistoryEntry | null; passedOver: { file: string; why: string }[] } {
  const keys = completedKeys(result);
  const passedOver: { file: string; why: string }[] = [];
  for (const entry of [...history].reverse()) {
    if (entry.result.startedAt >= result.startedAt) continue;
    if (![...completedKeys(entry.result)].some((k) => keys.has(k))) continue;
    const match = machineMatch(entry.result, result);
    if (match.comparable) return { entry, passedOver };
    passedOver.push({ file: entry.file, why: match.why! });
  }
  return { entry: null, passedOver };
}
