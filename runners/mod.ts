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

export { InterruptedError, run, type RunOptions, VERSION } from "./suite/mod.ts";
export type {
  EndpointMeasurement,
  LoadGenerator,
  LoadMeasurement,
  LoadRunOptions,
  LoadSettings,
  LoadTarget,
  MeasuredPhase,
} from "./drivers/mod.ts";
export type { ClientHostShare } from "./drivers/mod.ts";
export { HUNG_FLOOR_MS, hungAfterMs, type LoadAccounting } from "./drivers/mod.ts";
export type { HostsOption } from "./drivers/mod.ts";

export { builtinLoadGenerators } from "./drivers/mod.ts";
export { autocannonGenerator } from "./drivers/mod.ts";
export { ENGINE_BUN_VERSION, engineGenerator } from "./drivers/mod.ts";
export { wrkCheckingGenerator, wrkGenerator } from "./drivers/mod.ts";
export { locustGenerator } from "./drivers/mod.ts";
export { bombardierGenerator } from "./drivers/mod.ts";
export { ohaGenerator } from "./drivers/mod.ts";
export {
  runWebSocketDriver,
  type WebSocketClient,
  type WebSocketDriverOptions,
  type WebSocketLoadJob,
  type WebSocketMeasurement,
} from "./drivers/mod.ts";
export {
  type CalibrateOptions,
  type Calibration,
  type CalibrationRow,
  type CalibrationVerdict,
  formatCalibration,
  measureGeneratorCeilings,
} from "./selfcheck/mod.ts";
export { type Profile, PROFILES } from "./suite/mod.ts";
export { DEFAULT_RUN_TIMEOUT_SEC, HOOK_TIMEOUTS_SEC, type HookTimeouts } from "./kinds/mod.ts";
export { DONE_STATUSES } from "./suite/mod.ts";
export { summarize } from "./stats/mod.ts";
export { type WelchResult, welchTest } from "./stats/mod.ts";
export {
  type CompareOptions,
  compareResults,
  type Comparison,
  type FigureComparison,
  formatComparison,
  type NoiseFloor,
  regressions,
  type Verdict,
} from "./report/mod.ts";
export { type FloorRow, floorRows, noiseFloorOf } from "./report/mod.ts";
export type { RatioInterval, RatioMethod } from "./stats/mod.ts";
export { formatTable } from "./report/mod.ts";
export { type HistoryEntry, keepInHistory, lastComparable, readHistory } from "./report/mod.ts";
export {
  buildTrend,
  formatTrendJson,
  formatTrendMarkdown,
  type Trend,
  type TrendChange,
  type TrendPoint,
  type TrendSeries,
  type TrendStep,
  type TrendTable,
  trendTables,
} from "./report/mod.ts";
export { formatTrendHtml } from "./report/mod.ts";
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
} from "./report/mod.ts";
export { readResultFile } from "./schema/mod.ts";
export { type TempOwner, type WriteOptions, writeResult } from "./schema/mod.ts";
export { createProgress, type ProgressDisplay, type ProgressEvent, type ProgressOptions } from "./suite/mod.ts";
export { RequestError, UsageError } from "./platform/mod.ts";
