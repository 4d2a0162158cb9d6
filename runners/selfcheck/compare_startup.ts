/**
 * rtbench's process timer against hyperfine (`runners/dev/compare_startup.ts`): times the `startup` workload's exact commands
 * with rtbench's process timer and with hyperfine on the same CPU, and prints
 * each median and their ratio (rtbench / hyperfine). rtbench aims to agree
 * within 5% of hyperfine's median. The two alternate in small batches (one
 * warm-up and `--batch` runs each, `--rounds` times) so that load from
 * elsewhere on the machine falls on both alike.
 *
 * @module
 */

import { resolveRuntime, type RuntimeSpec } from "../../adapters/mod.ts";
import { isSkip, type ProcessTarget, type RunSettings, startup } from "../../workloads/mod.ts";
import { allowedCpus, makeTempDir, removeTemp, runCommand, splitCpus } from "../platform/mod.ts";
import { alignTable, formatFigure } from "../report/mod.ts";
import { defaultTimer, timeRuns } from "../drivers/mod.ts";
import { median } from "../stats/mod.ts";

/** How far apart the two medians may be and still agree. */
export const AGREEMENT = 0.05;

/**
 * Quotes an argv for hyperfine's `--shell=none` mode, which splits commands
 * like a POSIX shell would.
 *
 * @example
 * ```ts
 * import { shellQuote } from "./compare_startup.ts";
 * console.log(shellQuote(["node", "-e", 'console.log("it\'s")'])); // 'node' '-e' 'console.log("it'\''s")'
 * ```
 */
