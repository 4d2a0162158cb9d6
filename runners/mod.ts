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

export { run, type RunOptions, VERSION } from "./suite/run.ts";
export type {
  EndpointMeasurement,
  LoadGenerator,
  LoadMeasurement,
  LoadRunOptions,
  LoadSettings,
  LoadTarget,
  MeasuredPhase,
} from "./drivers/types.ts";
export type { ClientHostShare } from "./drivers/remote_engine.ts";
export type { HostsOption } from "./drivers/remote.ts";

export { builtinLoadGenerators } from "./drivers/generators.ts";
export { autocannonGenerator } from "./drivers/autocannon.ts";
export { ENGINE_BUN_VERSION, engineGenerator } from "./drivers/engine.ts";
export { wrkCheckingGenerator, wrkGenerator } from "./drivers/wrk.ts";
export { locustGenerator } from "./drivers/locust.ts";
export { bombardierGenerator } from "./drivers/bombardier.ts";
export { ohaGenerator } from "./drivers/oha.ts";
export {
  runWebSocketDriver,
  type WebSocketClient,
  type WebSocketDriverOptions,
  type WebSocketLoadJob,
  type WebSocketMeasurement,
} from "./drivers/websocket.ts";
export {
  calibrate,
  type CalibrateOptions,
  type Calibration,
  type CalibrationRow,
  type CalibrationVerdict,
  formatCalibration,
} from "./selfcheck/calibrate.ts";
export { type Profile, PROFILES } from "./suite/settings.ts";
export { DEFAULT_RUN_TIMEOUT_SEC, HOOK_TIMEOUTS_SEC, type HookTimeouts } from "./kinds/timeouts.ts";
export { DONE_STATUSES } from "./suite/resume.ts";
export { summarize } from "./stats/summary.ts";
export { type WelchResult, welchTest } from "./stats/welch.ts";
export {
  type CompareOptions,
  compareResults,
  type Comparison,
  type FigureComparison,
  formatComparison,
  type NoiseFloor,
  regressions,
  type Verdict,
} from "./report/compare.ts";
export { type FloorRow, floorRows, noiseFloorOf } from "./report/noise_floor.ts";
export type { RatioInterval, RatioMethod } from "./stats/paired.ts";
export { formatTable } from "./report/table.ts";
export { type HistoryEntry, keepInHistory, lastComparable, readHistory } from "./report/history.ts";
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
} from "./report/trend.ts";
export { formatTrendHtml } from "./report/trend_html.ts";
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
export { readResultFile } from "./schema/read.ts";
export { writeResult } from "./schema/write.ts";
export { createProgress, type ProgressDisplay, type ProgressEvent, type ProgressOptions } from "./report/progress.ts";
export { UsageError } from "./platform/errors.ts";
