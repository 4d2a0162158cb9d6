/**
 * `deno task compare-startup`: times the `startup` workload's exact commands
 * with rtbench's process timer and with hyperfine on the same CPU, and prints
 * each median and their ratio (rtbench / hyperfine). rtbench aims to agree
 * within 5% of hyperfine's median. The two alternate in small batches (one
 * warm-up and `--batch` runs each, `--rounds` times) so that load from
 * elsewhere on the machine falls on both alike.
 *
 * Flags: `--runtime deno,node,bun`, `--variant hello,script`, `--rounds 20`, `--batch 5`.
 *
 * @module
 */

import { parseArgs } from "@std/cli/parse-args";
import { parseRuntimeSpecs, resolveRuntime } from "../adapters/mod.ts";
import { startup } from "../workloads/startup.ts";
import type { ProcessTarget } from "../workloads/types.ts";
import { isSkip } from "../workloads/types.ts";
import { runCommand, which } from "./_process.ts";
import { allowedCpus, splitCpus } from "./cpus.ts";
import { UsageError } from "./errors.ts";
import { alignTable, formatFigure } from "./format.ts";
import { defaultTimer } from "./process_timer.ts";
import { PROFILES } from "./settings.ts";
import { median } from "./stats.ts";
import { makeTempDir, removeTemp } from "./_temp.ts";

/** How far apart the two medians may be and still agree. */
export const AGREEMENT = 0.05;

/**
 * Quotes an argv for hyperfine's `--shell=none` mode, which splits commands
 * like a POSIX shell would.
 *
 * @example
 * ```ts
 * import { shellQuote } from "./hyperfine_compare.ts";
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

/** Runs the comparison and returns the exit code. */
export async function main(args: string[]): Promise<number> {
  const flags = parseArgs(args, { string: ["runtime", "variant", "rounds", "batch"] });
  const hyperfine = which("hyperfine");
  if (!hyperfine) {
    console.error("compare-startup: hyperfine is not on PATH (Debian: apt-get install hyperfine)");
    return 2;
  }
  let specs;
  try {
    specs = parseRuntimeSpecs(flags.runtime ?? "deno,node,bun");
  } catch (error) {
    if (error instanceof UsageError) {
      console.error(`compare-startup: ${error.message}`);
      return 2;
    }
    throw error;
  }
  const variants: string[] = String(flags.variant ?? "hello,script").split(",").filter(Boolean);
  const bad = variants.find((v) => !startup.variants.some((known) => known.name === v));
  if (bad) {
    console.error(`compare-startup: --variant: unknown variant "${bad}" (allowed: hello, script)`);
    return 2;
  }
  const rounds = Number(flags.rounds ?? 20);
  const batch = Number(flags.batch ?? 5);
  for (const [flag, value] of [["rounds", rounds], ["batch", batch]] as const) {
    if (!Number.isInteger(value) || value < 2 || value > 1000) {
      console.error(`compare-startup: --${flag} must be a whole number from 2 to 1000, got "${flags[flag]}"`);
      return 2;
    }
  }
  const version = (await runCommand([hyperfine, "--version"])).stdout.trim();
  const timer = await defaultTimer();
  const cpus = splitCpus(await allowedCpus()).server;
  const scratch = await makeTempDir({ prefix: "rtbench-compare-" });
  const rows: string[][] = [["command", "rtbench median", "hyperfine median", "ratio", "runs", "agree (±5%)"]];
  let disagreements = 0;
  try {
    console.error(
      `rtbench timer ${timer.name} vs ${version}: the startup workload's commands, ${rounds} alternating rounds ` +
        `of 1 warm-up and ${batch} runs each, ` +
        (cpus ? `both pinned to cpu ${cpus}` : "unpinned"),
    );
    for (const spec of specs) {
      const runtime = await resolveRuntime(spec);
      for (const variant of variants) {
        const workDir = `${scratch}/${runtime.name}-${variant}`;
        await Deno.mkdir(workDir, { recursive: true });
        const target = await startup.prepare({
          variant,
          options: { "warmup-runs": 3 },
          settings: { ...PROFILES.quick, ...startup.defaults },
          tempDir: scratch,
          signal: new AbortController().signal,
          runtime,
          workDir,
          nodeModules: undefined,
        });
        if (isSkip(target)) continue;
        const batched = { ...target, plan: { warmupRuns: 1, minRuns: batch, minDurationMs: 0, maxRuns: batch } };
        const ours: number[] = [];
        const theirs: number[] = [];
        for (let r = 0; r < rounds; r++) {
          const runs = await timer.time({ command: batched.command, plan: batched.plan, cpus, scratchDir: workDir });
          const failed = runs.find((r) => r.exitCode !== 0);
          if (failed) throw new Error(`${runtime.name} ${variant} exited with ${failed.exitCode}: ${failed.stderr}`);
          ours.push(...runs.filter((r) => !r.warmup).map((r) => r.wallMs));
          theirs.push(...await hyperfineTimes(hyperfine, batched, cpus, workDir));
        }
        const a = median(ours);
        const b = median(theirs);
        const ratio = a / b;
        const agrees = Math.abs(ratio - 1) <= AGREEMENT;
        if (!agrees) disagreements++;
        rows.push([
          `${runtime.name} ${runtime.version} ${variant}`,
          formatFigure("wallMs", a),
          formatFigure("wallMs", b),
          ratio.toFixed(3),
          `${ours.length} / ${theirs.length}`,
          agrees ? "yes" : "NO",
        ]);
        console.error(`  ${rows.at(-1)!.join("  ")}`);
      }
    }
  } finally {
    await removeTemp(scratch);
  }
  console.log(alignTable(rows, [1, 2, 3, 4]));
  console.log(
    `ratio = rtbench median / hyperfine median over all measured runs; ${
      disagreements === 0 ? "every command agrees" : `${disagreements} command(s) differ by more than 5%`
    }. On a shared, noisy machine rerun before concluding.`,
  );
  return 0;
}

if (import.meta.main) Deno.exit(await main(Deno.args));
