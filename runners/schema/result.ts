/**
 * The `BenchResult` schema: one versioned JSON document per suite run, with an
 * environment fingerprint and one record per workload × variant × runtime.
 * Field names carry their units (`durationMs`, `latencyUs`, `requestsPerSecond`).
 *
 * @module
 */

import type { MachineIdentity, VariableFate, VariableName, VariableNames, VariableReport } from "../base/mod.ts";
import type { NonNegative, Positive, ResourceSeries, ResourceSummary } from "./resources.ts";
import type { WORKLOAD_KINDS } from "./kinds.ts";

export type { MachineIdentity, VariableFate, VariableName, VariableNames, VariableReport };

/**
 * How a workload is driven; each kind has its own module in `runners/kinds/`. One of `WORKLOAD_KINDS`.
 *
 * @example Kinds of the built-in workloads
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { builtinWorkloads, type WorkloadKind } from "@rtbench/rtbench/workloads";
 *
 * const kinds = new Set<WorkloadKind>(builtinWorkloads.map((w) => w.kind));
 * assertEquals([...kinds].sort(), ["http", "micro", "process", "websocket"]);
 * ```
 */
export type WorkloadKind = (typeof WORKLOAD_KINDS)[number];

/**
 * Settings that shape a measurement; every record carries the ones it used.
 *
 * @example The quick profile's settings
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { PROFILES } from "@rtbench/rtbench/runners";
 * import type { RunSettings } from "@rtbench/rtbench/workloads";
 *
 * const quick: RunSettings = PROFILES.quick;
 * assertEquals([quick.durationSec, quick.runs, quick.connections], [1, 3, 100]);
 * ```
 */
export interface RunSettings {
  /**
   * Measured seconds per run.
   *
   * @default {1} (quick profile)
   * @exclusiveMinimum 0
   */
  readonly durationSec: number;
  /**
   * Warm-up seconds before each measured run; its figures are discarded.
   *
   * @default {0.5} (quick profile)
   * @minimum 0
   */
  readonly warmupSec: number;
  /**
   * Concurrent connections held by the load generator.
   *
   * @default {100}
   * @minimum 1
   * @asType integer
   */
  readonly connections: number;
  /**
   * Measured runs, each with a fresh server.
   *
   * @default {3} (quick profile)
   * @minimum 1
   * @asType integer
   */
  readonly runs: number;
  /**
   * Requests in flight per connection (HTTP pipelining).
   *
   * @default {1}
   * @minimum 1
   * @asType integer
   */
  readonly pipelining: number;
  /** Whether connections are kept alive between requests. @default {true} */
  readonly keepAlive: boolean;
  /**
   * Seconds a single request may take before it counts as a timeout.
   *
   * @default {10}
   * @exclusiveMinimum 0
   */
  readonly requestTimeoutSec: number;
  /**
   * Seconds a server may take to accept connections after spawn.
   *
   * @default {30}
   * @exclusiveMinimum 0
   */
  readonly startTimeoutSec: number;
  /**
   * Adaptive runs: at least this many runs (`--min-runs`); unset means exactly `runs`.
   *
   * @minimum 1
   * @asType integer
   */
  readonly minRuns?: number;
  /**
   * Adaptive runs: stop at this many runs even if the interval is still wide (`--max-runs`).
   *
   * @minimum 1
   * @asType integer
   */
  readonly maxRuns?: number;
  /**
   * Adaptive runs: stop once the 95% CI half-width of the headline is below this percent of its mean.
   *
   * @default {3}
   * @exclusiveMinimum 0
   */
  readonly ciTargetPercent?: number;
  /**
   * Milliseconds between resource samples of server and load generator.
   *
   * @default {250}
   * @minimum 10
   */
  readonly sampleIntervalMs?: number;
  /**
   * Open model: requests (or messages) per second on a fixed schedule (`--rate`); absent means the closed model.
   *
   * @exclusiveMinimum 0
   */
  readonly rate?: number;
  /**
   * Open model: phases of constant and ramping rates, as given (`--phases "10s@1000,30s@1000->8000"`).
   *
   * @minLength 1
   */
  readonly phases?: string;
  /** Open model: evenly spaced arrivals or a Poisson process (`--arrival`). @default {"uniform"} */
  readonly arrival?: "uniform" | "poisson";
  /** A latency–throughput sweep (`--sweep`): a closed-model peak, then fixed rates from 10% to 110% of it. */
  readonly sweep?: boolean;
  /**
   * Rates of the sweep (`--sweep-steps`).
   *
   * @default {10}
   * @minimum 2
   * @asType integer
   */
  readonly sweepSteps?: number;
  /**
   * The sweep's knee is the highest rate whose p99 stays at or under this many ms (`--slo-p99`).
   *
   * @default {50}
   * @exclusiveMinimum 0
   */
  readonly sloP99Ms?: number;
  /**
   * A fixed-rate window after each run's measurement (`--cpu-rate`), at this many requests (WebSocket: messages) per
   * second on the same server, in which its CPU time per request is counted from the kernel's counters: a rate every
   * runtime can hold, so that a client at its limit in the closed model does not decide the comparison. 0 or absent:
   * none.
   *
   * @minimum 0
   */
  readonly cpuRate?: number;
  /**
   * Idle keep-alive connections (WebSocket: open sockets) held on each run's server after its load (`--idle-
   * connections`), to measure its memory per connection: resident memory with them open less without. 0 or absent:
   * none.
   *
   * @minimum 0
   * @asType integer
   */
  readonly idleConnections?: number;
  /**
   * CPUs the server gets (`--server-cpus`), the rest going to the load generator, and the runtime's own
   * multi-core form serving on all of them (`node:cluster`, `deno serve --parallel`, ...). Absent: one process
   * on half the CPUs, as each runtime runs by default.
   *
   * @minimum 1
   */
  readonly serverCpus?: number | "all";
}

/**
 * A fact a workload records beside its figures (a version, a cost, a count).
 *
 * @example Facts a workload records
 * ```ts
 * import type { Fact } from "@rtbench/rtbench/workloads";
 *
 * const facts: Record<string, Fact> = { hashCost: 10, implementation: "bcryptjs", native: false, addon: null };
 * ```
 */
export type Fact = string | number | boolean | null;

/**
 * One verification step: what was expected and what was seen.
 *
 * @example A passed check
 * ```ts
 * import { assert } from "@std/assert";
 * import type { Check } from "@rtbench/rtbench/workloads";
 *
 * const check: Check = { name: "content-type", passed: true, expected: "application/json", actual: "application/json" };
 * assert(check.passed);
 * ```
 */
export interface Check {
  /** What was checked, for example `content-type`. */
  readonly name: string;
  /** Whether the check passed. */
  readonly passed: boolean;
  /** The expected value, when there is one. */
  readonly expected?: Fact;
  /** The observed value. */
  readonly actual?: Fact;
}

/**
 * Latency percentiles in microseconds; keys follow autocannon's table.
 *
 * @example The merged latency of a stored record
 * ```ts
 * import { assert } from "@std/assert";
 * import { type LatencyPercentiles, parseResult } from "@rtbench/rtbench/schema";
 *
 * const result = parseResult(await Deno.readTextFile("fixtures/results/base.json"));
 * const latency: LatencyPercentiles | null = result.records[0].latencyUs;
 * assert(latency !== null && latency.p50 <= latency.p99);
 * ```
 */
