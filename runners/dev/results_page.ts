/**
 * `deno run -A runners/dev/results_page.ts [result.json …]`: writes docs/results.md, the one page of dated
 * measurements, from stored result files. For each file: when it ran, how long the suite took, the machine, the
 * versions, and the overview (`At a glance` and the key findings) as the report's terminal table prints it. With no
 * file named, it regenerates the page from the files the page records. The page's last section, `## Measured by
 * hand`, is kept as it stands: measurements that no result file holds.
 *
 * A development tool: not published, not among the user's tasks.
 *
 * @module
 */

import { type BenchResult, readResultFile } from "../schema/mod.ts";
import { EXPORTERS } from "../report/mod.ts";
import { runEntry, UsageError } from "../platform/mod.ts";
import { namingFlags, strictArgs } from "../cli/mod.ts";

/** The page, from the repository's root. */
export const PAGE = "docs/results.md";

/** The heading of the part of the page written by hand, kept as it is when the page is regenerated. */
export const KEPT_HEADING = "## Measured by hand";

const INPUTS = /^<!-- inputs: (.*) -->$/m;

/** A stored result and the path it was read from (relative to the repository's root). */
export interface StoredResult {
  readonly path: string;
  readonly result: BenchResult;
}

/**
 * The result files a page was generated from, as it records them.
 *
 * @example
 * ```ts
 * import { recordedInputs } from "./results_page.ts";
 * console.log(recordedInputs("# Results\n\n<!-- inputs: a.json b.json -->\n")); // ["a.json", "b.json"]
 * ```
 */
export function recordedInputs(page: string): string[] {
  return INPUTS.exec(page)?.[1].split(" ").filter(Boolean) ?? [];
}

/**
 * The hand-written part of a page: from {@linkcode KEPT_HEADING} to its end, or an empty such section.
 *
 * @example
 * ```ts
 * import { keptPart } from "./results_page.ts";
 * console.log(keptPart("# Results\n\n## Measured by hand\n\nx\n")); // "## Measured by hand\n\nx\n"
 * ```
 */
export function keptPart(page: string): string {
  const at = page.indexOf(`\n${KEPT_HEADING}\n`);
  return at === -1 ? `${KEPT_HEADING}\n\nNothing yet.\n` : page.slice(at + 1);
}

/** `2026-11-28 14:17 UTC`. */
function when(iso: string): string {
  return `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC`;
}

/** `11 min 02 s`. */
function took(fromIso: string, toIso: string): string {
  const s = Math.round((Date.parse(toIso) - Date.parse(fromIso)) / 1000);
  return s < 60 ? `${s} s` : `${Math.floor(s / 60)} min ${String(s % 60).padStart(2, "0")} s`;
}

/** The report's terminal text, cut into its overview and its closing lines (the machine and suite-wide notes). */
function reportParts(result: BenchResult): { overview: string; footer: string } {
  const text = EXPORTERS.table.render(result).trimEnd();
  const titles = result.records.map((r) => `\n\n${r.workload} (${r.variant}) · `);
  const end = Math.min(...titles.map((t) => text.indexOf(t)).filter((i) => i >= 0), text.length);
  return { overview: text.slice(0, end), footer: text.slice(text.lastIndexOf("\n\n") + 2) };
}

