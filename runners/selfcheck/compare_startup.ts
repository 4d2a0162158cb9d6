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

import { runEntry } from "../platform/entry.ts";
import { numberFlag, strictFlags } from "../cli/_flags.ts";
import { parseRuntimeSpecs, resolveRuntime } from "../../adapters/mod.ts";
import { startup } from "../../workloads/startup.ts";
import type { ProcessTarget } from "../../workloads/types.ts";
import { isSkip } from "../../workloads/types.ts";
import { runCommand, which } from "../platform/process.ts";
import { allowedCpus, splitCpus } from "../platform/cpus.ts";
import { UsageError } from "../platform/errors.ts";
import { alignTable, formatFigure } from "../report/format.ts";
import { defaultTimer } from "../drivers/process_timer.ts";
import { PROFILES } from "../suite/settings.ts";
import { median } from "../stats/summary.ts";
import { makeTempDir, removeTemp } from "../platform/temp.ts";

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

const HELP = `Usage: deno task compare-startup [flags]

  --runtime <list>   runtimes (default: deno,node,bun)
  --variant <list>   startup variants: hello, script (default: both)
  --rounds <n>       alternating rounds, 2 to 1000 (default: 20)
  --batch <n>        runs per batch, 2 to 1000 (default: 5)
  --debug            show stack traces`;

/**
 * Runs the comparison and returns the exit code; bad input throws
 * {@linkcode UsageError} naming the flag.
 *
 * @example
 * ```ts ignore
 * import { main } from "./compare_startup.ts";
 * Deno.exit(await main(["--runtime", "deno", "--rounds", "2"]));
 * ```
 */
export async function main(args: string[], signal: AbortSignal = new AbortController().signal): Promise<number> {
  const flags = strictFlags(args, { string: ["runtime", "variant", "rounds", "batch"] });
  if (flags.help) {
    console.log(HELP);
    return 0;
  }
  const specs = parseRuntimeSpecs(String(flags.runtime ?? "deno,node,bun"));
  const variants: string[] = String(flags.variant ?? "hello,script").split(",").filter(Boolean);
  const bad = variants.find((v) => !startup.variants.some((known) => known.name === v));
  if (bad) throw new UsageError(`--variant: unknown variant "${bad}" (allowed: hello, script)`);
  const rounds = numberFlag(flags, "rounds", { integer: true, min: 2, max: 1000 }) ?? 20;
  const batch = numberFlag(flags, "batch", { integer: true, min: 2, max: 1000 }) ?? 5;
  const hyperfine = which("hyperfine");
  if (!hyperfine) throw new UsageError("hyperfine is not on PATH (Debian: apt-get install hyperfine)");
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
        signal.throwIfAborted();
        const workDir = `${scratch}/${runtime.name}-${variant}`;
        await Deno.mkdir(workDir, { recursive: true });
        const target = await startup.prepare({
          variant,
          options: { "warmup-runs": 3 },
          settings: { ...PROFILES.quick, ...startup.defaults },
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
        for (let r = 0; r < rounds; r++) {
          signal.throwIfAborted();
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

if (import.meta.main) await runEntry("rtbench compare-startup", Deno.args, ({ signal }) => main(Deno.args, signal));