export interface LatencyPercentiles {
  /**
   * Fastest response.
   *
   * @minimum 0
   */
  readonly min: number;
  /**
   * 2.5th percentile.
   *
   * @minimum 0
   */
  readonly p2_5: number;
  /**
   * Median.
   *
   * @minimum 0
   */
  readonly p50: number;
  /**
   * 90th percentile.
   *
   * @minimum 0
   */
  readonly p90: number;
  /**
   * 97.5th percentile.
   *
   * @minimum 0
   */
  readonly p97_5: number;
  /**
   * 99th percentile.
   *
   * @minimum 0
   */
  readonly p99: number;
  /**
   * 99.9th percentile.
   *
   * @minimum 0
   */
  readonly p99_9: number;
  /**
   * Slowest response.
   *
   * @minimum 0
   */
  readonly max: number;
  /**
   * Arithmetic mean.
   *
   * @minimum 0
   */
  readonly mean: number;
  /**
   * Standard deviation.
   *
   * @minimum 0
   */
  readonly stdev: number;
}

/**
 * Version of the result schema; bumped on any incompatible change.
 *
 * @example Check a file's schema version
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { SCHEMA_VERSION } from "@rtbench/rtbench/schema";
 *
 * const file = JSON.parse(await Deno.readTextFile("fixtures/results/base.json"));
 * assertEquals(file.schemaVersion, SCHEMA_VERSION);
 * ```
 */
export const SCHEMA_VERSION = 1;

/**
 * How a record ended; a union discriminated by this field. `interrupted`: the
 * suite stopped (a signal, or an error of rtbench's own) before the record's
 * runs were all measured; its finished runs are kept, and `--resume` measures
 * the rest.
 *
 * @example Count what did not complete
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { parseResult, type RecordStatus } from "@rtbench/rtbench/schema";
 *
 * const head = parseResult(await Deno.readTextFile("fixtures/results/head.json"));
 * const failed: RecordStatus[] = ["errored", "invalid"];
 * assertEquals(head.records.filter((r) => failed.includes(r.status)).map((r) => r.id), ["http-json/default/node@99"]);
 * ```
 */
export type RecordStatus = "completed" | "errored" | "invalid" | "skipped" | "interrupted";

/**
 * The phase a record was in when it failed.
 *
 * @example Where an errored record failed
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { parseResult, type Phase } from "@rtbench/rtbench/schema";
 *
 * const head = parseResult(await Deno.readTextFile("fixtures/results/head.json"));
 * const phases: Phase[] = head.records.flatMap((r) => r.error ? [r.error.phase] : []);
 * assertEquals(phases, ["provision"]);
 * ```
 */
export type Phase = "provision" | "setup" | "start" | "verify" | "warmup" | "measure" | "cleanup";

/**
 * A typed warning attached to a result or a record.
 *
 * @example Records flagged client-bound
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { parseResult, type Warning } from "@rtbench/rtbench/schema";
 *
 * const head = parseResult(await Deno.readTextFile("fixtures/results/head.json"));
 * const bound = head.records.filter((r) => r.warnings.some((w: Warning) => w.code === "client-bound"));
 * assertEquals(bound.map((r) => r.runtime.name), ["bun"]);
 * ```
 */
export interface Warning {
  /**
   * Stable code, for example `client-bound`, `not-pinned`.
   *
   * @pattern ^[a-z0-9-]+$
   */
  readonly code: string;
  /** One sentence for people. */
  readonly message: string;
}

/**
 * A serialized error.
 *
 * @example The serialized error of a record
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { parseResult, type RecordError } from "@rtbench/rtbench/schema";
 *
 * const head = parseResult(await Deno.readTextFile("fixtures/results/head.json"));
 * const error: RecordError | null = head.records[3].error;
 * assertEquals(error?.message, "Cannot provision node@99: npm has no version matching 99");
 * ```
 */
export interface RecordError {
  /** Phase the record was in. */
  readonly phase: Phase;
  /** Error class name. */
  readonly name: string;
  /** What went wrong. */
  readonly message: string;
}

/**
 * The machine and software a result was produced on.
 *
 * @example The machine a result comes from
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { type Environment, parseResult } from "@rtbench/rtbench/schema";
 *
 * const env: Environment = parseResult(await Deno.readTextFile("fixtures/results/base.json")).environment;
 * assertEquals([env.os, env.logicalCores], ["linux", 2]);
 * ```
 */
export interface Environment {
  /** Operating system (`linux`, `darwin`, ...). */
  readonly os: string;
  /** Distribution or OS name and version when readable. */
  readonly osName: string | null;
  /** Kernel release. */
  readonly kernel: string;
  /** CPU architecture. */
  readonly arch: string;
  /** CPU model name when readable. */
  readonly cpuModel: string | null;
  /**
   * Logical CPUs.
   *
   * @minimum 1
   * @asType integer
   */
  readonly logicalCores: number;
  /** CPUs this process may run on (the affinity list), for example `0-1`. */
  readonly allowedCpus: string | null;
  /**
   * Total memory.
   *
   * @minimum 0
   * @asType integer
   * @nullable
   */
  readonly memoryBytes: number | null;
  /** CPU frequency governor of cpu0 when readable. */
  readonly cpuGovernor: string | null;
  /** Whether turbo / boost is enabled, when readable. */
  readonly cpuTurbo: boolean | null;
  /** Versions of the Deno running the harness. */
  readonly harness: { readonly deno: string; readonly v8: string; readonly typescript: string };
  /**
   * Git commit of rtbench's checkout, when it is one.
   *
   * @pattern ^[0-9a-f]{7,64}$
   */
  readonly gitCommit: string | null;
  /** Whether the checkout had uncommitted changes; null when not a git checkout. */
  readonly gitDirty?: boolean | null;
  /**
   * Load average over 1, 5 and 15 minutes when the suite started, where readable.
   *
   * @minItems 3
   * @maxItems 3
   */
  readonly loadAverage?: readonly NonNegative[] | null;
  /** Every load generator rtbench knows, with its version, or null when it is not installed. */
  readonly loadGenerators?: Readonly<Record<string, string | null>>;
  /**
   * What rtbench did with the variables of the environment it was started in: the names every process may take,
   * those installs also take, those kept with `--pass-env`, and the fate of every variable known to change a
   * runtime. Absent in files written before processes got a built environment (they inherited rtbench's whole).
   */
  readonly variables?: VariableReport;
  /**
   * What tells this machine apart from another whose CPU model name reads the same (hypervisors mask it): CPU
   * vendor, family, model number, stepping, microcode, caches, hypervisor, the kernel's CPU mitigations. Results
   * are compared only within one identity. Absent in files written before it was recorded.
   */
  readonly machine?: MachineIdentity;
  /**
   * The machine calibration measured when the suite started (a fixed single-core workload, about a second);
   * null when it could not be measured, absent in files written before it was. Results whose calibrations differ
   * beyond their noise are not compared.
   */
  readonly calibration?: MachineCalibration | null;
}

