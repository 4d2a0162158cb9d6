/**
 * `deno task bench` in a fresh process, as a user runs it: the self-checks
 * measure through the command line, so what they compare is what users get.
 *
 * @module
 */

import { makeTempDir, removeTemp, runCommand } from "../platform/mod.ts";
import type { BenchResult } from "../schema/mod.ts";

const ROOT = new URL("../..", import.meta.url).pathname;
/** The bench task's permissions (deno.json). */
const BENCH_PERMISSIONS = ["--allow-read", "--allow-write", "--allow-net", "--allow-env", "--allow-run", "--allow-sys"];

/**
 * Runs `deno task bench` with `args` (plus `--out` and `--quiet`) and returns its result.
 *
 * @param args Flags of the bench command.
 * @param signal Stops it.
 * @returns The result file it wrote. A failing command throws with its last lines.
 *
 * @example
 * ```ts ignore
 * import { benchProcess } from "./bench_process.ts";
 * const result = await benchProcess(["--workload=http-json", "--runtime=deno", "--runs=1"]);
 * console.log(result.records[0].summary.requestsPerSecond.median);
 * ```
 */
export async function benchProcess(args: readonly string[], signal?: AbortSignal): Promise<BenchResult> {
  const dir = await makeTempDir({ prefix: "rtbench-selfcheck-" });
  try {
    const out = `${dir}/r.json`;
    const run = await runCommand(
      [Deno.execPath(), "run", ...BENCH_PERMISSIONS, `${ROOT}runners/cli/bench.ts`, ...args, `--out=${out}`, "--quiet"],
      // rtbench itself, on its Deno: it builds its own children's environments.
      { timeoutMs: 3_600_000, env: { NO_COLOR: "1" }, signal, purpose: "harness" },
    );
    if (!run.success) throw new Error(`deno task bench failed: ${run.stderr.trim().split("\n").slice(-2).join(" ")}`);
    return JSON.parse(await Deno.readTextFile(out)) as BenchResult;
  } finally {
    await removeTemp(dir);
  }
}