export function shellQuote(argv: readonly string[]): string {
  return argv.map((a) => `'${a.replaceAll("'", `'\\''`)}'`).join(" ");
}

async function hyperfineTimes(
  hyperfine: string,
  target: ProcessTarget,
  cpus: string | null,
  scratch: string,
): Promise<number[]> {
  const out = `${scratch}/hyperfine.json`;
  const argv = [
    hyperfine,
    "--shell=none",
    "--style=none",
    `--warmup=${target.plan.warmupRuns}`,
    `--runs=${target.plan.minRuns}`,
    `--export-json=${out}`,
    // rtbench sends each run's stdout to a file so that it can check the output; a runtime may start
    // measurably slower writing to a file than to /dev/null (Bun: about 0.3 ms of 5), so hyperfine does the same.
    `--output=${scratch}/hyperfine-stdout`,
    shellQuote(target.command.argv),
  ];
  const result = await runCommand(cpus ? ["taskset", "-c", cpus, ...argv] : argv, {
    cwd: target.command.cwd,
    env: { ...target.command.env },
    timeoutMs: 600_000,
  });
  if (!result.success) throw new Error(`hyperfine failed: ${result.stderr.trim().split("\n").at(-1)}`);
  const json = JSON.parse(await Deno.readTextFile(out));
  return (json.results[0].times as number[]).map((s) => s * 1000);
}

/**
 * What {@linkcode compareStartup} compares.
 *
 * @example Both variants on Deno, 20 rounds of 5
 * ```ts
 * import type { StartupComparisonOptions } from "./compare_startup.ts";
 * import { PROFILES } from "@rtbench/rtbench/runners";
 *
 * const options: StartupComparisonOptions = {
 *   runtimes: [{ name: "deno", requested: "deno" }],
 *   variants: ["hello", "script"],
 *   rounds: 20,
 *   batch: 5,
 *   hyperfine: "/usr/bin/hyperfine",
 *   settings: PROFILES.quick,
 *   signal: new AbortController().signal,
 * };
 * ```
 */
export interface StartupComparisonOptions {
  /** The runtimes. */
  readonly runtimes: readonly RuntimeSpec[];
  /** `startup` variants: `hello`, `script`. */
  readonly variants: readonly string[];
  /** Alternating rounds. */
  readonly rounds: number;
  /** Runs per batch, after one warm-up. */
  readonly batch: number;
  /** The hyperfine binary. */
  readonly hyperfine: string;
  /** The settings `startup` prepares its commands with. */
  readonly settings: RunSettings;
  /** Stops the comparison. */
  readonly signal: AbortSignal;
  /** Called with each finished row. */
  readonly onRow?: (row: StartupComparisonRow) => void;
}

/**
 * One command, timed both ways.
 *
 * @example Does it agree?
 * ```ts
 * import { AGREEMENT, type StartupComparisonRow } from "./compare_startup.ts";
 *
 * const agrees = (row: StartupComparisonRow) => Math.abs(row.rtbenchMs / row.hyperfineMs - 1) <= AGREEMENT;
 * ```
 */
export interface StartupComparisonRow {
  /** `deno 2.9.6 hello`. */
  readonly command: string;
  /** rtbench's median. */
  readonly rtbenchMs: number;
  /** hyperfine's median. */
  readonly hyperfineMs: number;
  /** Measured runs each. */
  readonly runs: { readonly rtbench: number; readonly hyperfine: number };
}

/**
 * Times the `startup` workload's commands with rtbench's timer and with
 * hyperfine, alternating in batches on the same pinned CPU.
 *
 * @param options Runtimes, variants, rounds, batch size, hyperfine and settings.
 * @returns One row per runtime × variant, and the timer that was used.
 *
 * @example
 * ```ts ignore
 * import { compareStartup, formatStartupComparison } from "./compare_startup.ts";
 * const result = await compareStartup(options);
 * console.log(formatStartupComparison(result.rows));
 * ```
 */
export async function compareStartup(
  options: StartupComparisonOptions,
): Promise<{ readonly timer: string; readonly cpus: string | null; readonly rows: StartupComparisonRow[] }> {
  const { signal, batch } = options;
  const timer = await defaultTimer();
  const cpus = splitCpus(await allowedCpus()).server;
  const scratch = await makeTempDir({ prefix: "rtbench-compare-" });
  const rows: StartupComparisonRow[] = [];
  try {
    for (const spec of options.runtimes) {
      const runtime = await resolveRuntime(spec);
      for (const variant of options.variants) {
        signal.throwIfAborted();
        const workDir = `${scratch}/${runtime.name}-${variant}`;
        await Deno.mkdir(workDir, { recursive: true });
        const target = await startup.prepare({
          variant,
          options: { "warmup-runs": 3 },
          settings: options.settings,
          tempDir: scratch,
          signal,
          runtime,
          workDir,
          nodeModules: undefined,
        });
        if (isSkip(target)) continue;
        const batched = { ...target, plan: { warmupRuns: 1, minRuns: batch, minDurationMs: 0, maxRuns: batch } };
        const ours: number[] = [];
        const theirs: number[] = [];
        for (let r = 0; r < options.rounds; r++) {
          signal.throwIfAborted();
          const runs = await timeRuns(timer, {
            command: batched.command,
            plan: batched.plan,
            cpus,
            scratchDir: workDir,
          });
          const failed = runs.find((r) => r.exitCode !== 0);
          if (failed) throw new Error(`${runtime.name} ${variant} exited with ${failed.exitCode}: ${failed.stderr}`);
          ours.push(...runs.filter((r) => !r.warmup).map((r) => r.wallMs));
          theirs.push(...await hyperfineTimes(options.hyperfine, batched, cpus, workDir));
        }
        const row = {
          command: `${runtime.name} ${runtime.version} ${variant}`,
          rtbenchMs: median(ours),
          hyperfineMs: median(theirs),
          runs: { rtbench: ours.length, hyperfine: theirs.length },
        };
        rows.push(row);
        options.onRow?.(row);
      }
    }
  } finally {
    await removeTemp(scratch);
  }
  return { timer: timer.name, cpus, rows };
}

/**
 * The rows as `runners/dev/compare_startup.ts` prints them: both medians, their
 * ratio, runs, and whether they agree within {@linkcode AGREEMENT}.
 *
 * @param rows What {@linkcode compareStartup} measured.
 * @returns The table and a closing line.
 *
 * @example
 * ```ts
 * import { assertStringIncludes } from "@std/assert";
 * import { formatStartupComparison } from "./compare_startup.ts";
 *
 * const text = formatStartupComparison([
 *   { command: "deno 2.9.6 hello", rtbenchMs: 19.3, hyperfineMs: 19.11, runs: { rtbench: 100, hyperfine: 100 } },
 * ]);
 * assertStringIncludes(text, "1.010");
 * assertStringIncludes(text, "every command agrees");
 * ```
 */
export function formatStartupComparison(rows: readonly StartupComparisonRow[]): string {
  const table: string[][] = [["command", "rtbench median", "hyperfine median", "ratio", "runs", "agree (±5%)"]];
  let disagreements = 0;
  for (const row of rows) {
    const ratio = row.rtbenchMs / row.hyperfineMs;
    const agrees = Math.abs(ratio - 1) <= AGREEMENT;
    if (!agrees) disagreements++;
    table.push([
      row.command,
      formatFigure("wallMs", row.rtbenchMs),
      formatFigure("wallMs", row.hyperfineMs),
      ratio.toFixed(3),
      `${row.runs.rtbench} / ${row.runs.hyperfine}`,
      agrees ? "yes" : "NO",
    ]);
  }
  return `${alignTable(table, [1, 2, 3, 4])}\n` +
    `ratio = rtbench median / hyperfine median over all measured runs; ${
      disagreements === 0 ? "every command agrees" : `${disagreements} command(s) differ by more than 5%`
    }. On a shared, noisy machine rerun before concluding.`;
}