/**
 * A fixed single-core workload timed at the start of every suite: how fast this machine ran that day.
 *
 * @example Did two suites run at the same speed?
 * ```ts
 * import type { MachineCalibration } from "@rtbench/rtbench/schema";
 *
 * const change = (a: MachineCalibration, b: MachineCalibration) => (b.medianMs - a.medianMs) / a.medianMs;
 * ```
 */
export interface MachineCalibration {
  /**
   * The work, by name and version (`rtbench-calibration/1`): only equal works are compared.
   *
   * @minLength 1
   */
  readonly work: string;
  /** What ran it (`deno 2.9.6`): only calibrations run on the same are compared. */
  readonly runtime: string;
  /** The CPU it was pinned to (the first server CPU), when its affinity was that one CPU; null when not pinned. */
  readonly cpu: string | null;
  /**
   * Each timed round, after one warm-up round.
   *
   * @minItems 1
   */
  readonly roundsMs: readonly Positive[];
  /**
   * The median round.
   *
   * @exclusiveMinimum 0
   */
  readonly medianMs: number;
  /**
   * The rounds' median absolute deviation, in percent of the median: the calibration's own noise.
   *
   * @minimum 0
   */
  readonly spreadPercent: number;
}

/**
 * Which CPUs the server and the client were pinned to.
 *
 * @example Server on CPU 0, load generator on CPU 1
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { type CpuSets, parseResult } from "@rtbench/rtbench/schema";
 *
 * const cpus: CpuSets = parseResult(await Deno.readTextFile("fixtures/results/base.json")).records[0].cpus;
 * assertEquals(cpus, { server: "0", client: "1" });
 * ```
 */
export interface CpuSets {
  /** Server CPU list for `taskset`, or null when not pinned. */
  readonly server: string | null;
  /** Load generator CPU list, or null when not pinned. */
  readonly client: string | null;
}

/**
 * A runtime as measured.
 *
 * @example The runtimes of a result
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { parseResult, type RuntimeInfo } from "@rtbench/rtbench/schema";
 *
 * const runtimes: RuntimeInfo[] = parseResult(await Deno.readTextFile("fixtures/results/base.json")).records
 *   .map((r) => r.runtime);
 * assertEquals(runtimes.map((r) => r.engine), ["V8", "V8", "JavaScriptCore"]);
 * ```
 */
export interface RuntimeInfo {
  /** Runtime name. */
  readonly name: string;
  /** What was asked for, for example `bun@1.2.0`. */
  readonly requested: string;
  /** Exact version; null when the runtime could not be had. */
  readonly version: string | null;
  /** Engine (`V8`, `JavaScriptCore`). */
  readonly engine: string | null;
  /** Engine version when reported. */
  readonly engineVersion: string | null;
  /** Binary path. */
  readonly binary: string | null;
  /** Where the binary came from (`harness`, `path`, `cache`, `provisioned`). */
  readonly source: "harness" | "path" | "cache" | "provisioned" | null;
  /** The arm of an A/A run (`--aa`): the same runtime measured as two, A and B, interleaved as two runtimes. */
  readonly arm?: "A" | "B";
  /** How its version was chosen; absent in files written before it was recorded. */
  readonly selection?: VersionSelection;
  /**
   * Its release line and that line's support on the day it was measured; null when it has none (a native baseline, a
   * runtime that could not be had), absent in files written before it was recorded.
   */
  readonly release?: RuntimeRelease | null;
}

/**
 * How a runtime's version was chosen: without a version named, the release a user would deploy that day
 * (`active-lts`: the newest Node.js of the Active LTS line; `latest`: the newest stable release), or, npm being out
 * of reach, the newest one already cached (`cached`); `system`: the binary on this machine, named with
 * `<runtime>@system`; `requested`: the version or range named.
 *
 * @example Was this runtime chosen by rtbench?
 * ```ts
 * import type { RuntimeInfo, VersionSelection } from "@rtbench/rtbench/schema";
 *
 * const byDefault: readonly VersionSelection[] = ["active-lts", "latest", "cached"];
 * const chosenByRtbench = (r: RuntimeInfo) => r.selection !== undefined && byDefault.includes(r.selection);
 * ```
 */
export type VersionSelection = "active-lts" | "latest" | "cached" | "system" | "requested";

/**
 * Where a runtime's release line stands: Node.js's `current`, `active-lts`, `maintenance` and `end-of-life`, from
 * its release schedule; for a runtime without a published schedule (Deno, Bun), `latest` when its line is the newest
 * on npm, else `superseded`; `unknown` when npm could not be asked.
 *
 * @example Statuses a user should not deploy
 * ```ts
 * import type { SupportStatus } from "@rtbench/rtbench/schema";
 *
 * const unsupported: readonly SupportStatus[] = ["end-of-life", "superseded"];
 * ```
 */
export type SupportStatus =
  | "current"
  | "active-lts"
  | "maintenance"
  | "end-of-life"
  | "latest"
  | "superseded"
  | "unknown";

/**
 * A runtime's release line and its support on the day it was measured.
 *
 * @example Node.js 20 in late 2026
 * ```ts
 * import type { RuntimeRelease } from "@rtbench/rtbench/schema";
 *
 * const release: RuntimeRelease = {
 *   line: "20",
 *   status: "end-of-life",
 *   since: "2026-04-30",
 *   lineReleased: "2023-04-18",
 *   asOf: "2026-11-28",
 *   source: "node-releases 2.0.66",
 * };
 * ```
 */
export interface RuntimeRelease {
  /** The release line: the major version for Node.js (`26`), `major.minor` for Deno and Bun (`2.9`). */
  readonly line: string;
  /** The line's support on {@linkcode RuntimeRelease.asOf}. */
  readonly status: SupportStatus;
  /** The day that status began (end of life since `2026-04-30`), where the source says; null otherwise. */
  readonly since: string | null;
  /** The day the line's first release came out (for Deno and Bun: npm's first publication of it); null if unknown. */
  readonly lineReleased: string | null;
  /**
   * The day the status was read for: the day the runtime was resolved (`YYYY-MM-DD`, UTC).
   *
   * @pattern ^\d{4}-\d{2}-\d{2}$
   */
  readonly asOf: string;
  /** Where the status comes from: `node-releases 2.0.66` (Node.js's schedule), `npm registry`. */
  readonly source: string;
}

/**
 * The codes of the suite-wide warnings about the runtimes' releases, which every report shows under its overview:
 * an end-of-life runtime (`end-of-life`), runtimes whose release lines came out years apart (`release-age`), and a
 * version chosen from the cache because npm could not be reached (`release-offline`).
 *
 * @example The release warnings of a result
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { parseResult, RELEASE_WARNINGS } from "@rtbench/rtbench/schema";
 *
 * const result = parseResult(await Deno.readTextFile("fixtures/results/base.json"));
 * assertEquals(result.warnings.filter((w) => RELEASE_WARNINGS.includes(w.code)), []);
 * ```
 */
export const RELEASE_WARNINGS: readonly string[] = ["end-of-life", "release-age", "release-offline"];

/**
 * Summary statistics of one figure over the measured runs.
 *
 * @example A median with its confidence interval
 * ```ts
 * import { assert } from "@std/assert";
 * import { parseResult, type Summary } from "@rtbench/rtbench/schema";
 *
 * const record = parseResult(await Deno.readTextFile("fixtures/results/base.json")).records[0];
 * const rps: Summary = record.summary[record.headline.figure];
 * assert(rps.ci95 !== null && rps.ci95.low <= rps.mean && rps.mean <= rps.ci95.high);
 * ```
 */
