/**
 * rtbench: benchmark JavaScript runtimes (Node.js, Deno, Bun) on the same
 * verified workloads and get every number in one versioned result schema.
 *
 * The public surface: the workload, adapter and load-generator contracts, the
 * built-in workloads and adapters, the `run()` entry point, the result schema
 * with its validator, and the exporters.
 *
 * @example Run one workload on two runtimes
 * ```ts ignore
 * import { httpJson, run } from "@rtbench/rtbench";
 * const result = await run({ workloads: [httpJson], runtimes: ["deno", "node"] });
 * console.log(result.records.map((r) => [r.runtime.name, r.summary.requestsPerSecond?.median]));
 * ```
 *
 * @module
 */

export * from "./workloads/mod.ts";
export * from "./adapters/mod.ts";
export type {
  LatencyPercentiles,
  LoadGenerator,
  LoadMeasurement,
  LoadRunOptions,
  LoadSettings,
  LoadTarget,
} from "./runners/types.ts";
export type {
  BenchRecord,
  BenchResult,
  CpuSets,
  Environment,
  Headline,
  LoadGeneratorInfo,
  Phase,
  RecordError,
  RecordStatus,
  RunRecord,
  RuntimeInfo,
  SuiteSettings,
  Summary,
  Warning,
} from "./runners/result.ts";
export { SCHEMA_VERSION } from "./runners/result.ts";
export { benchResultSchema, parseResult, SchemaError, type SchemaIssue, validateResult } from "./runners/schema.ts";
export { type ProgressEvent, run, type RunOptions, VERSION } from "./runners/suite.ts";
export { DEFAULT_RUN_TIMEOUT_SEC, HOOK_TIMEOUTS_SEC, type HookTimeouts } from "./runners/timeouts.ts";
export { DONE_STATUSES } from "./runners/resume.ts";
export { autocannonGenerator } from "./runners/autocannon.ts";
export {
  DEFAULT_WEBSOCKET_CLIENT,
  runWebSocketDriver,
  type WebSocketClient,
  type WebSocketDriverOptions,
  type WebSocketLoadJob,
  type WebSocketMeasurement,
} from "./runners/websocket_driver.ts";
export { wrkCheckingGenerator, wrkGenerator } from "./runners/wrk.ts";
export { bombardierGenerator } from "./runners/bombardier.ts";
export { ohaGenerator } from "./runners/oha.ts";
export {
  builtinLoadGenerators,
  chooseLoadGenerators,
  type LoadGeneratorChoice,
  pickLoadGenerator,
} from "./runners/generators.ts";
export {
  combineSummaries,
  DEFAULT_INTERVAL_MS,
  type MeanPeak,
  type ResourceReport,
  type ResourceRole,
  ResourceSampler,
  type ResourceSeries,
  type ResourceSummary,
  type RoleSeries,
  type RoleSummary,
  type SamplerOptions,
  startSampler,
} from "./runners/resources.ts";
export { AT_LIMIT, clientBoundWarning, type Saturation, saturation } from "./runners/client_bound.ts";
export { judgeParity, type ParityObservation, type ParityVerdict } from "./runners/parity.ts";
export { ciHalfWidthPercent, needsAnotherRun, type RunPlan, runPlan } from "./runners/adaptive.ts";
export {
  calibrate,
  type CalibrateOptions,
  type Calibration,
  type CalibrationRow,
  type CalibrationVerdict,
  formatCalibration,
} from "./runners/calibrate.ts";
export { type Profile, PROFILES } from "./runners/settings.ts";
export { summarize } from "./runners/stats.ts";
export {
  DEFAULT_MAX_RUNS,
  defaultTimer,
  type ProcessTimer,
  spawnTimer,
  type TimerRequest,
  wait4Timer,
} from "./runners/process_timer.ts";
export { OUTLIER_Z, outlierIndices } from "./runners/process.ts";
export { formatTable } from "./runners/table.ts";
export {
  CSV_COLUMNS,
  EXPORT_FORMATS,
  type Exporter,
  EXPORTERS,
  type ExportFormat,
  exportResult,
  EXTRA_COLORS,
  figureUnit,
  formatCsv,
  formatHtml,
  formatJson,
  formatMarkdown,
  parseFormat,
  RUNTIME_COLORS,
} from "./runners/exporters/mod.ts";
export {
  type CompareOptions,
  compareResults,
  type Comparison,
  type FigureComparison,
  formatComparison,
  regressions,
  type Verdict,
} from "./runners/compare.ts";
export { tQuantile, tTwoSidedP, type WelchResult, welchTest } from "./runners/welch.ts";
export { readResultFile } from "./runners/read_result.ts";
export { createProgress, type ProgressDisplay, type ProgressOptions } from "./runners/progress.ts";
export { writeResult } from "./runners/write.ts";
export { UsageError } from "./runners/errors.ts";
