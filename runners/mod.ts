/**
 * Running suites and working with their results: {@linkcode run} (what
 * `deno task bench` does, without printing), the load generators, the
 * exporters and tables, comparison of two results, calibration of the load
 * generators, and reading and writing result files.
 *
 * The result types and the schema validator are in `@rtbench/rtbench/schema`.
 *
 * @example Render a stored result as Markdown
 * ```ts
 * import { assert } from "@std/assert";
 * import { exportResult, readResultFile } from "@rtbench/rtbench/runners";
 *
 * const result = await readResultFile("fixtures/results/base.json");
 * const markdown = exportResult(result, "md");
 * assert(markdown.includes("http-json"));
 * ```
 *
 * @example Run one workload on Deno and print the table
 * ```ts ignore
 * import { formatTable, run } from "@rtbench/rtbench/runners";
 * import { httpJson } from "@rtbench/rtbench/workloads";
 *
 * const result = await run({ workloads: [httpJson], runtimes: ["deno"], settings: { durationSec: 2, runs: 1 } });
 * console.log(formatTable(result));
 * ```
 *
 * @module
 */

export { type ProgressEvent, run, type RunOptions, VERSION } from "./suite.ts";
export type { LoadGenerator, LoadMeasurement, LoadRunOptions, LoadSettings, LoadTarget } from "./types.ts";
export { builtinLoadGenerators } from "./generators.ts";
export { autocannonGenerator } from "./autocannon.ts";
export { wrkCheckingGenerator, wrkGenerator } from "./wrk.ts";
export { bombardierGenerator } from "./bombardier.ts";
export { ohaGenerator } from "./oha.ts";
export {
  runWebSocketDriver,
  type WebSocketClient,
  type WebSocketDriverOptions,
  type WebSocketLoadJob,
  type WebSocketMeasurement,
} from "./websocket_driver.ts";
export {
  calibrate,
  type CalibrateOptions,
  type Calibration,
  type CalibrationRow,
  type CalibrationVerdict,
  formatCalibration,
} from "./calibrate.ts";
export { type Profile, PROFILES } from "./settings.ts";
export { DEFAULT_RUN_TIMEOUT_SEC, HOOK_TIMEOUTS_SEC, type HookTimeouts } from "./timeouts.ts";
export { DONE_STATUSES } from "./resume.ts";
export { summarize } from "./stats.ts";
export { type WelchResult, welchTest } from "./welch.ts";
export {
  type CompareOptions,
  compareResults,
  type Comparison,
  type FigureComparison,
  formatComparison,
  regressions,
  type Verdict,
} from "./compare.ts";
export { formatTable } from "./table.ts";
export {
  EXPORT_FORMATS,
  type Exporter,
  EXPORTERS,
  type ExportFormat,
  exportResult,
  formatCsv,
  formatHtml,
  formatJson,
  formatMarkdown,
  parseFormat,
} from "./exporters/mod.ts";
export { readResultFile } from "./read_result.ts";
export { writeResult } from "./write.ts";
export { createProgress, type ProgressDisplay, type ProgressOptions } from "./progress.ts";
export { UsageError } from "./errors.ts";