export interface Summary {
  /**
   * Number of runs.
   *
   * @minimum 1
   * @asType integer
   */
  readonly n: number;
  /** Median. */
  readonly median: number;
  /** Mean. */
  readonly mean: number;
  /**
   * Sample standard deviation (0 for one run).
   *
   * @minimum 0
   */
  readonly stdev: number;
  /** Smallest run. */
  readonly min: number;
  /** Largest run. */
  readonly max: number;
  /** 95% confidence interval of the mean (Student's t), null for fewer than 2 runs. */
  readonly ci95: { readonly low: number; readonly high: number } | null;
}

/**
 * The raw figures of one measured run.
 *
 * @example Every run's raw figure
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { parseResult, type RunRecord } from "@rtbench/rtbench/schema";
 *
 * const runs: readonly RunRecord[] = parseResult(await Deno.readTextFile("fixtures/results/base.json")).records[0].runs;
 * assertEquals(runs.length, 5);
 * ```
 */
export interface RunRecord {
  /**
   * Zero-based run index.
   *
   * @minimum 0
   * @asType integer
   */
  readonly index: number;
  /**
   * When the run started (ISO 8601).
   *
   * @format date-time
   */
  readonly startedAt: string;
  /**
   * Scheduler round: run i of every runtime of a variant is measured in round i (absent in older files).
   *
   * @minimum 0
   * @asType integer
   */
  readonly round?: number;
  /**
   * Position of this run within its round, 0 first (see {@linkcode SuiteSettings.order}).
   *
   * @minimum 0
   * @asType integer
   */
  readonly slot?: number;
  /** Figures of this run, keyed by name with the unit in the name. */
  readonly figures: Readonly<Record<string, number>>;
  /** Failures counted apart from the samples. */
  readonly counts: {
    /**
     * @minimum 0
     *
     * @asType integer
     */
    readonly errors: number;
    /**
     * @minimum 0
     *
     * @asType integer
     */
    readonly timeouts: number;
    /**
     * @minimum 0
     *
     * @asType integer
     */
    readonly non2xx: number;
    /**
     * @minimum 0
     *
     * @asType integer
     */
    readonly mismatches: number;
  };
  /** Latency percentiles of this run. */
  readonly latencyUs: LatencyPercentiles | null;
  /** This run's latency histogram (HDR compressed base64, microseconds). */
  readonly latencyHistogram: string | null;
  /**
   * When this run's latency was rebuilt from this many quantiles the load generator reported of its own histogram
   * (wrk's done() hook, when its histogram was too spread out to read value by value; bombardier always), not from
   * every latency it recorded: an approximation, to within the quantiles' spacing. Absent when every one was read.
   *
   * @minimum 1
   * @asType integer
   */
  readonly latencyQuantiles?: number;
  /**
   * Keep-alive off (`settings.keepAlive` false): how long each new connection of the window took to open, from its
   * connect's start until its request could be written — apart from `latencyUs`, which in the closed model starts
   * when the request is written (the open model's runs from when it was due, connect included). Absent with keep-alive.
   */
  readonly connectUs?: LatencyPercentiles | null;
  /** Keep-alive off: the connect times' histogram (HDR compressed base64, microseconds). */
  readonly connectHistogram?: string | null;
  /**
   * Keep-alive off: each request's whole time, its connect and its response (closed model: from the connect's start;
   * open model: from when it was due, as `latencyUs`); an unanswered one at no less than the timeout.
   */
  readonly totalLatencyUs?: LatencyPercentiles | null;
  /** Keep-alive off: the whole times' histogram (HDR compressed base64, microseconds). */
  readonly totalLatencyHistogram?: string | null;
  /** Resource samples of server and load generator over the measured window. */
  readonly resources?: ResourceSeries | null;
  /** Open model: the measured phases, in order. */
  readonly phases?: readonly LoadPhase[];
  /** Sweep: every rate, in order. */
  readonly steps?: readonly SweepStep[];
  /** Per endpoint (the requests' `endpoint` labels), when the traffic labels its requests. */
  readonly endpoints?: Readonly<Record<string, EndpointRun>>;
  /** How every request of the window ended beyond its answer; absent where the load generator cannot tell. */
  readonly accounting?: RunAccounting;
}

/**
 * How every request (or message) of a run's window ended beyond its answer.
 * One policy for HTTP and WebSocket, closed and open model; the limits that
 * decide a record's status are in "Every request accounted for" of docs/method.md.
 *
 * @example Was anything left unanswered?
 * ```ts
 * import type { RunAccounting } from "@rtbench/rtbench/schema";
 *
 * const clean = (a: RunAccounting) => a.unanswered === 0 && a.unasked === 0 && a.hungConnections === 0;
 * ```
 */
export interface RunAccounting {
  /**
   * Requests of the window: answered (valid or not) plus unanswered.
   *
   * @minimum 0
   * @asType integer
   */
  readonly requests: number;
  /**
   * Never answered: timed out (an answer after its timeout is one), lost with a connection that closed, outstanding
   * when the accounting ended, or never sent; each is in the latency histogram at no less than the timeout.
   *
   * @minimum 0
   * @asType integer
   */
  readonly unanswered: number;
  /**
   * Unanswered, as a percentage of `requests`.
   *
   * @minimum 0
   */
  readonly unansweredPercent: number;
  /**
   * Of the unanswered, due on the schedule and never sent (open model).
   *
   * @minimum 0
   * @asType integer
   */
  readonly notSent: number;
  /**
   * Answers that came with no request in flight: protocol violations, counted in no other figure.
   *
   * @minimum 0
   * @asType integer
   */
  readonly unasked: number;
  /**
   * Connections with a request outstanding longer than `hungAfterMs` when the accounting ended, and (closed model)
   * requests that timed out in the window (the timeout is never less than `hungAfterMs`); connections never answered
   * are counted in `neverAnsweredConnections` instead.
   *
   * @minimum 0
   * @asType integer
   */
  readonly hungConnections: number;
  /**
   * Of the hung connections (timed out, or out past the bound at the end), those with no answer since they opened:
   * the server never served them (one that takes in connections slower than they come leaves them waiting in the
   * kernel's accept queue, their requests written and unread). Absent when none.
   *
   * @minimum 1
   * @asType integer
   */
  readonly hungNeverAnswered?: number;
  /**
   * The load's connections (the share of `neverAnsweredConnections` is of these). Absent where not counted.
   *
   * @minimum 0
   * @asType integer
   */
  readonly connections?: number;
  /**
   * Connections still waiting for their first answer when the window opened (a request out, or not yet open) that got
   * none within the larger of the planned hung bound (`hungAfterMs` before the window's answers raise it) and twice the
   * window's median answer after it opened: the server never served them (a first answer
   * later than that is none, as an answer after its timeout is none). Never counted as hung, so that their verdict does
   * not hang on a bound that one late answer elsewhere raises. Absent where not counted.
   *
   * @minimum 0
   * @asType integer
   */
  readonly neverAnsweredConnections?: number;
  /**
   * Connections the server closed while in use (requests in flight, or within a second of an answer).
   *
   * @minimum 0
   * @asType integer
   */
  readonly droppedConnections: number;
  /**
   * Connections the server closed after more than a second idle (a keep-alive timeout), not held against it.
   *
   * @minimum 0
   * @asType integer
   */
  readonly idleCloses: number;
  /**
   * Connections whose end an answer announced (`Connection: close`, as a server limiting requests per connection
   * sends; HTTP/1.0 without `keep-alive`; a body that runs to the close): closed once no answer was owed and opened
   * again at once, not held against the server. Absent when none.
   *
   * @minimum 1
   * @asType integer
   */
  readonly announcedCloses?: number;
  /**
   * Connections opened again after a close.
   *
   * @minimum 0
   * @asType integer
   */
  readonly reconnects: number;
  /**
   * Time connections spent closed before they were open again.
   *
   * @minimum 0
   */
  readonly reconnectMs: number;
  /**
   * Requests in flight when the window closed (closed model).
   *
   * @minimum 0
   * @asType integer
   */
  readonly outstandingAtEnd: number;
  /**
   * How long a request may stay outstanding after the window closes before its connection counts as hung: the bound
   * used, raised in the closed model to twice the longest answer of the window.
   *
   * @minimum 0
   */
  readonly hungAfterMs: number;
  /**
   * The request timeout.
   *
   * @minimum 0
   */
  readonly timeoutMs: number;
}

