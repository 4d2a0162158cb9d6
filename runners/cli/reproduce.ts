/**
 * `rtbench reproduce [--claim NAME] [--full] [--as-published]`: runs the
 * published comparisons' experiments with their own settings on this machine
 * and prints one table: each claim's published figures and ratio, rtbench's
 * ratio paired round by round with its 95% interval, whether the ranking
 * holds, and the command that measured it; with `--as-published`, also on the
 * versions each article ran, measured in the same rounds as today's.
 *
 * Exit codes: 0 the table was printed (whatever it says); 2 bad input.
 *
 * @module
 */

import { builtinAdapters, npmVersions } from "../../adapters/mod.ts";
import { runEntry, stopAllGroups, UsageError } from "../platform/mod.ts";
import type { BenchResult } from "../schema/mod.ts";
import { builtinWorkloads } from "../../workloads/mod.ts";
import { run } from "../suite/mod.ts";
import {
  CLAIMS_FILE,
  type ExperimentRun,
  formatReproduce,
  type PublishedVersions,
  publishedVersions,
  readClaims,
  reproduce,
  type ReproduceRow,
  selectClaims,
} from "../selfcheck/mod.ts";
import { numberFlag, strictFlags } from "./_flags.ts";
import { namingFlags } from "./_flag_names.ts";
import { checkWritable, removeEmptyFolders } from "./_out.ts";

const HELP = [
  "Usage: rtbench reproduce [flags]",
  "",
  "Runs the experiments of the five published comparisons rtbench's workloads come from, with their connections,",
  "load generator and variants, and prints each claim's published ratio beside rtbench's paired ratio.",
  "",
  "  --claim <list>   only these claims, articles (002) or experiments (002-http); default: every claim",
  "  --full           the articles' own durations and message counts (minutes per experiment)",
  "  --as-published   also on the versions each article ran, where npm has them, in the same rounds as today's",
  "  --runs <n>       runs per arm (default: 3; with --full, the article's, else 5)",
  "  --markdown       print the table as Markdown",
  "  --out <file>     also write the rows and the machine as JSON",
  "  --list           list the claims and exit",
  "  --debug          show stack traces",
].join("\n");

/** The suite's `run()` for one experiment, its workload looked up by name. */
function runner(signal: AbortSignal, results: BenchResult[]): (e: ExperimentRun) => Promise<BenchResult> {
  return async (e) => {
    const workload = builtinWorkloads.find((w) => w.name === e.workload);
    if (!workload) throw new Error(`rtbench has no ${e.workload} workload`);
    const result = await run({
      workloads: [workload],
      runtimes: [...e.runtimes],
      variants: [...e.variants],
      settings: e.settings,
      options: { ...e.options },
      loadGenerator: e.loadGenerator ?? "auto",
      signal,
    });
    results.push(result);
    return result;
  };
}

/** The machine and runtimes the table was measured on, and the load average before and after. */
function machineLines(results: readonly BenchResult[], before: number[], after: number[]): string[] {
  const env = results[0]?.environment;
  const versions = new Map<string, string>();
  for (const r of results.flatMap((x) => x.records)) {
    if (r.runtime.version) versions.set(r.runtime.requested, `${r.runtime.name} ${r.runtime.version}`);
  }
  const load = (l: number[]) => l.map((n) => n.toFixed(2)).join(" ");
  return [
    env
      ? `Machine: ${env.cpuModel ?? "?"} · ${env.logicalCores} logical CPUs · ${
        env.osName ?? env.os
      } · kernel ${env.kernel}`
      : "Machine: (no experiment ran)",
    `Runtimes: ${[...versions.values()].join(", ") || "none ran"}`,
    `Load average (1, 5, 15 min): ${load(before)} at the start, ${load(after)} at the end`,
  ];
}

/**
 * The versions each article of the selected claims ran, as npm has them (one look per runtime); a runtime rtbench
 * builds with this machine's toolchain has none there.
 */
async function articleVersions(
  file: Awaited<ReturnType<typeof readClaims>>,
  names: readonly string[],
): Promise<Record<string, PublishedVersions>> {
  const asked = new Map<string, Promise<readonly string[] | null>>();
  const versions = (runtime: string) => {
    const adapter = builtinAdapters.find((a) => a.name === runtime);
    if (!asked.has(runtime)) {
      asked.set(runtime, !adapter || adapter.howToGet ? Promise.resolve(null) : npmVersions(adapter));
    }
    return asked.get(runtime)!;
  };
  const byArticle: Record<string, PublishedVersions> = {};
  for (const claim of selectClaims(file, names)) {
    const { article } = file.experiments[claim.experiment];
    if (byArticle[article]) continue;
    const runtimes = Object.values(file.experiments).filter((e) => e.article === article).flatMap((e) => e.runtimes);
    byArticle[article] = await publishedVersions(file.articles[article].versions, [...new Set(runtimes)], versions);
  }
  return byArticle;
}

function listClaims(file: Awaited<ReturnType<typeof readClaims>>): string {
  return file.claims.map((c) => `${c.name.padEnd(32)} ${c.says}`).join("\n");
}

async function main(args: string[], signal: AbortSignal): Promise<number> {
  const flags = strictFlags(args, {
    string: ["claim", "runs", "out"],
    boolean: ["full", "markdown", "list", "as-published"],
  });
  if (flags.help) {
    console.log(HELP);
    return 0;
  }
  const file = await readClaims(CLAIMS_FILE);
  if (flags.list) {
    console.log(listClaims(file));
    return 0;
  }
  const names = typeof flags.claim === "string" ? flags.claim.split(",").map((s) => s.trim()).filter(Boolean) : [];
  try {
    selectClaims(file, names);
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  const runs = numberFlag(flags, "runs", { integer: true, min: 1, max: 100 });
  if (typeof flags.out === "string") await checkWritable(flags.out, "--out");
  const before = Deno.loadavg();
  const results: BenchResult[] = [];
  let rows: ReproduceRow[];
  try {
    const progress = (name: string, cmd: string) => console.error(`▶ ${name}: ${cmd}`);
    const asPublished = flags["as-published"] ? await articleVersions(file, names) : undefined;
    const options = { full: flags.full === true, runs, ...(asPublished ? { asPublished } : {}) };
    rows = await reproduce(file, names, options, runner(signal, results), progress, signal);
  } finally {
    await stopAllGroups();
  }
  const machine = machineLines(results, before, Deno.loadavg());
  console.log([formatReproduce(rows, flags.markdown ? "markdown" : "text"), "", ...machine].join("\n"));
  if (typeof flags.out === "string") {
    await Deno.writeTextFile(flags.out, JSON.stringify({ machine, rows }, null, 2) + "\n");
  }
  return 0;
}

/**
 * Runs `reproduce` with `args` as a program, through the one lifecycle of a
 * command that starts processes (`runEntry`): prints, and exits with its code.
 *
 * @example
 * ```ts ignore
 * import { entry } from "./reproduce.ts";
 * await entry(Deno.args);
 * ```
 */
export function entry(args: string[]): Promise<never> {
  return runEntry(
    "rtbench reproduce",
    args,
    namingFlags(async ({ signal }) => {
      try {
        return await main(args, signal);
      } finally {
        await removeEmptyFolders();
      }
    }),
  );
}

if (import.meta.main) await entry(Deno.args);
