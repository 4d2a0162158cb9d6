/**
 * `run()`: the programmatic entry point. Resolves runtimes, then for every
 * workload × variant × runtime measures one record and returns the
 * {@linkcode BenchResult}. The CLI is a thin layer over it.
 *
 * @module
 */

import {
  builtinAdapters,
  cacheDir as defaultCacheDir,
  defaultRuntimeNames,
  parseRuntimeSpecs,
  resolveRuntime,
} from "../../adapters/mod.ts";
import type { ResolvedRuntime, RuntimeAdapter, RuntimeSpec } from "../../adapters/types.ts";
import type { RunSettings, Workload } from "../../workloads/types.ts";
import { builtinWorkloads } from "../../workloads/mod.ts";
import { validateWorkload } from "../../workloads/validate.ts";
import { chooseLoadGenerators } from "../drivers/generators.ts";
import { hostsOf, type HostsOption, type Topology, topologyOf } from "../drivers/remote.ts";
import { openTopology } from "./topology.ts";
import type { LoadGenerator } from "../drivers/types.ts";
import { type HookTimeouts, hookTimeouts } from "../kinds/mod.ts";
import { allowedCpus, splitCpus } from "../platform/cpus.ts";
import { UsageError } from "../platform/errors.ts";
import { connectionCeiling } from "../platform/limits.ts";
import { makeTempDir, removeTemp } from "../platform/temp.ts";
import type { ProgressEvent } from "../report/progress.ts";
import {
  type BenchRecord,
  type BenchResult,
  type CpuSets,
  type Environment,
  type RunOrder,
  SCHEMA_VERSION,
  type SuiteSettings,
  type Topology as TopologyInfo,
  type Warning,
} from "../schema/result.ts";
import { recordedOptions } from "./assemble.ts";
import { environmentWarnings, fingerprint } from "./environment.ts";
import { estimateSec, planGroups, type Planned, recordId } from "./plan.ts";
import { checkResumableEnvironment, checkResumableRuntime, keptRecords } from "./resume.ts";
import { type Schedule, scheduleOf } from "./schedule.ts";
import { armSpecs } from "./aa.ts";
import { type Profile, PROFILES, validateSettings } from "./settings.ts";
import { measureVariant } from "./variant.ts";
import denoConfig from "../../deno.json" with { type: "json" };

/**
 * rtbench's own version, written into every result.
 *
 * @example The version a result was written by
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { VERSION } from "@rtbench/rtbench/runners";
 *
 * assertEquals(VERSION.split(".").length, 3);
 * ```
 */
export const VERSION: string = denoConfig.version;

/**
 * Options of {@linkcode run}.
 *
 * @example Two runtimes, five runs, the full profile
 * ```ts
 * import type { RunOptions } from "@rtbench/rtbench/runners";
 * import { httpJson } from "@rtbench/rtbench/workloads";
 *
 * const options: RunOptions = {
 *   workloads: [httpJson],
 *   runtimes: ["deno", "node@22"],
 *   profile: "full",
 *   settings: { runs: 5 },
 *   loadGenerator: "auto",
 *   signal: AbortSignal.timeout(600_000),
 * };
 * ```
 */