/**
 * What one endpoint's requests (`GET /users/:id`) measured in one run.
 *
 * @example An endpoint's share of a run's valid responses
 * ```ts
 * import type { EndpointRun } from "@rtbench/rtbench/schema";
 *
 * const share = (e: EndpointRun, total: number) => e.validResponses / total;
 * ```
 */
export interface EndpointRun {
  /**
   * Valid responses per second of the measured window.
   *
   * @minimum 0
   */
  readonly requestsPerSecond: number;
  /**
   * Responses in the measured window, valid or not.
   *
   * @minimum 0
   * @asType integer
   */
  readonly responses: number;
  /**
   * Of those, the valid ones.
   *
   * @minimum 0
   * @asType integer
   */
  readonly validResponses: number;
  /** Latency of the valid responses. */
  readonly latencyUs: LatencyPercentiles | null;
  /** Their histogram (HDR compressed base64, microseconds), to merge runs exactly. */
  readonly latencyHistogram: string | null;
}

/**
 * One endpoint over every run of a record.
 *
 * @example The slowest endpoint by p99
 * ```ts
 * import type { EndpointSummary } from "@rtbench/rtbench/schema";
 *
 * const slowest = (endpoints: Readonly<Record<string, EndpointSummary>>) =>
 *   Object.entries(endpoints).sort(([, a], [, b]) => (b.latencyUs?.p99 ?? 0) - (a.latencyUs?.p99 ?? 0))[0]?.[0];
 * ```
 */
export interface EndpointSummary {
  /** Statistics of its valid responses per second over the runs. */
  readonly requestsPerSecond: Summary;
  /**
   * Its valid responses in every measured window together.
   *
   * @minimum 0
   * @asType integer
   */
  readonly validResponses: number;
  /** Its latency over every run, from merged histograms. */
  readonly latencyUs: LatencyPercentiles | null;
}

/**
 * One measured phase of an open-model run (`--rate` is one phase).
 *
 * @example Did a phase hold its rate?
 * ```ts
 * import type { LoadPhase } from "@rtbench/rtbench/schema";
 *
 * const held = (p: LoadPhase) => p.missed <= p.scheduled / 100 && p.validResponses === p.scheduled;
 * ```
 */
export interface LoadPhase {
  /**
   * Length of the phase.
   *
   * @minimum 0
   */
  readonly durationMs: number;
  /**
   * Its rate at start, per second.
   *
   * @minimum 0
   */
  readonly fromRate: number;
  /**
   * Its rate at end, per second (the same as `fromRate` for a constant phase).
   *
   * @minimum 0
   */
  readonly toRate: number;
  /**
   * Requests (or messages) due in it.
   *
   * @minimum 0
   * @asType integer
   */
  readonly scheduled: number;
  /**
   * Of those, how many were answered.
   *
   * @minimum 0
   * @asType integer
   */
  readonly responses: number;
  /**
   * Of those answered, how many validly.
   *
   * @minimum 0
   * @asType integer
   */
  readonly validResponses: number;
  /**
   * Of those due, how many went out later than due (no free connection, or the engine behind).
   *
   * @minimum 0
   * @asType integer
   */
  readonly missed: number;
  /**
   * Valid answers per second.
   *
   * @minimum 0
   */
  readonly achievedRate: number;
  /** Latency from when each was due; an unanswered one counts at no less than the timeout. */
  readonly latencyUs: LatencyPercentiles | null;
  /**
   * Of those due, never answered (timed out, lost with a connection, never sent).
   *
   * @minimum 0
   * @asType integer
   */
  readonly unanswered?: number;
  /** How late requests went out after they were due. */
  readonly sendLateUs?: LatencyPercentiles | null;
}

/**
 * One rate of a latency–throughput sweep.
 *
 * @example The p99 of every step
 * ```ts
 * import type { SweepStep } from "@rtbench/rtbench/schema";
 *
 * const curve = (steps: readonly SweepStep[]) => steps.map((s) => [s.achievedRate, s.latencyUs?.p99 ?? null]);
 * ```
 */
export interface SweepStep {
  /**
   * The rate asked for, per second.
   *
   * @minimum 0
   */
  readonly targetRate: number;
  /**
   * Valid answers per second.
   *
   * @minimum 0
   */
  readonly achievedRate: number;
  /**
   * Requests due.
   *
   * @minimum 0
   * @asType integer
   */
  readonly scheduled: number;
  /**
   * Requests that went out later than due.
   *
   * @minimum 0
   * @asType integer
   */
  readonly missed: number;
  /**
   * Connection errors and timeouts.
   *
   * @minimum 0
   * @asType integer
   */
  readonly errors: number;
  /**
   * Answers with a status of 300 or more.
   *
   * @minimum 0
   * @asType integer
   */
  readonly non2xx: number;
  /**
   * Answers whose content-type or body was not the expected one.
   *
   * @minimum 0
   * @asType integer
   */
  readonly mismatches: number;
  /** Latency from when each request was due; an unanswered one counts at no less than the timeout. */
  readonly latencyUs: LatencyPercentiles | null;
  /**
   * Valid answers.
   *
   * @minimum 0
   * @asType integer
   */
  readonly validResponses?: number;
  /**
   * Requests never answered (timed out, lost, never sent): past the knee they are the result.
   *
   * @minimum 0
   * @asType integer
   */
  readonly unanswered?: number;
  /**
   * Answers that came with no request in flight.
   *
   * @minimum 0
   * @asType integer
   */
  readonly unasked?: number;
  /**
   * CPU the load engine used over the step's window, percent of one core.
   *
   * @minimum 0
   */
  readonly clientCpuPercent?: number;
  /**
   * The load engine's CPU per answer over the step's window.
   *
   * @minimum 0
   */
  readonly clientCpuUsPerResponse?: number;
  /** Whether the load engine was at its CPU limit in this step. */
  readonly clientSaturated?: boolean;
}

