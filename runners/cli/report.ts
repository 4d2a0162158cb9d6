/**
 * `rtbench report <result.json> [--format table|md|csv|json|html] [--out file]`:
 * renders a stored result file with any exporter, to stdout or a file.
 *
 * Exit codes: 0 rendered; 2 bad input (unknown flag, missing or corrupted file).
 *
 * @module
 */

import { runReading, writeStdout } from "./_entry.ts";
import { strictArgs } from "./_flags.ts";
import { isUsageError, UsageError } from "./_usage.ts";
import {
  EXPORT_FORMATS,
  EXPORTERS,
  type ExportFormat,
  exportResult,
  parseFormat,
  partialNotice,
} from "../report/mod.ts";
import { readResultFile } from "../schema/mod.ts";
import { checkWritable, removeEmptyFolders, whyNotWritable } from "./_out.ts";

const HELP = `rtbench report: render a stored result file

Usage: rtbench report <result.json> [flags]

  --format <name>  ${EXPORT_FORMATS.map((f) => `${f} (${EXPORTERS[f].description})`).join(",\n                   ")}
                   default: table
  --out <file>     write the report to a file instead of stdout
  --debug          show stack traces
  --help, -h       this help

Exit codes: 0 rendered, 2 bad input.`;

/** What the report command line asked for. */
export interface ReportRequest {
  /** Show help. */
  readonly help: boolean;
  /** The result file to render. */
  readonly input: string;
  /** Output format. */
  readonly format: ExportFormat;
  /** Report file; absent means stdout. */
  readonly out: string | undefined;
}

/**
 * Parses `report` arguments; throws {@linkcode UsageError} naming the flag.
 *
 * @example
 * ```ts
 * import { parseReportArgs } from "./report.ts";
 * console.log(parseReportArgs(["r.json", "--format", "html"]).format); // "html"
 * ```
 */
export function parseReportArgs(args: string[]): ReportRequest {
  const { flags, positionals } = strictArgs(args, { string: ["format", "out"], positional: true });
  if (flags.help) return { help: true, input: "", format: "table", out: undefined };
  const files = positionals;
  if (files.length !== 1) throw new UsageError(`Expected one result file, got ${files.length} (see --help)`);
  return {
    help: false,
    input: files[0],
    format: flags.format === undefined ? "table" : parseFormat(String(flags.format)),
    out: flags.out as string | undefined,
  };
}

/**
 * Runs `report` with `args` and returns the exit code.
 *
 * @example
 * ```ts ignore
 * import { reportMain } from "./report.ts";
 * Deno.exit(await reportMain(["results/run.json", "--format", "md"]));
 * ```
 */
export async function reportMain(args: string[]): Promise<number> {
  try {
    const request = parseReportArgs(args);
    if (request.help) {
      console.log(HELP);
      return 0;
    }
    if (request.out !== undefined) await checkWritable(request.out, "--out");
    const result = await readResultFile(request.input);
    // A partial file says so first, whatever the format (tables and pages carry the line themselves).
    const partial = partialNotice(result, request.input);
    if (partial && (request.format === "csv" || request.format === "json")) console.error(partial);
    const text = exportResult(result, request.format);
    if (request.out === undefined) {
      await writeStdout(text);
      return 0;
    }
    try {
      await Deno.writeTextFile(request.out, text);
    } catch (error) {
      throw new UsageError(`--out: cannot write ${request.out} (${whyNotWritable(error)})`);
    }
    console.error(`Report written to ${request.out}`);
    return 0;
  } catch (error) {
    if (isUsageError(error)) {
      console.error(`rtbench report: ${error.message}`);
      return 2;
    }
    throw error;
  } finally {
    await removeEmptyFolders();
  }
}

/**
 * Runs `report` with `args` as a program: prints, and exits with its code.
 *
 * @example
 * ```ts ignore
 * import { entry } from "./report.ts";
 * await entry(Deno.args);
 * ```
 */
export function entry(args: string[]): Promise<never> {
  return runReading("rtbench report", args, () => reportMain(args));
}

if (import.meta.main) await entry(Deno.args);