export interface RunOptions {
  /** Workloads to run. @default {builtinWorkloads} */
  workloads?: readonly Workload[];
  /** Runtimes, as names, `name@version` strings or specs. @default {["deno", "node", "bun"]} */
  runtimes?: readonly (string | RuntimeSpec)[];
  /** Variants to run, by name; absent means every variant of each workload. */
  variants?: readonly string[];
  /**
   * The whole suite, no workload named: variants marked `inSuite: false` (a workload's framework matrix) are left
   * to runs that name their workload. @default {false}
   */
  wholeSuite?: boolean;
  /** Profile the defaults come from. @default {"quick"} */
  profile?: Profile;
  /** Explicit settings, applied over profile and workload defaults. */
  settings?: Partial<RunSettings>;
  /** Workload options by name (for example `{ "bcrypt-cost": 10 }`). */
  options?: Readonly<Record<string, unknown>>;
  /**
   * Load generator for HTTP workloads: `"auto"` (rtbench's engine, or the first installed one that
   * can send the workload's traffic), a name (`"wrk"`, `"bombardier"`, `"oha"`,
   * `"autocannon"`) or a {@linkcode LoadGenerator}. @default {"auto"}
   */
  loadGenerator?: LoadGenerator | string;
  /** Runtime adapters to choose from. @default {builtinAdapters} */
  adapters?: readonly RuntimeAdapter[];
  /** Cache for provisioned runtimes and server dependencies. @default {cacheDir()} */
  cacheDir?: string;
  /** Parent directory of rtbench's temporary directory. @default {the system's (TMPDIR)} */
  tempDir?: string;
  /** CPU sets; by default the allowed CPUs are split between server and client. */
  cpus?: CpuSets;
  /** Interrupts the suite: running processes are stopped and `run` rejects with the abort reason. */
  signal?: AbortSignal;
  /** Receives progress events. */
  onProgress?(event: ProgressEvent): void;
  /** Receives the partial result at the start and after every finished record (write it to keep it). */
  onPartial?(partial: BenchResult): void | Promise<void>;
  /** Interface servers bind and the load comes through (`--host`). @default {"127.0.0.1"} */
  host?: string;
  /** Port every server listens on (`--port`); absent means a free port chosen per server. */
  port?: number;
  /**
   * An earlier, unfinished result of the same suite (`--resume`): its done records
   * ({@linkcode DONE_STATUSES}) are kept and not measured again, the others are.
   * Throws a {@linkcode UsageError} when it was measured with other settings or on another machine.
   */
  resume?: { readonly file: string; readonly result: BenchResult };
  /** Seconds each workload hook may take, over the defaults ({@linkcode HOOK_TIMEOUTS_SEC}). */
  hookTimeoutsSec?: Partial<HookTimeouts>;
  /**
   * Order of one variant's runtimes within each round of runs (`--order`): run i of every runtime comes
   * before run i+1 of any. `rotate` moves the first runtime to the end each round, `shuffle` draws a seeded
   * order each round, `blocked` measures every run of one runtime before the next. @default {"rotate"}
   */
  order?: RunOrder;
  /** Seed of the `shuffle` order (`--seed`); a seed alone means `shuffle`. @default {a random seed, recorded} */
  seed?: number;
  /**
   * An A/A run (`--aa`): the one runtime in `runtimes` is measured as two arms, A and B, interleaved exactly as two
   * runtimes would be; the report publishes the noise floor their per-round ratios show. @default {false}
   */
  aa?: boolean;
  /**
   * Other machines, reached with the system `ssh`, for the servers (`--server-host`), the load engine
   * (`--client-host`, several share each run) and the database (`--db-host`). @default {all on this machine}
   */
  hosts?: HostsOption;
}

/** What `run()` was asked for, checked: bad input throws before anything runs. */
interface Request {
  readonly profile: Profile;
  readonly overrides: Partial<RunSettings>;
  readonly adapters: readonly RuntimeAdapter[];
  readonly specs: readonly RuntimeSpec[];
  readonly workloads: readonly Workload[];
  readonly schedule: Schedule;
  readonly groups: readonly Planned[];
  readonly topology: Topology | undefined;
}

/** Refuses, before anything runs, connections the machine cannot carry (EMFILE or no local port half-way). */
async function refuseUnworkableConnections(groups: readonly Planned[]): Promise<void> {
  const most = Math.max(
    0,
    ...groups.filter((g) => g.workload.kind === "http" || g.workload.kind === "websocket")
      .map((g) => g.settings.connections),
  );
  const ceiling = await connectionCeiling();
  if (ceiling && most > ceiling.max) {
    throw new UsageError(`--connections ${most}: this machine can carry at most ${ceiling.max} (${ceiling.why})`);
  }
}

function request(options: RunOptions): Request {
  const profile = options.profile ?? "quick";
  if (!(profile in PROFILES)) throw new RangeError(`--profile must be one of ${Object.keys(PROFILES).join(", ")}`);
  const overrides = options.settings ?? {};
  validateSettings(overrides);
  const adapters = options.adapters ?? builtinAdapters;
  const asked = (options.runtimes ?? defaultRuntimeNames(adapters)).flatMap((r) =>
    typeof r === "string" ? parseRuntimeSpecs(r, adapters) : [r]
  );
  const specs = options.aa ? armSpecs(asked) : asked;
  // Workloads can come from users' code: a malformed one is one clear error before anything runs.
  const workloads = (options.workloads ?? builtinWorkloads).map((w) =>
    validateWorkload(w, `workload ${w?.name ?? "?"}`)
  );
  const schedule = scheduleOf(options.order, options.seed);
  const groups = planGroups(workloads, profile, overrides, options.options ?? {}, options.variants, options.wholeSuite);
  const topology = options.hosts ? topologyOf(options.hosts) : undefined;
  return { profile, overrides, adapters, specs, workloads, schedule, groups, topology };
}

