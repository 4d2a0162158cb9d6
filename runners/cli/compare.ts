/**
 * `rtbench compare <base.json> <head.json>`: prints, per workload ×
 * variant × runtime × figure, the change in percent with its 95% CI and a
 * verdict (Welch's t-test on the runs' raw values).
 *
 * Exit codes: 0 compared; 1 with `--fail-on-regression <pct>`, some figure got
 * significantly worse by more than pct percent; 2 bad input (a file missing,
 * corrupted, with nothing in common with the other, or measured on another
 * machine, or at another speed, than the other).
 *
 * @module
 */

import {
  compareResults,
  type ExportFormat,
  formatComparison,
  parseFormat,
  partialNotice,
  regressions,
} from "../report/mod.ts";
import { runReading } from "./_entry.ts";
import { strictArgs } from "./_flags.ts";
import { isUsageError, UsageError } from "./_usage.ts";
import { readResultFile } from "../schema/mod.ts";

/** The exporters' formats a comparison is rendered in. */
const FORMATS = ["table", "md", "json"] as const satisfies readonly ExportFormat[];
type CompareFormat = typeof FORMATS[number];
import { readNoiseFloor } from "./_noise_floor.ts";

const HELP = `rtbench compare: is head faster or slower than base, beyond run-to-run noise?

Usage: rtbench compare <base.json> <head.json> [flags]

  --fail-on-regression <pct>  exit 1 when a figure got significantly worse by more than pct percent
  --noise-floor <file>        an A/A result (bench --aa): a change smaller than its floor is not called
  --format <name>             ${FORMATS.join(", ")} (default: table)
  --debug                     show stack traces
  --help, -h                  this help

Verdicts come from Welch's t-test on the logs of the per-run values of each figure (two-sided, 95%): a
change is a ratio of geometric means. latencyUs.p99 is each run's own p99.
Two results are compared only when they ran on one machine (CPU vendor, family, model, stepping, microcode,
caches, hypervisor, mitigations) at one speed (calibrations within their noise); otherwise compare says why.
Exit codes: 0 compared, 1 a regression beyond --fail-on-regression, 2 bad input or another machine.`;

/** What the compare command line asked for. */
export interface CompareRequest {
  /** Show help. */
  readonly help: boolean;
  /** The base result file. */
  readonly base: string;
  /** The head result file. */
  readonly head: string;
  /** Output format. */
  readonly format: CompareFormat;
  /** Regression threshold in percent, when given. */
  readonly failOnRegression: number | undefined;
  /** An A/A result whose noise floor applies (`--noise-floor`), when given. */
  readonly noiseFloor?: string;
}

/**
 * Parses `compare` arguments; throws {@linkcode UsageError} naming the flag.
 *
 * @example
 * ```ts
 * import { parseCompareArgs } from "./compare.ts";
 * console.log(parseCompareArgs(["a.json", "b.json", "--fail-on-regression", "5"]).failOnRegression); // 5
 * ```
 */
export function parseCompareArgs(args: string[]): CompareRequest {
  const { flags, positionals } = strictArgs(args, {
    string: ["fail-on-regression", "format", "noise-floor"],
    positional: true,
  });
  const empty = { base: "", head: "", format: "table" as const, failOnRegression: undefined };
  if (flags.help) return { help: true, ...empty };
  const files = positionals;
  if (files.length !== 2) {
    throw new UsageError(`Expected two result files, base and head, got ${files.length} (see --help)`);
  }
  const format = flags.format === undefined ? "table" : parseFormat(String(flags.format), FORMATS);
  let failOnRegression: number | undefined;
  if (flags["fail-on-regression"] !== undefined) {
    const raw = String(flags["fail-on-regression"]);
    const n = raw.trim() === "" ? NaN : Number(raw);
    if (!Number.isFinite(n) || n < 0) {
      throw new UsageError(`--fail-on-regression must be a percentage ≥ 0, got "${raw}"`);
    }
    failOnRegression = n;
  }
  return {
    help: false,
    base: files[0],
    head: files[1],
    format: format as CompareFormat,
    failOnRegression,
    ...(flags["noise-floor"] !== undefined ? { noiseFloor: String(flags["noise-floor"]) } : {}),
  };
}

/**
 * Runs `compare` with `args` and returns the exit code.
 *
 * @example
 * ```ts ignore
 * import { compareMain } from "./compare.ts";
 * Deno.exit(await compareMain(["base.json", "head.json", "--fail-on-regression", "5"]));
 * ```
 */
export async function compareMain(args: string[]): Promise<number> {
  try {
    const request = parseCompareArgs(args);
    if (request.help) {
      console.log(HELP);
      return 0;
    }
    const [base, head] = await Promise.all([readResultFile(request.base), readResultFile(request.head)]);
    // A partial file is said first: a figure it lacks is missing, not gone.
    const partial = [[request.base, base], [request.head, head]] as const;
    const notices = partial.flatMap(([file, r]) =>
      partialNotice(r, file) ? [`${file}: ${partialNotice(r, file)}`] : []
    );
    for (const line of notices) (request.format === "json" ? console.error : console.log)(line);
    const noiseFloor = request.noiseFloor === undefined ? undefined : await readNoiseFloor(request.noiseFloor);
    let comparison;
    try {
      comparison = compareResults(base, head, { noiseFloor });
    } catch (error) {
      if (isUsageError(error)) {
        throw new UsageError(`${request.base} and ${request.head}: ${error.message}`);
      }
      throw error;
    }
    if (request.format === "json") console.log(JSON.stringify(comparison, null, 2));
    else console.log(formatComparison(comparison, request.format, request.failOnRegression).trimEnd());
    if (request.failOnRegression !== undefined) {
      const worse = regressions(comparison, request.failOnRegression);
      for (const f of worse) {
        console.error(
          `rtbench compare: regression: ${f.workload}/${f.variant}/${f.runtime} ${f.figure} ${
            f.changePercent! > 0 ? "+" : ""
          }${f.changePercent!.toFixed(1)}% (worse than ${request.failOnRegression}%)`,
        );
      }
      if (worse.length > 0) return 1;
    }
    return 0;
  } catch (error) {
    if (isUsageError(error)) {
      console.error(`rtbench compare: ${error.message}`);
      return 2;
    }
    throw error;
  }
}

/**
 * Runs `compare` with `args` as a program: prints, and exits with its code.
 *
 * @example
 * ```ts ignore
 * import { entry } from "./compare.ts";
 * await entry(Deno.args);
 * ```
 */
export function entry(args: string[]): Promise<never> {
  return runReading("rtbench compare", args, () => compareMain(args));
}

if (import.meta.main) await entry(Deno.args);
