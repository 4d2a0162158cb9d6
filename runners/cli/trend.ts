/**
 * `rtbench trend <dir>`: each workload × variant × runtime of a history
 * (`deno task bench --history <dir>`) over time and versions, with every
 * significant change marked (compare's Welch test against the previous
 * point), as Markdown (default), HTML or JSON.
 *
 * Exit codes: 0 rendered; 1 with `--fail-on-regression <pct>`, the newest
 * result of a series got significantly worse than the point before it by
 * more than pct percent; 2 bad input (unknown flag, missing directory, a file
 * in it that is not a result).
 *
 * @module
 */

import { runReading, writeStdout } from "./_entry.ts";
import { numberFlag, strictArgs } from "./_flags.ts";
import { isUsageError, UsageError } from "./_usage.ts";
import {
  buildTrend,
  type ExportFormat,
  formatTrendHtml,
  formatTrendJson,
  formatTrendMarkdown,
  parseFormat,
  readHistory,
  type Trend,
  type TrendChange,
} from "../report/mod.ts";
import { checkWritable, removeEmptyFolders, whyNotWritable } from "./_out.ts";

/** The renderer of each of the exporters' formats a trend is rendered in. */
const FORMATS = {
  md: formatTrendMarkdown,
  html: formatTrendHtml,
  json: formatTrendJson,
} as const satisfies Partial<Record<ExportFormat, unknown>>;

const HELP = `rtbench trend: every workload × runtime of a history over time and versions

Usage: rtbench trend <dir> [flags]

  --format <name>             ${Object.keys(FORMATS).join(", ")} (default: md)
  --out <file>                write the trend to a file instead of stdout
  --fail-on-regression <pct>  exit 1 when a series' newest point is significantly worse than the one before
                              by more than pct percent
  --debug                     show stack traces
  --help, -h                  this help

<dir> holds result files, as deno task bench --history <dir> keeps them. Each step is Welch's t-test on the
per-run values against the previous completed point of the same runtime (two-sided, 95%).
Exit codes: 0 rendered, 1 a regression beyond --fail-on-regression, 2 bad input.`;

/** What the trend command line asked for. */
export interface TrendRequest {
  /** Show help. */
  readonly help: boolean;
  /** The history directory. */
  readonly dir: string;
  /** Output format. */
  readonly format: keyof typeof FORMATS;
  /** File to write; absent means stdout. */
  readonly out: string | undefined;
  /** Regression threshold in percent, when given. */
  readonly failOnRegression: number | undefined;
}

/**
 * Parses `trend` arguments; throws {@linkcode UsageError} naming the flag.
 *
 * @example
 * ```ts
 * import { parseTrendArgs } from "./trend.ts";
 * console.log(parseTrendArgs(["history", "--format", "html"]).format); // "html"
 * ```
 */
export function parseTrendArgs(args: string[]): TrendRequest {
  const { flags, positionals } = strictArgs(args, {
    string: ["format", "out", "fail-on-regression"],
    positional: true,
  });
  const empty = { dir: "", format: "md" as const, out: undefined, failOnRegression: undefined };
  if (flags.help) return { help: true, ...empty };
  if (positionals.length !== 1) throw new UsageError(`Expected one history directory, got ${positionals.length}`);
  const allowed = Object.keys(FORMATS) as (keyof typeof FORMATS)[];
  const format = flags.format === undefined ? "md" : parseFormat(String(flags.format), allowed);
  return {
    help: false,
    dir: positionals[0].replace(/\/+$/, "") || "/",
    format: format as keyof typeof FORMATS,
    out: flags.out as string | undefined,
    failOnRegression: numberFlag(flags, "fail-on-regression", { min: 0 }),
  };
}

/** Significant slowdowns of each series' newest point by more than `pct` percent. */
function newestRegressions(trend: Trend, pct: number): TrendChange[] {
  return trend.changes.filter((c) => {
    const series = trend.series.find((s) =>
      s.workload === c.workload && s.variant === c.variant && s.runtime === c.runtime
    )!;
    const change = c.to.step!.changePercent!;
    return c.verdict === "slower" && c.to === series.points.findLast((p) => p.median !== null) &&
      (series.higherIsBetter ? -change : change) > pct;
  });
}

/**
 * Runs `trend` with `args` and returns the exit code.
 *
 * @example
 * ```ts ignore
 * import { trendMain } from "./trend.ts";
 * Deno.exit(await trendMain(["history", "--format", "html", "--out", "trend.html"]));
 * ```
 */
export async function trendMain(args: string[]): Promise<number> {
  try {
    const request = parseTrendArgs(args);
    if (request.help) {
      console.log(HELP);
      return 0;
    }
    if (request.out !== undefined) await checkWritable(request.out, "--out");
    const history = await readHistory(request.dir);
    if (history.length === 0) throw new UsageError(`${request.dir} holds no result file`);
    const trend = buildTrend(history);
    const text = FORMATS[request.format](trend);
    if (request.out === undefined) {
      await writeStdout(text);
    } else {
      try {
        await Deno.writeTextFile(request.out, text);
      } catch (error) {
        throw new UsageError(`--out: cannot write ${request.out} (${whyNotWritable(error)})`);
      }
      console.error(`Trend written to ${request.out}`);
    }
    if (request.failOnRegression === undefined) return 0;
    const worse = newestRegressions(trend, request.failOnRegression);
    for (const c of worse) console.error(`rtbench trend: regression: ${c.sentence}`);
    return worse.length > 0 ? 1 : 0;
  } catch (error) {
    if (isUsageError(error)) {
      console.error(`rtbench trend: ${error.message}`);
      return 2;
    }
    throw error;
  } finally {
    await removeEmptyFolders();
  }
}

/**
 * Runs `trend` with `args` as a program: prints, and exits with its code.
 *
 * @example
 * ```ts ignore
 * import { entry } from "./trend.ts";
 * await entry(Deno.args);
 * ```
 */
export function entry(args: string[]): Promise<never> {
  return runReading("rtbench trend", args, () => trendMain(args));
}

if (import.meta.main) await entry(Deno.args);
