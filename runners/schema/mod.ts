/**
 * The result schema for tools that read rtbench's files: the
 * {@linkcode BenchResult} types, the JSON Schema (draft-07) as an object, and
 * {@linkcode parseResult}, which turns unknown JSON into a typed result or
 * throws naming the path of the first bad field. Every file rtbench writes is
 * validated before it is written. The schema is also in the package as a file,
 * `@rtbench/rtbench/schema.json`.
 *
 * @example Read a result file, typed
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { parseResult } from "@rtbench/rtbench/schema";
 *
 * const result = parseResult(await Deno.readTextFile("fixtures/results/base.json"));
 * assertEquals(result.records[0].workload, "http-json");
 * ```
 *
 * @example Find out what is wrong with a document
 * ```ts
 * import { assertThrows } from "@std/assert";
 * import { parseResult, SchemaError } from "@rtbench/rtbench/schema";
 *
 * assertThrows(() => parseResult({ schemaVersion: 1 }), SchemaError, "Invalid result at /suite: is required");
 * ```
 *
 * @module
 */

export {
  type BenchRecord,
  type BenchResult,
  type Check,
  type CpuSets,
  type DuetRatioRecord,
  type DuetWindow,
  type EndpointRun,
  type EndpointSummary,
  type Environment,
  type Fact,
  type Headline,
  type HostInfo,
  type HostRole,
  type Interruption,
  type LatencyPercentiles,
  type LoadGeneratorInfo,
  type LoadPhase,
  type MachineCalibration,
  type MachineIdentity,
  type Pairing,
  type PairingMode,
  type Phase,
  type ProcessEnvironment,
  type RecordError,
  type RecordStatus,
  RELEASE_WARNINGS,
  type RoundTrip,
  type RunAccounting,
  type RunOrder,
  type RunRecord,
  type RunSettings,
  type RuntimeInfo,
  type RuntimeRelease,
  SCHEMA_VERSION,
  type SuiteSettings,
  type Summary,
  type SupportStatus,
  type SweepStep,
  type Topology,
  type VariableFate,
  type VariableName,
  type VariableNames,
  type VariableReport,
  type VersionSelection,
  type Warning,
  type WorkloadKind,
} from "./result.ts";
export { KIND_REQUIREMENTS, WORKLOAD_KINDS } from "./kinds.ts";
export type {
  MeanPeak,
  NonNegative,
  Positive,
  ResourceRole,
  ResourceSeries,
  ResourceSummary,
  RoleSeries,
  RoleSummary,
} from "./resources.ts";
export { benchResultSchema, parseResult, SchemaError, type SchemaIssue, validateResult } from "./validate.ts";
export * from "./read.ts";
export * from "./write.ts";