/**
 * The figure a record is ranked by.
 *
 * @example Rank records by their headline figure
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { type Headline, parseResult } from "@rtbench/rtbench/schema";
 *
 * const records = parseResult(await Deno.readTextFile("fixtures/results/base.json")).records;
 * const headline: Headline = records[0].headline;
 * const sign = headline.higherIsBetter ? -1 : 1;
 * const ranked = records.toSorted((a, b) =>
 *   sign * (a.summary[headline.figure].median - b.summary[headline.figure].median)
 * );
 * assertEquals(ranked.length, 3);
 * ```
 */
export interface Headline {
  /** Figure name, a key of {@linkcode BenchRecord.summary}. */
  readonly figure: string;
  /** Whether larger is better (requests/s) or smaller is (milliseconds). */
  readonly higherIsBetter: boolean;
}

/**
 * The load generator that produced a record.
 *
 * @example Which load generator measured a record
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { type LoadGeneratorInfo, parseResult } from "@rtbench/rtbench/schema";
 *
 * const info: LoadGeneratorInfo | null =
 *   parseResult(await Deno.readTextFile("fixtures/results/base.json")).records[0].loadGenerator;
 * assertEquals(info?.name, "autocannon");
 * ```
 */
export interface LoadGeneratorInfo {
  /** Name, for example `autocannon`. */
  readonly name: string;
  /** Exact version. */
  readonly version: string;
  /** Resolution of latency figures. */
  readonly latencyResolution: "us" | "ms";
  /** The client library a driver is built on, with its version, for example `deno 2.9.6 WebSocket`. */
  readonly client?: string;
  /** What it checked on every response under load, and how. */
  readonly verifies?: string;
  /** Why this generator was used (`--load-generator auto` picks the fastest available). */
  readonly selectedBy?: string;
  /**
   * How latency treats coordinated omission: `uncorrected` (closed model, from each send: a stalled server's
   * queued requests are never sent, so the stall is under-counted), `corrected` (estimated after the fact, as
   * wrk does), `avoided` (open model, from when each request was due).
   */
  readonly coordinatedOmission?: "uncorrected" | "corrected" | "avoided";
  /**
   * Whether the generator accounts for every request (unanswered, unasked, dropped and hung connections, in each
   * run's `accounting`); false for tools that cannot (wrk, oha, bombardier, autocannon): their runs carry none.
   */
  readonly accountsForRequests?: boolean;
}

/**
 * One workload × variant × runtime.
 *
 * @example The headline median of every completed record
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { type BenchRecord, parseResult } from "@rtbench/rtbench/schema";
 *
 * const records: readonly BenchRecord[] = parseResult(await Deno.readTextFile("fixtures/results/base.json")).records;
 * const medians = records.filter((r) => r.status === "completed").map((r) => r.summary[r.headline.figure].median);
 * assertEquals(medians.length, 3);
 * ```
 *
 * A completed record has no error and at least one run; an errored or invalid one has its error; a skipped one may
 * say why (the JSON Schema's conditions below).
 *
 * @if {"properties": {"status": {"const": "completed"}}, "required": ["status"]}
 * @then {"properties": {"error": {"type": "null"}, "runs": {"type": "array", "minItems": 1}}}
 * @else {
 *   "if": {"properties": {"status": {"enum": ["errored", "invalid"]}}, "required": ["status"]},
 *   "then": {"properties": {"error": {"type": "object"}}},
 *   "else": {
 *     "if": {"properties": {"status": {"const": "skipped"}}, "required": ["status"]},
 *     "then": {"properties": {"skipReason": {"type": "string"}}}
 *   }
 * }
 */
export interface BenchRecord {
  /** `<workload>/<variant>/<runtime requested>`. */
  readonly id: string;
  /** Workload name. */
  readonly workload: string;
  /** Variant name. */
  readonly variant: string;
  /** Workload kind. */
  readonly kind: WorkloadKind;
  /** The runtime. */
  readonly runtime: RuntimeInfo;
  /** How it ended. */
  readonly status: RecordStatus;
  /** Why it errored or is invalid; null when completed. */
  readonly error: RecordError | null;
  /** Why it was skipped; null otherwise. */
  readonly skipReason: string | null;
  /**
   * Start time (ISO 8601).
   *
   * @format date-time
   */
  readonly startedAt: string;
  /**
   * End time (ISO 8601).
   *
   * @format date-time
   */
  readonly finishedAt: string;
  /** Settings used. */
  readonly settings: RunSettings;
  /** Workload options used. */
  readonly options: Readonly<Record<string, Fact>>;
  /** The server's command line, binary first; null when none was started. */
  readonly command: readonly string[] | null;
  /** The load generator or driver, for HTTP and WebSocket workloads. */
  readonly loadGenerator: LoadGeneratorInfo | null;
  /** CPU sets of server and client. */
  readonly cpus: CpuSets;
  /** What was verified before (and after) measuring. */
  readonly verification: { readonly passed: boolean; readonly checks: readonly Check[] };
  /** Facts the workload records (versions, costs, counts). */
  readonly facts: Readonly<Record<string, Fact>>;
  /** The figure the record is ranked by. */
  readonly headline: Headline;
  /** Every measured run's raw figures. */
  readonly runs: readonly RunRecord[];
  /** Per figure, statistics over the runs. */
  readonly summary: Readonly<Record<string, Summary>>;
  /** Latency percentiles over all runs, from merged histograms. */
  readonly latencyUs: LatencyPercentiles | null;
  /**
   * When `latencyUs` merges runs rebuilt from quantiles (see `RunRecord.latencyQuantiles`): the most quantiles any
   * run was rebuilt from. Its latency figures are then the generator's own quantiles' approximation, and reports mark
   * them `≈`. Absent when every run read every latency.
   *
   * @minimum 1
   * @asType integer
   */
  readonly latencyQuantiles?: number;
  /** Keep-alive off: connect times over all runs, from merged histograms (see {@linkcode RunRecord.connectUs}). */
  readonly connectUs?: LatencyPercentiles | null;
  /** Keep-alive off: each request's whole time over all runs, from merged histograms. */
  readonly totalLatencyUs?: LatencyPercentiles | null;
  /** Resources of server and load generator over all runs: means of the runs' means, largest peaks. */
  readonly resources?: ResourceSummary | null;
  /** Warnings about this record's trustworthiness. */
  readonly warnings: readonly Warning[];
  /** Per endpoint over every run, when the traffic labels its requests (`GET /users/:id`, `POST /users`). */
  readonly endpoints?: Readonly<Record<string, EndpointSummary>>;
  /**
   * Every kind of process started for this record (server, load engine, timed process, ...) and exactly the
   * environment it got. Absent in files written before it was recorded, and for a record that started none.
   */
  readonly processes?: readonly ProcessEnvironment[];
  /**
   * The records measured round by round with this one: their runs with the same {@linkcode RunRecord.round} shared
   * that round, so relative figures come from per-round ratios. Absent when the record's runs were not interleaved
   * with others' (`--order blocked`, a lone runtime, files written before it was recorded).
   */
  readonly pairing?: Pairing;
  /**
   * Ratios of this record's CPU per request at a fixed rate over each other record's, measured in duet
   * (`--pairing duet`): both servers up at once, each on a CPU of its own, loaded at the same rate in the same seconds.
   * Absent when none was.
   */
  readonly duet?: readonly DuetRatioRecord[];
}

