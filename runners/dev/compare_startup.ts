/**
 * `deno run -A runners/dev/compare_startup.ts [flags]`: rtbench's process timer against
 * hyperfine on the `startup` workload's commands ({@linkcode compareStartup}).
 *
 * Exit codes: 0 compared; 1 failed; 2 bad input (or hyperfine missing).
 *
 * @module
 */

import { parseRuntimeSpecs } from "../../adapters/mod.ts";
import { startup } from "../../workloads/mod.ts";
import { runCommand, runEntry, UsageError, which } from "../platform/mod.ts";
import { compareStartup, formatStartupComparison } from "../selfcheck/mod.ts";
import { effectiveSettings } from "../suite/mod.ts";
import { namingFlags, numberFlag, strictFlags } from "../cli/mod.ts";

const HELP = `Usage: deno run -A runners/dev/compare_startup.ts [flags]

  --runtime <list>   runtimes (default: deno,node,bun)
  --variant <list>   startup variants: hello, script (default: both)
  --rounds <n>       alternating rounds, 2 to 1000 (default: 20)
  --batch <n>        runs per batch, 2 to 1000 (default: 5)
  --debug            show stack traces
  --help, -h         this help`;

/**
 * Runs the comparison and returns the exit code; bad input throws a
 * {@linkcode UsageError} naming the flag.
 *
 * @param args The command-line arguments.
 * @param signal Stops the comparison.
 * @returns The exit code.
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
  const runtimes = parseRuntimeSpecs(String(flags.runtime ?? "deno,node,bun"));
  const variants: string[] = String(flags.variant ?? "hello,script").split(",").filter(Boolean);
  const bad = variants.find((v) => !startup.variants.some((known) => known.name === v));
  if (bad) throw new UsageError(`--variant: unknown variant "${bad}" (allowed: hello, script)`);
  const rounds = numberFlag(flags, "rounds", { integer: true, min: 2, max: 1000 }) ?? 20;
  const batch = numberFlag(flags, "batch", { integer: true, min: 2, max: 1000 }) ?? 5;
  const hyperfine = which("hyperfine");
  if (!hyperfine) throw new UsageError("hyperfine is not on PATH (Debian: apt-get install hyperfine)");
  const version = (await runCommand([hyperfine, "--version"])).stdout.trim();
  const settings = effectiveSettings("quick", startup, {});
  console.error(
    `rtbench's process timer vs ${version}: ${rounds} alternating rounds of 1 warm-up and ${batch} runs each`,
  );
  const { rows } = await compareStartup({
    runtimes,
    variants,
    rounds,
    batch,
    hyperfine,
    settings,
    signal,
    onRow: (row) =>
      console.error(
        `  ${row.command}: rtbench ${row.rtbenchMs.toFixed(2)} ms, hyperfine ${row.hyperfineMs.toFixed(2)} ms`,
      ),
  });
  console.log(formatStartupComparison(rows));
  return 0;
}

if (import.meta.main) {
  await runEntry(
    "rtbench compare-startup",
    Deno.args,
    namingFlags(({ signal }) => main(Deno.args, signal)),
  );
}
