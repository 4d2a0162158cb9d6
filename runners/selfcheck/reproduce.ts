/**
 * The published comparisons' claims, reproduced on this machine: each
 * article's experiment run once with its settings (all the claims it measures
 * share that run), and each claim's row: the published figures and ratio,
 * rtbench's ratio paired round by round with its 95% interval, whether the
 * ranking holds, and the command. The suite runner is passed in (the CLI
 * passes `run()`), so that this layer composes measurements without owning
 * them.
 *
 * @module
 */

import type { BenchResult } from "../schema/mod.ts";
import {
  claimNote,
  type ClaimsFile,
  commandOf,
  type ExperimentRun,
  experimentRun,
  type ReproduceOptions,
} from "./claims.ts";
import { claimRow, type ReproduceRow } from "./reproduce_table.ts";

export type { Article, Claim, ClaimArm, ClaimsFile, Experiment, ExperimentRun, ReproduceOptions } from "./claims.ts";
export { armLabel, claimNote, CLAIMS_FILE, commandOf, experimentRun, readClaims } from "./claims.ts";
export {
  type AsPublished,
  claimRow,
  formatReproduce,
  type ReproduceRow,
  type Verdict,
  verdictOf,
} from "./reproduce_table.ts";
export { type PublishedVersions, publishedVersions, type VersionList } from "./as_published.ts";

/** Runs one experiment: the suite's `run()` with the experiment's workload, runtimes, variants and settings. */
export type SuiteRunner = (run: ExperimentRun) => Promise<BenchResult>;

/**
 * The claims named (`002-http-bun-vs-deno`; an article, `002`; an experiment, `002-http`), every claim when none is
 * named; throws a `TypeError` naming an unknown one.
 *
 * @example
 * ```ts
 * import { readClaims, selectClaims } from "./reproduce.ts";
 * const file = await readClaims();
 * console.log(selectClaims(file, ["000"]).map((c) => c.name)); // ["000-deno-vs-bun", "000-bun-vs-node"]
 * ```
 */
export function selectClaims(file: ClaimsFile, names: readonly string[] = []): ClaimsFile["claims"] {
  if (names.length === 0) return file.claims;
  for (const name of names) {
    const known = file.claims.some((c) =>
      c.name === name || c.experiment === name || file.experiments[c.experiment].article === name
    );
    if (!known) throw new TypeError(`--claim: unknown claim "${name}" (deno task reproduce --list shows them)`);
  }
  return file.claims.filter((c) =>
    names.some((n) => c.name === n || c.experiment === n || file.experiments[c.experiment].article === n)
  );
}

/**
 * Runs the experiments the claims need, one after another (each once, whatever number of claims it measures), and
 * returns a row per claim in the file's order. An experiment that fails (a runtime missing, a limit of this machine)
 * gives its claims a row saying why; the others go on.
 *
 * @param file The claims file.
 * @param names Claims to reproduce (see {@linkcode selectClaims}); all when empty.
 * @param options Full durations or scaled, and runs.
 * @param runner Runs one experiment.
 * @param onExperiment Told when each experiment starts, for progress.
 * @param signal Once aborted, the experiments not yet started are not run (their rows say so).
 * @returns One row per claim.
 *
 * @example With a runner that measures nothing
 * ```ts
 * import { readClaims, reproduce } from "./reproduce.ts";
 * const file = await readClaims();
 * const rows = await reproduce(file, ["000-deno-vs-bun"], {}, () => Promise.reject(new Error("not run here")));
 * console.log(rows[0].verdict, rows[0].note); // n/a not run here
 * ```
 */
export async function reproduce(
  file: ClaimsFile,
  names: readonly string[],
  options: ReproduceOptions,
  runner: SuiteRunner,
  onExperiment?: (name: string, command: string) => void,
  signal?: AbortSignal,
): Promise<ReproduceRow[]> {
  const claims = selectClaims(file, names);
  const outcomes = new Map<string, { result: BenchResult | Error; command: string; run: ExperimentRun }>();
  for (const name of new Set(claims.map((c) => c.experiment))) {
    const run = experimentRun(file.experiments[name], options);
    const command = commandOf(run);
    if (signal?.aborted) {
      outcomes.set(name, { result: new Error("not run: interrupted"), command, run });
      continue;
    }
    onExperiment?.(name, command);
    const result = await runner(run).catch((error) => error instanceof Error ? error : new Error(String(error)));
    outcomes.set(name, { result, command, run });
  }
  return claims.map((claim) => {
    const e = file.experiments[claim.experiment];
    const { result, command, run } = outcomes.get(claim.experiment)!;
    // The note says what ran: the durations of this reproduction's runs, not only the article's.
    return claimRow(
      { ...claim, note: claimNote(claim, e, run) },
      e.article,
      e.variants,
      result,
      command,
      run.published,
    );
  });
}
