/**
 * `deno run -A runners/dev/fair_share.ts [flags]`: each runtime in its multi-core form at the
 * same core budgets, the CPU each server actually used and what it did per
 * used core ({@linkcode fairShareRun}).
 *
 * Exit codes: 0 measured; 1 failed; 2 bad input.
 *
 * @module
 */

import { parseRuntimeSpecs } from "../../adapters/mod.ts";
import { allowedCpus, parseCpuList, runEntry } from "../platform/mod.ts";
import { formatFairShare } from "../report/mod.ts";
import { writeResult } from "../schema/mod.ts";
import { fairShareRun, parseBudgets } from "../selfcheck/mod.ts";
import { selectWorkloads } from "../../workloads/mod.ts";
import { checkWritable, namingFlags, numberFlag, removeEmptyFolders, strictFlags } from "../cli/mod.ts";

const HELP = `Usage: deno run -A runners/dev/fair_share.ts [flags]

  --workload <list>    workloads (default: http-json)
  --runtime <list>     runtimes (default: deno,node,bun)
  --budgets <list>     server CPUs of each budget, or all (default: 1,2,all);
                       the load generator gets the CPUs left, or shares the
                       server's when none are (such a line is marked)
  --duration <s>       measured seconds per run (default: 3)
  --warmup <s>         warm-up seconds (default: 1)
  --runs <n>           runs per record (default: 3)
  --out-dir <dir>      keep each budget's result as fair-share-<n>.json there
  --debug              show stack traces`;

async function main(args: string[], signal: AbortSignal): Promise<number> {
  const flags = strictFlags(args, {
    string: ["workload", "runtime", "budgets", "duration", "warmup", "runs", "out-dir"],
    default: {
      workload: "http-json",
      runtime: "deno,node,bun",
      budgets: "1,2,all",
      duration: "3",
      warmup: "1",
      runs: "3",
    },
  });
  if (flags.help) {
    console.log(HELP);
    return 0;
  }
  const durationSec = numberFlag(flags, "duration", { min: 0, exclusive: true, max: 3600 })!;
  const warmupSec = numberFlag(flags, "warmup", { min: 0, max: 3600 })!;
  const runs = numberFlag(flags, "runs", { integer: true, min: 1, max: 1000 })!;
  // Refused here, before any load, as bench would refuse them in each budget's run.
  selectWorkloads(String(flags.workload));
  parseRuntimeSpecs(String(flags.runtime));
  const allowed = await allowedCpus();
  const budgets = parseBudgets(
    String(flags.budgets),
    allowed ? parseCpuList(allowed).length : navigator.hardwareConcurrency,
  );
  const outDir = flags["out-dir"] === undefined ? null : String(flags["out-dir"]);
  for (const cores of outDir ? budgets : []) await checkWritable(`${outDir}/fair-share-${cores}.json`, "--out-dir");
  console.error(
    `fair-share · ${flags.workload} · ${flags.runtime} · server CPUs ${budgets.join(", ")} · load average ` +
      Deno.loadavg().map((n) => n.toFixed(2)).join(" "),
  );
  const { tables } = await fairShareRun({
    budgets,
    bench: [
      `--workload=${flags.workload}`,
      `--runtime=${flags.runtime}`,
      `--duration=${durationSec}`,
      `--warmup=${warmupSec}`,
      `--runs=${runs}`,
    ],
    signal,
    onBudget: async (cores, result) => {
      console.error(`  ${cores} server CPU${cores === 1 ? "" : "s"}: ${result.records.length} records`);
      if (outDir) await writeResult(`${outDir}/fair-share-${cores}.json`, result);
    },
  });
  console.log(formatFairShare(tables));
  console.log(`load average at the end: ${Deno.loadavg().map((n) => n.toFixed(2)).join(" ")}`);
  return 0;
}

if (import.meta.main) {
  await runEntry(
    "rtbench fair-share",
    Deno.args,
    namingFlags(async ({ signal }) => {
      try {
        return await main(Deno.args, signal);
      } finally {
        await removeEmptyFolders();
      }
    }),
  );
}
