// Running a prepared request: progress on stderr, the result file written after every record (moved to a fallback
// when it cannot be), then the reports; an interrupted or failed suite says in one line what it kept and how to go on.

import { errorLine, tempLedger, UsageError, writeStdout } from "../platform/mod.ts";
import { exportResult, formatTable } from "../report/mod.ts";
import type { BenchResult } from "../schema/mod.ts";
import { createProgress, InterruptedError, type ProgressDisplay, run } from "../suite/mod.ts";
import { withFlagNames } from "./_flag_names.ts";
import { keepAndCompare } from "./_history.ts";
import { KeptFile } from "./_out.ts";
import { type Prepared, runOptionsOf } from "./_bench_request.ts";

/** Exit codes of the signals a suite stops on: 128 + the signal's number. */
const SIGNAL_EXIT: Readonly<Record<string, number>> = { SIGHUP: 129, SIGINT: 130, SIGTERM: 143 };

function terminalColumns(): number {
  try {
    // A pseudo-terminal without a size (script, CI runners) reports 0 columns.
    const { columns } = Deno.consoleSize();
    return columns >= 20 ? columns : 80;
  } catch {
    return 80;
  }
}

/** The progress display on stderr, ticking every second; none with `--quiet`. */
function startProgress(quiet: boolean): { display: ProgressDisplay | undefined; stop(): void } {
  if (quiet) return { display: undefined, stop() {} };
  const encoder = new TextEncoder();
  const display = createProgress({
    write: (text) => Deno.stderr.writeSync(encoder.encode(text)),
    columns: terminalColumns,
    live: Deno.stderr.isTerminal(),
  });
  const ticker = setInterval(() => display.tick(), 1000);
  return {
    display,
    stop() {
      clearInterval(ticker);
      display.stop();
    },
  };
}

/**
 * Runs the suite `prepared` asks for and delivers its reports; returns the
 * exit code.
 */
export async function measure(prepared: Prepared, signal: AbortSignal): Promise<number> {
  const { request, resultPath } = prepared;
  const file = new KeptFile(resultPath, console.error, tempLedger);
  const progress = startProgress(request.quiet);
  let result: BenchResult;
  try {
    result = await run({
      ...runOptionsOf(request),
      calibration: prepared.calibration,
      cpus: prepared.cpus,
      resume: prepared.previous && { file: resultPath, result: prepared.previous },
      signal,
      onProgress: progress.display?.update,
      onPartial: (partial) => file.writeResult(partial),
    });
  } catch (error) {
    progress.stop();
    await file.settled();
    return stopped(error, file, prepared, signal);
  } finally {
    progress.stop();
  }
  await file.writeResult(result);
  return await deliver(result, file, prepared);
}

/** Says in one line why the suite stopped and what it kept; returns the exit code. */
function stopped(error: unknown, file: KeptFile, prepared: Prepared, signal: AbortSignal): number {
  const flagged = withFlagNames(error instanceof InterruptedError ? error.cause : error);
  const code = signal.aborted
    ? SIGNAL_EXIT[(error as InterruptedError).result?.interrupted?.signal ?? ""] ?? 130
    : flagged instanceof UsageError || flagged instanceof RangeError
    ? 2
    : 1;
  if (!(error instanceof InterruptedError)) {
    // Refused before anything was measured or written.
    console.error(`${signal.aborted ? "\n" : ""}rtbench: ${errorLine(signal.aborted ? signal.reason : flagged)}`);
    if (prepared.request.debug) console.error((flagged as Error).stack);
    return code;
  }
  const { records, interrupted } = error.result;
  const partly = records.filter((r) => r.status === "interrupted").length;
  const done = records.length - partly;
  const notStarted = interrupted!.remaining.length - partly;
  const why = signal.aborted ? interrupted!.reason : `stopped: ${errorLine(flagged)}`;
  const kept = done + partly === 0
    ? "nothing was measured yet"
    : `${done} finished records${partly > 0 ? ` and the finished runs of ${partly} more` : ""}`;
  const again = [
    "deno task bench",
    ...(prepared.request.workloadFiles ?? []).flatMap((f) => ["--workload-file", f]),
    "--resume",
    file.path,
  ].join(" ");
  console.error(
    `${signal.aborted ? "\n" : ""}rtbench: ${why}; ${file.path} keeps ${kept} (${notStarted} records not started); ` +
      `go on with: ${again}`,
  );
  if (prepared.request.debug && !signal.aborted) console.error((flagged as Error).stack);
  return code;
}

/** Prints and writes the reports of a finished suite; returns the exit code. */
async function deliver(result: BenchResult, file: KeptFile, prepared: Prepared): Promise<number> {
  const { request, reportPath } = prepared;
  const format = request.format;
  const human = request.json ? console.error : console.log;
  if (format !== undefined && request.out === undefined) {
    // The report itself is the output: nothing else goes to stdout.
    await writeStdout(exportResult(result, format));
  } else {
    human(formatTable(result));
  }
  let moved = file.moved !== undefined;
  if (reportPath && format) {
    const report = new KeptFile(reportPath, console.error);
    await report.writeText(exportResult(result, format));
    moved ||= report.moved !== undefined;
    console.error(`Report written to ${report.path}`);
  }
  if (request.json && !(format === "json" && request.out === undefined)) console.log(JSON.stringify(result, null, 2));
  console.error(`Result written to ${file.path}`);
  const regressed = request.history !== undefined &&
    await keepAndCompare(
      request.history,
      prepared.history,
      result,
      file.path,
      request.failOnRegression,
      console.error,
      prepared.noiseFloor,
    );
  const failed = result.records.some((r) => r.status === "errored" || r.status === "invalid");
  // A file that could not go where it was asked is a failure too, though nothing was lost.
  return regressed || failed || moved ? 1 : 0;
}