/** The CPU split; `--server-cpus` beyond the CPUs allowed here is bad input. */
function cpuSplit(allowed: string | null, serverCpus: number | "all" | undefined): CpuSets {
  try {
    return splitCpus(allowed, undefined, serverCpus);
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
}

/** Every runtime as found, or why it could not be had; a kept record whose runtime changed refuses the resume. */
async function resolveRuntimes(
  req: Request,
  options: RunOptions,
  done: ReadonlyMap<string, BenchRecord>,
  signal: AbortSignal,
): Promise<Map<string, ResolvedRuntime | Error>> {
  const runtimes = new Map<string, ResolvedRuntime | Error>();
  const cacheDir = options.cacheDir ?? defaultCacheDir();
  for (const spec of req.specs) {
    signal.throwIfAborted();
    try {
      const rt = await resolveRuntime(spec, { adapters: req.adapters, cacheDir, signal });
      for (const p of req.groups) {
        const kept = done.get(recordId(p, spec));
        if (kept && options.resume) checkResumableRuntime(options.resume.file, kept, rt.version);
      }
      runtimes.set(spec.requested, rt);
    } catch (error) {
      if (error instanceof UsageError) throw error;
      signal.throwIfAborted();
      runtimes.set(spec.requested, error instanceof Error ? error : new Error(String(error)));
    }
  }
  return runtimes;
}

/** Suite-wide warnings: the machine's, an unpinned split, and for a resumed file its own plus when it resumed. */
function suiteWarnings(
  environment: Environment,
  cpus: CpuSets,
  options: RunOptions,
  done: ReadonlyMap<string, BenchRecord>,
  measured: number,
): Warning[] {
  const previous = options.resume?.result;
  if (options.resume && previous) {
    checkResumableEnvironment(options.resume.file, previous.environment, environment);
    // The file keeps the suite's first start and machine; this warning says when it was taken up again.
    return [...previous.warnings, {
      code: "resumed",
      message: `resumed at ${new Date().toISOString()} from ${done.size} done records; ${measured} measured now`,
    }];
  }
  const warnings = environmentWarnings(environment);
  if (cpus.server === null) {
    warnings.push({
      code: "not-pinned",
      message: "server and load generator share CPUs (fewer than 2 CPUs allowed, or taskset missing): figures mix both",
    });
  }
  return warnings;
}

/** The result as it grows: every finished record replaces its earlier self and is handed to `onPartial` at once. */
class GrowingResult {
  readonly warnings: Warning[] = [];
  /** The suite's machines, once connected. */
  topology: TopologyInfo | undefined;
  readonly #records: BenchRecord[];
  readonly #head: Omit<BenchResult, "finishedAt" | "warnings" | "records">;
  readonly #options: RunOptions;

  constructor(head: Omit<BenchResult, "finishedAt" | "warnings" | "records">, options: RunOptions) {
    this.#head = head;
    this.#options = options;
    // A resumed file keeps every earlier record, errored ones too, until a new one replaces it.
    this.#records = [...options.resume?.result.records ?? []];
  }

  current(finishedAt: string | null = null): BenchResult {
    return {
      ...this.#head,
      ...(this.topology ? { topology: this.topology } : {}),
      finishedAt,
      warnings: [...this.warnings],
      records: [...this.#records],
    };
  }

  async add(record: BenchRecord): Promise<void> {
    const earlier = this.#records.findIndex((r) => r.id === record.id);
    if (earlier >= 0) this.#records[earlier] = record;
    else this.#records.push(record);
    this.#options.onProgress?.({ type: "record-end", record });
    await this.#options.onPartial?.(this.current());
  }

  /** The finished result, records in suite order (workload × variant × runtime as planned). */
  finished(order: readonly string[]): BenchResult {
    const rank = new Map(order.map((id, i) => [id, i]));
    this.#records.sort((a, b) => (rank.get(a.id) ?? rank.size) - (rank.get(b.id) ?? rank.size));
    return this.current(new Date().toISOString());
  }
}

function suiteSettings(req: Request, options: RunOptions, generator: string): SuiteSettings {
  return {
    profile: req.profile,
    workloads: req.workloads.map((w) => w.name),
    runtimes: req.specs.map((s) => s.requested),
    loadGenerator: generator,
    overrides: req.overrides,
    variants: options.variants ? [...options.variants] : null,
    host: options.host ?? "127.0.0.1",
    port: options.port ?? null,
    order: req.schedule.order,
    seed: req.schedule.seed,
    ...(options.aa ? { aa: true } : {}),
  };
}

/**
 * Runs a suite and returns its result. Nothing is printed; follow progress
 * with `onProgress` and keep partial results with `onPartial`.
 *
 * @param options What to run and how; every field is optional.
 * @returns The result, with one record per workload × variant × runtime, valid against the schema.
 *
 * @example Measure the HTTP JSON workload on Deno and Node
 * ```ts ignore
 * import { httpJson, run } from "@rtbench/rtbench";
 * const result = await run({ workloads: [httpJson], runtimes: ["deno", "node"], settings: { durationSec: 2, runs: 1 } });
 * for (const r of result.records) console.log(r.runtime.name, r.summary.requestsPerSecond?.median);
 * ```
 *
 * @example Time Deno's start-up, quickly
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { run } from "@rtbench/rtbench/runners";
 * import { startup } from "@rtbench/rtbench/workloads";
 *
 * const result = await run({
 *   workloads: [startup],
 *   runtimes: ["deno"],
 *   variants: ["hello"],
 *   settings: { runs: 3, durationSec: 0.1 },
 *   options: { "warmup-runs": 0 },
 * });
 * assertEquals(result.records.map((r) => [r.id, r.status]), [["startup/hello/deno", "completed"]]);
 * ```
 */
export async function run(options: RunOptions = {}): Promise<BenchResult> {
  const req = request(options);
  await refuseUnworkableConnections(req.groups);
  const generators = await chooseLoadGenerators(options.loadGenerator ?? "auto");
  const signal = options.signal ?? new AbortController().signal;
  const settings = suiteSettings(req, options, generators.requested);
  const ids = req.groups.flatMap((p) => req.specs.map((spec) => recordId(p, spec)));
  // Resuming: records already done are kept as they are, provided they were measured the way this suite would.
  const done = keptRecords(
    options.resume,
    settings,
    req.groups.flatMap((p) =>
      req.specs.map((spec) => ({
        id: recordId(p, spec),
        settings: p.settings,
        options: recordedOptions(p.workload, p.options),
      }))
    ),
  );
  const toMeasure = req.groups.map((p) => req.specs.filter((spec) => !done.has(recordId(p, spec))).length);
  const totalRecords = toMeasure.reduce((a, n) => a + n, 0);
  options.onProgress?.({
    type: "suite-start",
    records: totalRecords,
    estimatedSec: req.groups.reduce((a, p, i) => a + estimateSec(p.settings) * toMeasure[i], 0),
  });
  const environment = await fingerprint();
  const cpus = options.cpus ?? cpuSplit(await allowedCpus(), req.overrides.serverCpus);
  const previous = options.resume?.result;
  const result = new GrowingResult({
    schemaVersion: SCHEMA_VERSION,
    suite: { name: "rtbench", version: VERSION },
    startedAt: previous?.startedAt ?? new Date().toISOString(),
    settings,
    environment: previous?.environment ?? environment,
  }, options);
  result.warnings.push(...suiteWarnings(environment, cpus, options, done, totalRecords));
  // A resumed file already holds all of this; it is rewritten once a record is measured, so a resume refused
  // later (a runtime whose version changed) leaves it as it was.
  if (!previous) await options.onPartial?.(result.current());
  const suiteTemp = await makeTempDir({ dir: options.tempDir, prefix: "rtbench-" });
  try {
    if (req.topology) result.topology = await openTopology(req.topology, signal);
    const runtimes = await resolveRuntimes(req, options, done, signal);
    let index = 0;
    const suite = {
      specs: req.specs,
      runtimes,
      done,
      cpus,
      host: settings.host!,
      port: options.port,
      limits: hookTimeouts(options.hookTimeoutsSec),
      generators,
      cacheDir: options.cacheDir ?? defaultCacheDir(),
      suiteTemp,
      signal,
      schedule: req.schedule,
      topology: req.topology,
      totalRecords,
      onProgress: options.onProgress,
      warn: (w: Warning) => void result.warnings.push(w),
      finish: (record: BenchRecord) => result.add(record),
      nextIndex: () => index++,
    };
    for (const planned of req.groups) await measureVariant(planned, suite);
    return result.finished(ids);
  } finally {
    await Promise.all(req.topology ? hostsOf(req.topology).map((h) => h.ssh.close()) : []);
    await removeTemp(suiteTemp);
  }
}
