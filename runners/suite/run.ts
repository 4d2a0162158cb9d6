/**
 * `run()`: the programmatic entry point. Resolves runtimes, then for every
 * workload × variant × runtime measures one record and returns the
 * {@linkcode BenchResult}. The CLI is a thin layer over it.
 *
 * @module
 */

import { builtinAdapters, cacheDir as defaultCacheDir, parseRuntimeSpecs, resolveRuntime } from "../../adapters/mod.ts";
import type { ResolvedRuntime, RuntimeAdapter, RuntimeSpec } from "../../adapters/types.ts";
import type { Fact, OptionValues, RunSettings, Workload, WorkloadSession } from "../../workloads/types.ts";
import { builtinWorkloads } from "../../workloads/mod.ts";
import { validateWorkload } from "../../workloads/validate.ts";
import { runPlan } from "../stats/adaptive.ts";
import { chooseLoadGenerators } from "../drivers/generators.ts";
import { allowedCpus, splitCpus } from "../platform/cpus.ts";
import { environmentWarnings, fingerprint } from "./environment.ts";
import { mergeLatency } from "../stats/latency.ts";
import type { RecordOutcome, VariantVerdict } from "../kinds/record.ts";
import { InvalidError, PhaseError, SkipRecord } from "../kinds/errors.ts";
import { checkVariant, runRecord } from "../kinds/mod.ts";
import type { BenchRecord, BenchResult, CpuSets, RuntimeInfo, Summary, Warning } from "../schema/result.ts";
import type { ProgressEvent } from "../report/progress.ts";
import { SCHEMA_VERSION } from "../schema/result.ts";
import { effectiveSettings, type Profile, PROFILES, resolveOptions, validateSettings } from "./settings.ts";
import { summarize } from "../stats/summary.ts";
import type { LoadGenerator } from "../drivers/types.ts";
import { installDependencies } from "../platform/workspace.ts";
import { UsageError } from "../platform/errors.ts";
import { makeTempDir, removeTemp } from "../platform/temp.ts";
import {
  checkResumableEnvironment,
  checkResumableRecord,
  checkResumableRuntime,
  checkResumableSettings,
  doneRecords,
} from "./resume.ts";
import { type HookTimeouts, hookTimeouts, withinTime } from "../kinds/timeouts.ts";
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
  /** Profile the defaults come from. @default {"quick"} */
  profile?: Profile;
  /** Explicit settings, applied over profile and workload defaults. */
  settings?: Partial<RunSettings>;
  /** Workload options by name (for example `{ "bcrypt-cost": 10 }`). */
  options?: Readonly<Record<string, unknown>>;
  /**
   * Load generator for HTTP workloads: `"auto"` (the fastest installed one that
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
}

interface Planned {
  workload: Workload;
  variant: string;
  settings: RunSettings;
  options: OptionValues;
}

function estimateSec(s: RunSettings): number {
  // Server start, verification and the generator's own start take about 1.5 s per run here.
  return runPlan(s).min * (s.warmupSec + s.durationSec + 1.5);
}

function runtimeInfo(spec: RuntimeSpec, rt?: ResolvedRuntime): RuntimeInfo {
  return {
    name: spec.name,
    requested: spec.requested,
    version: rt?.version ?? null,
    engine: rt?.engine ?? null,
    engineVersion: rt?.engineVersion ?? null,
    binary: rt?.binary ?? null,
    source: rt?.source ?? null,
  };
}

function summaries(outcome: RecordOutcome): Record<string, Summary> {
  const keys = [...new Set(outcome.runs.flatMap((r) => Object.keys(r.figures)))];
  const out: Record<string, Summary> = {};
  for (const key of keys) {
    const values = outcome.runs.map((r) => r.figures[key]).filter((v) => typeof v === "number");
    if (values.length > 0) out[key] = summarize(values);
  }
  return out;
}

/** Option values as recorded; a secret (a password in a URL) is never written to a result. */
function recordedOptions(workload: Workload, values: OptionValues): Record<string, Fact> {
  return Object.fromEntries(
    Object.entries(values).map(([name, value]) => {
      const secret = value !== undefined && workload.options?.find((o) => o.name === name)?.secret;
      return [name, secret ? "<secret>" : value ?? null];
    }),
  );
}