/**
 * How the ratios between records were had: `rounds`, runs taken in turn with one ratio per round; `duet`, two servers
 * up at once on one CPU, their loads on another, with one ratio per round of windows of the same seconds.
 *
 * @example Say how a ratio was had
 * ```ts
 * import type { PairingMode } from "@rtbench/rtbench/schema";
 *
 * const how = (m: PairingMode) => m === "duet" ? "same seconds, one CPU" : "per-round ratios";
 * ```
 */
export type PairingMode = "rounds" | "duet";

/**
 * A ratio of CPU per request at a fixed rate between two records' servers measured in duet: both up at once on one CPU
 * (their loads on the other, the two swapped between rounds), loaded at the same rate in the same seconds, each one's
 * CPU time read from its own counter over the same windows; each round's windows are one paired sample.
 *
 * @example Is a duet ranking stated?
 * ```ts
 * import type { DuetRatioRecord } from "@rtbench/rtbench/schema";
 *
 * const ranked = (r: DuetRatioRecord) => r.ci95 !== null && (r.ci95.low > 1 || r.ci95.high < 1);
 * ```
 */
export interface DuetRatioRecord {
  /** Which pairing produced the ratio: always `duet`. */
  readonly pairing: "duet";
  /**
   * Id of the other record: the ratio is this record's figure over its.
   *
   * @minLength 1
   */
  readonly against: string;
  /**
   * The figure the ratio is of, for example `serverCpuUsPerRequestAtRate`.
   *
   * @minLength 1
   */
  readonly figure: string;
  /**
   * The fixed rate both servers were loaded at, requests per second.
   *
   * @exclusiveMinimum 0
   */
  readonly ratePerSecond: number;
  /**
   * Length of each paired window, in milliseconds.
   *
   * @exclusiveMinimum 0
   */
  readonly windowMs: number;
  /**
   * The estimate: e^(mean of the two CPU placements' mean log-ratios).
   *
   * @exclusiveMinimum 0
   */
  readonly ratio: number;
  /** 95% confidence interval of the ratio; null with too few windows. */
  readonly ci95: { readonly low: number; readonly high: number } | null;
  /** Half-width of the interval in percent, on the log scale; null without one. */
  readonly halfWidthPercent: number | null;
  /** The CPUs' bias as the ratio saw it (1: none); null with one placement only. */
  readonly placementBias?: number | null;
  /** Every window's ratio, raw: its round, its placement (0: both servers on the first CPU) and the ratio. */
  readonly windows: readonly DuetWindow[];
}

/**
 * One paired window of a duet: its round, which CPU held which server, and the window's ratio.
 *
 * @example The windows of each placement, apart
 * ```ts
 * import type { DuetWindow } from "@rtbench/rtbench/schema";
 *
 * const onFirstCpu = (windows: readonly DuetWindow[]) => windows.filter((w) => w.placement === 0);
 * ```
 */
export interface DuetWindow {
  /**
   * The round, from 0.
   *
   * @asType integer
   * @minimum 0
   */
  readonly round: number;
  /** 0: both servers on the first CPU; 1: on the second. */
  readonly placement: 0 | 1;
  /** This record's server's CPU per request over the other's, in this window. */
  readonly ratio: number;
  /**
   * When the window began (ISO 8601): the duet's rounds alternate with the variant's runs.
   *
   * @format date-time
   */
  readonly startedAt?: string;
}

/**
 * One kind of process a record started, and every environment variable it got.
 *
 * @example What the servers of a record got
 * ```ts
 * import type { BenchRecord, ProcessEnvironment } from "@rtbench/rtbench/schema";
 *
 * const servers = (r: BenchRecord): ProcessEnvironment[] => (r.processes ?? []).filter((p) => p.role === "server");
 * ```
 */
export interface ProcessEnvironment {
  /**
   * What it was: `server`, `load engine`, `timed process`, `resource sampler`, ...
   *
   * @minLength 1
   */
  readonly role: string;
  /** Its program's file name (`node`); for a timed process, the program timed. */
  readonly program: string;
  /** The machine it ran on (`--server-host`, `--client-host`); absent: this one. */
  readonly host?: string;
  /** Every variable it got, with the first such process's value; a credential's value is `<secret>`. */
  readonly env: Readonly<Record<string, string>>;
  /** Names whose values differed between its processes (a port per run); `env` holds the first. */
  readonly varying?: readonly string[];
}

/**
 * Which records were measured in the same rounds: one interleaved measurement of a workload × variant.
 *
 * @example Two records whose runs can be paired round by round
 * ```ts
 * import type { BenchRecord, Pairing } from "@rtbench/rtbench/schema";
 *
 * const paired = (a: BenchRecord, b: BenchRecord) =>
 *   a.pairing !== undefined && a.pairing.id === b.pairing?.id;
 * const pairing: Pairing = { id: "http-json/default 2026-11-25T08:00:00.000Z", records: ["http-json/default/deno"] };
 * ```
 */
export interface Pairing {
  /**
   * Names one interleaved measurement; records with the same id were measured in the same rounds.
   *
   * @minLength 1
   */
  readonly id: string;
  /** Ids of the records interleaved together, this one included. */
  readonly records: readonly string[];
  /** How the ratios between these records were had (`duet`: see {@linkcode DuetRatioRecord}); absent: `rounds`. */
  readonly mode?: PairingMode;
}

/**
 * Settings the suite was asked to run with.
 *
 * @example What a suite was asked for
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { parseResult, type SuiteSettings } from "@rtbench/rtbench/schema";
 *
 * const settings: SuiteSettings = parseResult(await Deno.readTextFile("fixtures/results/base.json")).settings;
 * assertEquals(settings.runtimes, ["deno", "node", "bun"]);
 * ```
 */
export interface SuiteSettings {
  /** Profile the defaults came from (`quick` or `full`). */
  readonly profile: string;
  /** Workloads requested. */
  readonly workloads: readonly string[];
  /** Runtimes requested. */
  readonly runtimes: readonly string[];
  /** Load generator requested. */
  readonly loadGenerator: string;
  /** Settings overrides given explicitly. */
  readonly overrides: Readonly<Partial<RunSettings>>;
  /** Variants requested (`--variant`); null or absent means every variant. */
  readonly variants?: readonly string[] | null;
  /**
   * Interface the servers bound and the load came through (`--host`); absent in files before it was recorded.
   *
   * @minLength 1
   */
  readonly host?: string;
  /**
   * Port every server listened on (`--port`); null means a free port per server.
   *
   * @minimum 1
   * @maximum 65535
   * @asType integer
   * @nullable
   */
  readonly port?: number | null;
  /**
   * Order of one variant's runtimes within each round of runs (`--order`): `rotate` moves the first to the
   * end each round, `shuffle` draws a seeded random order each round, `blocked` measures every run of one
   * runtime before the next. Absent in files written before runs were interleaved (they were blocked).
   */
  readonly order?: RunOrder;
  /**
   * Seed of the `shuffle` order (`--seed`); null for the other orders.
   *
   * @minimum 0
   * @asType integer
   * @nullable
   */
  readonly seed?: number | null;
  /** An A/A run (`--aa`): the one runtime asked for, measured as two arms to publish the machine's noise floor. */
  readonly aa?: boolean;
  /**
   * How ratios of CPU per request at the fixed rate were paired (`--pairing`, `duet` by default): `duet` adds each
   * pair's duet ratios to its records (see {@linkcode DuetRatioRecord}); absent (older files): `rounds`.
   */
  readonly pairing?: PairingMode;
}