function section({ path, result }: StoredResult): string {
  const env = result.environment;
  const runtimes = [
    ...new Set(result.records.map((r) => `${r.runtime.name} ${r.runtime.version ?? "(no version)"}`)),
  ];
  const generators = Object.entries(env.loadGenerators ?? {}).filter(([, v]) => v !== null).map(([n, v]) =>
    `${n} ${v}`
  );
  const completed = result.records.filter((r) => r.status === "completed").length;
  const { overview, footer } = reportParts(result);
  const s = result.settings;
  const workloads = new Set(result.records.map((r) => r.workload));
  const variants = new Set(result.records.map((r) => `${r.workload} ${r.variant}`));
  return [
    `## ${when(result.startedAt)}`,
    [
      `- file: [${path.split("/").at(-1)}](../${path})`,
      `- suite: ${variants.size} variants of ${workloads.size} workloads on ${s.runtimes.join(", ")}, ` +
      `profile ${s.profile}, order ${s.order}`,
      `- took ${result.finishedAt ? took(result.startedAt, result.finishedAt) : "(unfinished)"}; ` +
      `${completed} of ${result.records.length} records completed`,
      `- versions: rtbench ${result.suite.version}, ${runtimes.join(", ")}; harness deno ${env.harness.deno}`,
      ...(generators.length > 0 ? [`- load generators: ${generators.join(", ")}`] : []),
      ...(env.loadAverage ? [`- load average at the start: ${env.loadAverage.join(", ")}`] : []),
    ].join("\n"),
    "Machine:",
    "```\n" + footer + "\n```",
    "Overview (`deno task report " + path + "`, up to the first workload's section):",
    "```\n" + overview + "\n```",
  ].join("\n\n");
}

/**
 * The page for `results` (newest first), with `kept` (see {@linkcode keptPart}) as its last section.
 *
 * @example
 * ```ts
 * import { assert } from "@std/assert";
 * import { readResultFile } from "../schema/mod.ts";
 * import { resultsPage } from "./results_page.ts";
 *
 * const path = "fixtures/results/base.json";
 * const page = resultsPage([{ path, result: await readResultFile(path) }], "## Measured by hand\n\nNothing yet.\n");
 * assert(page.includes("## 2026-11-21 14:09 UTC") && page.includes("At a glance"));
 * ```
 */
export function resultsPage(results: readonly StoredResult[], kept: string): string {
  const sorted = [...results].sort((a, b) => b.result.startedAt.localeCompare(a.result.startedAt));
  return [
    "# Results",
    `<!-- inputs: ${results.map((r) => r.path).join(" ")} -->`,
    [
      "Dated measurements of rtbench on real machines: what a run showed, on which machine, on which day. They say what those",
      "machines did then, not what yours will do: compare runtimes within one run of your own. The sections below are generated",
      "from stored result files by `deno run -A runners/dev/results_page.ts` (see",
      "[Development](development.md#the-results-page)); the last section is kept by hand.",
    ].join("\n"),
    ...sorted.map(section),
    kept.trimEnd(),
  ].join("\n\n") + "\n";
}

/** Reads the named result files and returns the page, keeping the hand-written part of `current`. */
export async function generate(paths: readonly string[], current: string, root = "."): Promise<string> {
  const results = await Promise.all(
    paths.map(async (path) => ({ path, result: await readResultFile(`${root}/${path}`) })),
  );
  return resultsPage(results, keptPart(current));
}

const HELP = `Usage: deno run -A runners/dev/results_page.ts [result.json ...] [flags]

Writes docs/results.md from the result files named, or from those the page records when none is named.

  --debug      show stack traces
  --help, -h   this help`;

async function main(args: string[]): Promise<number> {
  const { flags, positionals: named } = strictArgs(args, { positional: true });
  if (flags.help) {
    console.log(HELP);
    return 0;
  }
  const root = new URL("../../", import.meta.url).pathname.replace(/\/$/, "");
  const current = await Deno.readTextFile(`${root}/${PAGE}`).catch(() => "");
  const paths = named.length > 0 ? named : recordedInputs(current);
  if (paths.length === 0) throw new UsageError(`name the result files (none recorded in ${PAGE})`);
  await Deno.writeTextFile(`${root}/${PAGE}`, await generate(paths, current, root));
  console.error(`${PAGE}: ${paths.length} result file(s)`);
  return 0;
}

if (import.meta.main) {
  await runEntry("rtbench results-page", Deno.args, namingFlags(() => main(Deno.args)), { spawns: false });
}
