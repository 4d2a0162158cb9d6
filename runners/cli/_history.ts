// `bench --history <dir>` and `--fail-on-regression <pct>`: the history is read before anything runs (so a bad
// directory or a corrupted file in it is refused up front), the new result is kept in it at the end, and compared
// with the last comparable result kept there, by compare's test.

import { isUsageError, UsageError } from "./_usage.ts";
import type { BenchResult } from "../schema/mod.ts";
import {
  comparableIn,
  compareResults,
  formatComparison,
  type HistoryEntry,
  keepInHistory,
  type NoiseFloor,
  readHistory,
  regressions,
} from "../report/mod.ts";

/** The results already in `dir`: none when it does not exist yet (it is made at the end). */
export async function openHistory(dir: string): Promise<HistoryEntry[]> {
  const info = await Deno.stat(dir).catch(() => null);
  if (info === null) return [];
  if (!info.isDirectory) throw new UsageError(`--history: ${dir} is not a directory`);
  try {
    return await readHistory(dir);
  } catch (error) {
    if (isUsageError(error)) throw new UsageError(`--history: ${error.message}`, { cause: error });
    throw error;
  }
}

async function sameDirectory(dir: string, file: string): Promise<boolean> {
  const parent = file.includes("/") ? file.slice(0, file.lastIndexOf("/")) || "/" : ".";
  const [a, b] = await Promise.all([dir, parent].map((p) => Deno.realPath(p).catch(() => p)));
  return a === b;
}

/**
 * Keeps `result` in `dir` (unless `out`, the result file, is already there); with a threshold, compares it with the last comparable result of `history` and
 * returns whether a figure regressed beyond it. Everything said goes to `say` (stderr).
 */
export async function keepAndCompare(
  dir: string,
  history: readonly HistoryEntry[],
  result: BenchResult,
  out: string,
  thresholdPercent: number | undefined,
  say: (line: string) => void,
  noiseFloor?: NoiseFloor,
): Promise<boolean> {
  // A result file written into the history is kept already; a copy would count the run twice in a trend.
  say(`Result kept in ${await sameDirectory(dir, out) ? out : await keepInHistory(dir, result)}`);
  if (thresholdPercent === undefined) return false;
  const { entry: against, passedOver } = comparableIn(history, result);
  // Why each newer result with something in common was not compared: a regression gate that stays silent says so.
  for (const p of passedOver.slice(0, 5)) say(`--fail-on-regression: not compared with ${p.file}: ${p.why}`);
  if (against === null) {
    say(`--fail-on-regression: no earlier result in ${dir} from this machine with a workload × runtime in common`);
    return false;
  }
  const comparison = compareResults(against.result, result, { noiseFloor });
  say(`Compared with ${against.file}:\n${formatComparison(comparison, "table", thresholdPercent).trimEnd()}`);
  const worse = regressions(comparison, thresholdPercent);
  for (const f of worse) {
    say(
      `rtbench: regression against ${against.file}: ${f.workload}/${f.variant}/${f.runtime} ${f.figure} ${
        f.changePercent! > 0 ? "+" : ""
      }${f.changePercent!.toFixed(1)}% (worse than ${thresholdPercent}%)`,
    );
  }
  return worse.length > 0;
}