/**
 * How the runs of one variant's runtimes are ordered within each round.
 *
 * @example Every run of a stored result in the order it was measured
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { parseResult, type RunOrder } from "@rtbench/rtbench/schema";
 *
 * const result = parseResult(await Deno.readTextFile("fixtures/results/base.json"));
 * const order: RunOrder = result.settings.order ?? "blocked";
 * assertEquals(["rotate", "shuffle", "blocked"].includes(order), true);
 * ```
 */
export type RunOrder = "rotate" | "shuffle" | "blocked";

/**
 * One suite run: the document rtbench writes and other tools import.
 *
 * @example Read a result file, typed
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { type BenchResult, parseResult } from "@rtbench/rtbench/schema";
 *
 * const result: BenchResult = parseResult(await Deno.readTextFile("fixtures/results/base.json"));
 * assertEquals([result.suite.name, result.records.length], ["rtbench", 3]);
 * ```
 */
export interface BenchResult {
  /** Schema version, {@linkcode SCHEMA_VERSION}. */
  readonly schemaVersion: typeof SCHEMA_VERSION;
  /** The tool that wrote it. */
  readonly suite: { readonly name: "rtbench"; readonly version: string };
  /**
   * Start time (ISO 8601).
   *
   * @format date-time
   */
  readonly startedAt: string;
  /**
   * End time (ISO 8601); null while the suite is still running.
   *
   * @format date-time
   */
  readonly finishedAt: string | null;
  /** What was asked for. */
  readonly settings: SuiteSettings;
  /** The machine. */
  readonly environment: Environment;
  /** Suite-wide warnings (for example an unpinned machine). */
  readonly warnings: readonly Warning[];
  /** The machines of a multi-host suite (`--server-host`, `--client-host`, `--db-host`); absent when all ran here. */
  readonly topology?: Topology;
  /** One record per workload × variant × runtime, in run order. */
  readonly records: readonly BenchRecord[];
  /** Present when the suite stopped before its end: the file is partial, and says what is missing. */
  readonly interrupted?: Interruption;
}

/**
 * Why and when a suite stopped before its end, and what it left to do. The
 * finished runs of records it was measuring are kept (status `interrupted`);
 * `deno task bench --resume <file>` measures what is left.
 *
 * @example Say what a partial file is missing
 * ```ts
 * import type { BenchResult, Interruption } from "@rtbench/rtbench/schema";
 *
 * const missing = (r: BenchResult) => {
 *   const stop: Interruption | undefined = r.interrupted;
 *   return stop ? `${stop.reason} at ${stop.at}: ${stop.remaining.length} records not finished` : "complete";
 * };
 * ```
 */
export interface Interruption {
  /**
   * When the suite stopped (ISO 8601).
   *
   * @format date-time
   */
  readonly at: string;
  /** The signal that stopped it (`SIGINT`, `SIGTERM`, `SIGHUP`), or null when something else did. */
  readonly signal: string | null;
  /** What stopped it, in words (`interrupted by SIGINT`, or the error). */
  readonly reason: string;
  /** Ids of the records not finished: those interrupted mid-way (their runs are kept) and those never started. */
  readonly remaining: readonly string[];
}

/**
 * What a machine of a multi-host suite did: run the servers, the load, or the database.
 *
 * @example The load machines of a result
 * ```ts
 * import type { BenchResult, HostRole } from "@rtbench/rtbench/schema";
 *
 * const role: HostRole = "client";
 * const load = (r: BenchResult) => r.topology?.hosts.filter((h) => h.role === role) ?? [];
 * ```
 */
export type HostRole = "server" | "client" | "db";

/**
 * The fingerprint of one machine of a multi-host suite, read over ssh.
 *
 * @example One line per machine
 * ```ts
 * import type { HostInfo } from "@rtbench/rtbench/schema";
 *
 * const line = (h: HostInfo) => `${h.role} ${h.host}: ${h.cpuModel ?? "?"} × ${h.logicalCores ?? "?"}`;
 * ```
 */
export interface HostInfo {
  /** What it did in the suite. */
  readonly role: HostRole;
  /**
   * How it was named on the command line, `[user@]host[:port]`.
   *
   * @minLength 1
   */
  readonly host: string;
  /** Operating system (`linux`). */
  readonly os: string;
  /** Distribution and version when readable. */
  readonly osName: string | null;
  /** Kernel release. */
  readonly kernel: string | null;
  /** Machine architecture (`x86_64`). */
  readonly arch: string | null;
  /** CPU model. */
  readonly cpuModel: string | null;
  /**
   * Logical CPUs.
   *
   * @minimum 1
   * @asType integer
   * @nullable
   */
  readonly logicalCores: number | null;
  /** CPUs a process may use there (Linux CPU list). */
  readonly allowedCpus: string | null;
  /**
   * Total memory.
   *
   * @minimum 0
   */
  readonly memoryBytes: number | null;
  /** Load average (1, 5, 15 min) when it was fingerprinted. */
  readonly loadAverage: readonly NonNegative[] | null;
  /** Whether processes there are pinned with `taskset`. */
  readonly taskset: boolean;
  /** What tells it apart from another machine of the same CPU model name (absent in older files). */
  readonly machine?: MachineIdentity;
}

/**
 * Round-trip time from a load machine to the server machine: TCP connects timed on the load machine.
 *
 * @example The slowest path to the server
 * ```ts
 * import type { RoundTrip } from "@rtbench/rtbench/schema";
 *
 * const slowest = (trips: readonly RoundTrip[]) => Math.max(...trips.map((t) => t.medianUs));
 * ```
 */
export interface RoundTrip {
  /** The load machine, as named on the command line. */
  readonly client: string;
  /** The server machine, as named on the command line. */
  readonly server: string;
  /**
   * Connects timed.
   *
   * @minimum 1
   * @asType integer
   */
  readonly samples: number;
  /**
   * Median connect time.
   *
   * @minimum 0
   */
  readonly medianUs: number;
  /**
   * Fastest connect.
   *
   * @minimum 0
   */
  readonly minUs: number;
  /**
   * Slowest connect.
   *
   * @minimum 0
   */
  readonly maxUs: number;
}

/**
 * Where a multi-host suite ran: each machine's fingerprint, and the round trips between load and server.
 *
 * @example Did the suite run on one machine?
 * ```ts
 * import type { BenchResult, Topology } from "@rtbench/rtbench/schema";
 *
 * const spread = (t: Topology | undefined) => (t?.hosts.length ?? 0) > 0;
 * const multiHost = (r: BenchResult) => spread(r.topology);
 * ```
 */
export interface Topology {
  /** Every machine but the harness's (which is `environment`). */
  readonly hosts: readonly HostInfo[];
  /** Load machine → server machine round-trip times. */
  readonly roundTrips: readonly RoundTrip[];
}