function emptyOutcome(cpus: CpuSets): RecordOutcome {
  return {
    command: null,
    loadGenerator: null,
    cpus,
    checks: [],
    facts: {},
    headline: { figure: "requestsPerSecond", higherIsBetter: true },
    runs: [],
    warnings: [],
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
  const profile = options.profile ?? "quick";
  if (!(profile in PROFILES)) throw new RangeError(`--profile must be one of ${Object.keys(PROFILES).join(", ")}`);
  const overrides = options.settings ?? {};
  validateSettings(overrides);
  const adapters = options.adapters ?? builtinAdapters;
  const specs = (options.runtimes ?? adapters.map((a) => a.name)).flatMap((r) =>
    typeof r === "string" ? parseRuntimeSpecs(r, adapters) : [r]
  );
  // Workloads can come from users' code: a malformed one is one clear error before anything runs.
  const workloads = (options.workloads ?? builtinWorkloads).map((w) =>
    validateWorkload(w, `workload ${w?.name ?? "?"}`)
  );
  const generators = await chooseLoadGenerators(options.loadGenerator ?? "auto");
  const cache = options.cacheDir ?? defaultCacheDir();
  const signal = options.signal ?? new AbortController().signal;
  const limits = hookTimeouts(options.hookTimeoutsSec);

  const plan: Planned[] = [];
  for (const workload of workloads) {
    const resolved = resolveOptions(workload, options.options ?? {});
    const settings = effectiveSettings(profile, workload, overrides);
    const variants = workload.variants.filter((v) => !options.variants || options.variants.includes(v.name));
    for (const v of variants) plan.push({ workload, variant: v.name, settings, options: resolved });
  }
  const host = options.host ?? "127.0.0.1";
  const suiteSettings: BenchResult["settings"] = {
    profile,
    workloads: workloads.map((w) => w.name),
    runtimes: specs.map((s) => s.requested),
    loadGenerator: generators.requested,
    overrides,
    variants: options.variants ? [...options.variants] : null,
    host,
    port: options.port ?? null,
  };
  const idOf = (p: Planned, spec: RuntimeSpec) => `${p.workload.name}/${p.variant}/${spec.requested}`;
  // Resuming: records already done are kept as they are, provided they were measured the way this suite would.
  const previous = options.resume?.result;
  const done = previous ? doneRecords(previous) : new Map<string, BenchRecord>();
  if (options.resume && previous) {
    checkResumableSettings(options.resume.file, previous.settings, suiteSettings);
    for (const p of plan) {
      for (const spec of specs) {
        const kept = done.get(idOf(p, spec));
        if (kept) checkResumableRecord(options.resume.file, kept, p.settings, recordedOptions(p.workload, p.options));
      }
    }
  }
  const toMeasure = plan.map((p) => specs.filter((spec) => !done.has(idOf(p, spec))).length);
  const totalRecords = toMeasure.reduce((a, n) => a + n, 0);
  options.onProgress?.({
    type: "suite-start",
    records: totalRecords,
    estimatedSec: plan.reduce((a, p, i) => a + estimateSec(p.settings) * toMeasure[i], 0),
  });

  const environment = await fingerprint();
  const cpus = options.cpus ?? splitCpus(await allowedCpus());
  const warnings: Warning[] = environmentWarnings(environment);
  if (cpus.server === null) {
    warnings.push({
      code: "not-pinned",
      message: "server and load generator share CPUs (fewer than 2 CPUs allowed, or taskset missing): figures mix both",
    });
  }
  if (options.resume && previous) {
    checkResumableEnvironment(options.resume.file, previous.environment, environment);
    // The file keeps the suite's first start and machine; this warning says when it was taken up again.
    warnings.splice(0, warnings.length, ...previous.warnings, {
      code: "resumed",
      message: `resumed at ${new Date().toISOString()} from ${done.size} done records; ${totalRecords} measured now`,
    });
  }
  // A resumed file keeps every earlier record, errored ones too, until a new one replaces it.
  const records: BenchRecord[] = previous ? [...previous.records] : [];
  const order = new Map(plan.flatMap((p) => specs.map((spec) => idOf(p, spec))).map((id, i) => [id, i]));
  const result = (): BenchResult => ({
    schemaVersion: SCHEMA_VERSION,
    suite: { name: "rtbench", version: VERSION },
    startedAt,
    finishedAt: null,
    settings: suiteSettings,
    environment: previous?.environment ?? environment,
    warnings,
    records: [...records],
  });
  const startedAt = previous?.startedAt ?? new Date().toISOString();
  // A resumed file already holds all of this; it is rewritten once a record is measured, so a resume refused
  // later (a runtime whose version changed) leaves it as it was.
  if (!previous) await options.onPartial?.(result());
  const suiteTemp = await makeTempDir({ dir: options.tempDir, prefix: "rtbench-" });
  try {
    const runtimes = new Map<string, ResolvedRuntime | Error>();
    for (const spec of specs) {
      signal.throwIfAborted();
      try {
        const rt = await resolveRuntime(spec, { adapters, cacheDir: cache, signal });
        for (const p of plan) {
          const kept = done.get(idOf(p, spec));
          if (kept && options.resume) checkResumableRuntime(options.resume.file, kept, rt.version);
        }
        runtimes.set(spec.requested, rt);
      } catch (error) {
        if (error instanceof UsageError) throw error;
        signal.throwIfAborted();
        runtimes.set(spec.requested, error instanceof Error ? error : new Error(String(error)));
      }
    }

    let index = 0;
    const finish = async (record: BenchRecord) => {
      const earlier = records.findIndex((r) => r.id === record.id);
      if (earlier >= 0) records[earlier] = record;
      else records.push(record);
      options.onProgress?.({ type: "record-end", record });
      await options.onPartial?.(result());
    };
    const installed = new Map<Workload, Promise<string | undefined>>();
    for (const planned of plan) {
      const { workload, variant, settings } = planned;
      // Nothing left to measure here: no setup, no server.
      if (specs.every((spec) => done.has(idOf(planned, spec)))) continue;
      const tempDir = `${suiteTemp}/${workload.name}-${variant}`;
      await Deno.mkdir(tempDir, { recursive: true });
      const ctx = { variant, options: planned.options, settings, tempDir, signal, serverCpus: cpus.server };
      // What every kind runner gets beyond the record itself: where servers listen, how long hooks may take.
      const server = { host, port: options.port, hookTimeoutsSec: limits };
      let session: WorkloadSession = {};
      let setupError: PhaseError | undefined;
      try {
        if (!installed.has(workload)) {
          const required = workload.dependencies ?? {};
          const optional = workload.optionalDependencies ?? {};
          const deps = Object.keys(required).length + Object.keys(optional).length > 0
            ? installDependencies(required, cache, signal, optional)
            : Promise.resolve(undefined);
          installed.set(workload, deps);
        }
        const nodeModules = await installed.get(workload);
        if (workload.setup) {
          session = await withinTime(
            "setup",
            "the workload's setup",
            limits.setup,
            () => workload.setup!({ ...ctx, nodeModules }),
          );
        }
      } catch (error) {
        signal.throwIfAborted();
        setupError = new PhaseError("setup", (error as Error).message ?? String(error), { cause: error });
      }
      let verdicts = new Map<string, VariantVerdict>();
      if (!setupError) {
        const ready = new Map<string, ResolvedRuntime>();
        for (const [requested, rt] of runtimes) if (!(rt instanceof Error)) ready.set(requested, rt);
        const checkDir = `${suiteTemp}/variant-checks/${workload.name}-${variant}`;
        try {
          verdicts = await checkVariant({
            workload,
            variant,
            runtimes: ready,
            settings,
            options: planned.options,
            session,
            tempDir,
            workDir: checkDir,
            nodeModules: await installed.get(workload),
            cpus,
            ...server,
            signal,
          });
        } catch (error) {
          signal.throwIfAborted();
          warnings.push({
            code: "parity-unchecked",
            message: `${workload.name}/${variant}: runtimes could not be compared (${(error as Error).message})`,
          });
        } finally {
          await Deno.remove(checkDir, { recursive: true }).catch(() => {});
        }
      }
      try {
        for (const spec of specs) {
          signal.throwIfAborted();
          const id = idOf(planned, spec);
          if (done.has(id)) continue;
          // Counted outside the optional call: without a progress listener it would never run.
          const recordIndex = index++;
          options.onProgress?.({
            type: "record-start",
            index: recordIndex,
            total: totalRecords,
            id,
            estimatedSec: estimateSec(settings),
          });
          const recordStart = new Date().toISOString();
          const outcome = emptyOutcome(cpus);
          outcome.facts = { ...session.facts } as Record<string, Fact>;
          const rt = runtimes.get(spec.requested)!;
          let status: BenchRecord["status"] = "completed";
          let error: BenchRecord["error"] = null;
          let skipReason: string | null = null;
          try {
            if (rt instanceof Error) throw new PhaseError("provision", rt.message);
            if (setupError) throw setupError;
            const verdict = verdicts.get(spec.requested);
            if (verdict) {
              outcome.checks.push(...verdict.checks);
              if (verdict.invalid) throw new InvalidError("verify", verdict.invalid);
            }
            const workDir = `${suiteTemp}/records/${recordIndex}`;
            await Deno.mkdir(workDir, { recursive: true });
            await runRecord({
              workload,
              variant,
              runtime: rt,
              settings,
              options: planned.options,
              session,
              tempDir,
              workDir,
              nodeModules: await installed.get(workload),
              cpus,
              ...server,
              loadGenerator: generators.candidates[0],
              loadGenerators: generators,
              signal,
              onPhase: (phase, run) =>
                options.onProgress?.({ type: "phase", id, phase, run, runs: runPlan(settings).max }),
            }, outcome);
          } catch (e) {
            if (signal.aborted) throw signal.reason ?? e;
            if (e instanceof SkipRecord) {
              status = "skipped";
              skipReason = e.message;
            } else {
              const phaseError = e instanceof PhaseError
                ? e
                : new PhaseError("measure", e instanceof Error ? e.message : String(e), { cause: e });
              status = e instanceof InvalidError ? "invalid" : "errored";
              error = {
                phase: phaseError.phase,
                name: phaseError.cause instanceof Error ? phaseError.cause.name : phaseError.name,
                message: phaseError.message,
              };
            }
          }
          await finish({
            id,
            workload: workload.name,
            variant,
            kind: workload.kind,
            runtime: runtimeInfo(spec, rt instanceof Error ? undefined : rt),
            status,
            error,
            skipReason,
            startedAt: recordStart,
            finishedAt: new Date().toISOString(),
            settings,
            options: recordedOptions(workload, planned.options),
            command: outcome.command,
            loadGenerator: outcome.loadGenerator,
            cpus: outcome.cpus,
            verification: { passed: outcome.checks.every((c) => c.passed), checks: outcome.checks },
            facts: outcome.facts,
            headline: outcome.headline,
            runs: outcome.runs,
            summary: summaries(outcome),
            latencyUs: mergeLatency(outcome.runs.map((r) => r.latencyHistogram)),
            resources: outcome.resources ?? null,
            warnings: outcome.warnings,
          });
        }
      } finally {
        if (session.dispose) {
          // A release that fails or hangs must not take the suite with it: the records stand, a warning says it.
          await withinTime("cleanup", "the workload's dispose", limits.dispose, () => session.dispose!())
            .catch((error) => {
              warnings.push({
                code: "dispose-failed",
                message: `${workload.name}/${variant}: ${(error as Error).message ?? error}`,
              });
            });
        }
      }
    }
    records.sort((a, b) => (order.get(a.id) ?? order.size) - (order.get(b.id) ?? order.size));
    return { ...result(), finishedAt: new Date().toISOString() };
  } finally {
    await removeTemp(suiteTemp);
  }
}
