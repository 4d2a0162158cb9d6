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
export { autocannonGenerator } from "./runners/autocannon.ts";
export {
  DEFAULT_WEBSOCKET_CLIENT,
  runWebSocketDriver,
  type WebSocketClient,
  type WebSocketDriverOptions,
  type WebSocketLoadJob,
  type WebSocketMeasurement,
} from "./runners/websocket_driver.ts";
export { type Profile, PROFILES } from "./runners/settings.ts";
export { summarize } from "./runners/stats.ts";
export { formatTable } from "./runners/table.ts";
export { writeResult } from "./runners/write.ts";
export { UsageError } from "./runners/errors.ts";
