/**
 * `run()`: the programmatic entry point. Checks the request (fields, hosts,
 * runtime versions), then for every workload × variant × runtime measures one
 * record and returns the {@linkcode BenchResult}. The CLI is a thin layer
 * over it.
 *
 * @module
 */

import {
  cacheDir as defaultCacheDir,
  type NpmReleases,
  npmReleases,
  type ReleaseLookup,
  releaseWarnings,
  type ResolvedRuntime,
  resolveRuntime,
} from "../../adapters/mod.ts";
import { chooseLoadGenerators, hostsOf } from "../drivers/mod.ts";
import { openTopology } from "./topology.ts";
import { hookTimeouts } from "../kinds/mod.ts";
import {
  allowedCpus,
  makeTempDir,
  removeTemp,
  RequestError,
  splitCpus,
  startReaper,
  UsageError,
  withChildEnv,
} from "../platform/mod.ts";
import {
  type BenchRecord,
  type BenchResult,
  type CpuSets,
  type Environment,
  SCHEMA_VERSION,
  type SuiteSettings,
  type Topology as TopologyInfo,
  type Warning,
} from "../schema/mod.ts";
import { recordedOptions, runtimeInfo } from "./assemble.ts";
import { calibration, environmentWarnings, fingerprint } from "./environment.ts";
import { GrowingResult, InterruptedError, stopOf } from "./suite_result.ts";
import { estimateSec, recordId } from "./plan.ts";
import { checkConnections, checkRequest, connectHosts, type Request, type RunOptions } from "./request.ts";
import { checkResumableEnvironment, checkResumableRuntime, type Kept, keptRecords } from "./resume.ts";
import { measureVariant, type SuiteContext } from "./variant.ts";
import denoConfig from "../../deno.json" with { type: "json" };

export type { RunOptions } from "./request.ts";
export { InterruptedError } from "./suite_result.ts";

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

/** The CPU split; `--server-cpus` beyond the CPUs allowed here is bad input. */
function cpuSplit(allowed: string | null, serverCpus: number | "all" | undefined): CpuSets {
  try {
    return splitCpus(allowed, undefined, serverCpus);
  } catch (error) {
    throw new RequestError("settings.serverCpus", (error as Error).message);
  }
}

/**
 * Every runtime as found, or why it could not be had. A version that does not
 * exist is bad input (thrown), as is a kept record whose runtime changed.
 */
async function resolveRuntimes(
  req: Request,
  options: RunOptions,
  kept: Kept,
  signal: AbortSignal,
): Promise<Map<string, ResolvedRuntime | Error>> {
  const runtimes = new Map<string, ResolvedRuntime | Error>();
  const cacheDir = options.cacheDir ?? defaultCacheDir();
  // One look at npm per package, however many versions of it the suite measures.
  const asked = new Map<string, Promise<NpmReleases>>();
  const releases: ReleaseLookup = (adapter) => {
    if (!asked.has(adapter.npmPackage)) asked.set(adapter.npmPackage, npmReleases(adapter));
    return asked.get(adapter.npmPackage)!;
  };
  for (const spec of req.specs) {
    signal.throwIfAborted();
    try {
      const rt = await resolveRuntime(spec, { adapters: req.adapters, cacheDir, signal, releases });
      for (const p of req.groups) {
        const id = recordId(p, spec);
        const record = kept.done.get(id) ?? kept.continued.get(id);
        if (record && options.resume) checkResumableRuntime(options.resume.file, record, rt.version);
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

/**
 * What the result says about the runtimes' versions: each one chosen without npm, then the comparison's own (an
 * end-of-life runtime, lines years apart); a warning a resumed file already holds is not repeated.
 */
function runtimeWarnings(
  req: Request,
  runtimes: Map<string, ResolvedRuntime | Error>,
  held: readonly Warning[],
): Warning[] {
  const found = req.specs.flatMap((spec) => {
    const rt = runtimes.get(spec.requested);
    return rt instanceof Error || rt === undefined ? [] : [{ spec, rt }];
  });
  const warnings = [
    ...found.flatMap(({ rt }) => rt.warnings ?? []),
    ...releaseWarnings(found.map(({ spec, rt }) => runtimeInfo(spec, rt))),
  ];
  return warnings.filter((w) => !held.some((h) => h.code === w.code && h.message === w.message));
}

/** Suite-wide warnings: the machine's, an unpinned split, and for a resumed file its own plus when it resumed. */
function suiteWarnings(
  environment: Environment,
  cpus: CpuSets,
  options: RunOptions,
  kept: Kept,
  measured: number,
): Warning[] {
  const previous = options.resume?.result;
  if (options.resume && previous) {
    checkResumableEnvironment(options.resume.file, previous.environment, environment);
    // The file keeps the suite's first start and machine; this warning says when it was taken up again.
    const partly = kept.continued.size > 0 ? ` and ${kept.continued.size} interrupted ones` : "";
    return [...previous.warnings, {
      code: "resumed",
      message: `resumed at ${new Date().toISOString()} from ${kept.done.size} done records${partly}; ` +
        `${measured} measured now`,
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
    pairing: req.pairing,
  };
}

/** Resuming: the records kept as they are, and those measured on, provided they were measured as this suite would. */
function keptOf(req: Request, options: RunOptions, settings: SuiteSettings): Kept {
  return keptRecords(
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
}

/** Connects the other machines (a host that cannot be reached is bad input) and reads what the result records. */
async function openHosts(req: Request, signal: AbortSignal): Promise<TopologyInfo | undefined> {
  if (!req.topology) return undefined;
  await connectHosts(req.topology, signal);
  return await openTopology(req.topology, signal);
}

/** Releases the suite's hosts and temporary directory; a failure here must not cost the result. */
async function release(req: Request, suiteTemp: string): Promise<void> {
  await Promise.all(req.topology ? hostsOf(req.topology).map((h) => h.ssh.close().catch(() => {})) : []);
  await removeTemp(suiteTemp).catch(() => {});
}

/**
 * Runs a suite and returns its result. Nothing is printed; follow progress
 * with `onProgress` and keep partial results with `onPartial`. Every input is
 * checked before the first server starts (a {@linkcode RequestError} naming
 * the field); a suite interrupted by `signal` or stopped by an error rejects
 * with an {@linkcode InterruptedError} holding every finished run.
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
  const req = checkRequest(options);
  // However the program that called it ends, what the suite starts and makes goes with it (one reaper per process).
  await startReaper(options.cacheDir);
  // Every process the suite starts, however deep, keeps the --pass-env names.
  return await withChildEnv({ pass: req.passEnv }, () => runSuite(req, options));
}

/**
 * Hands the partial result to `onPartial` as soon as `signal` aborts: a signal's wind-down can be cut short (a command
 * leaves a few seconds after it, whatever is still stopping), so the file says at once that the suite was interrupted,
 * with every record finished so far; the write after the unwinding adds the finished runs of the record that was going.
 * Returns the function that stops listening.
 */
function markOnAbort(signal: AbortSignal, partial: () => BenchResult, onPartial: RunOptions["onPartial"]): () => void {
  const now = () => {
    // A write that fails here fails again, and is reported, after the unwinding.
    Promise.resolve(onPartial?.(partial())).catch(() => {});
  };
  signal.addEventListener("abort", now, { once: true });
  return () => signal.removeEventListener("abort", now);
}

/** Seconds the suite is expected to take, for progress displays: `toMeasure[i]` records of each group. */
function suiteEstimateSec(req: Request, toMeasure: readonly number[]): number {
  const duet = (runtimes: number) => req.pairing === "duet" ? { runtimes, rounds: req.overrides.runs } : undefined;
  return req.groups.reduce((a, p, i) => a + estimateSec(p, duet(toMeasure[i])) * toMeasure[i], 0);
}

async function runSuite(req: Request, options: RunOptions): Promise<BenchResult> {
  await checkConnections(req.groups);
  const generators = await chooseLoadGenerators(options.loadGenerator ?? "auto");
  const signal = options.signal ?? new AbortController().signal;
  const settings = suiteSettings(req, options, generators.requested);
  const ids = req.groups.flatMap((p) => req.specs.map((spec) => recordId(p, spec)));
  const kept = keptOf(req, options, settings);
  const toMeasure = req.groups.map((p) => req.specs.filter((spec) => !kept.done.has(recordId(p, spec))).length);
  const totalRecords = toMeasure.reduce((a, n) => a + n, 0);
  const environment = await fingerprint({ passEnv: req.passEnv, adapters: req.adapters });
  const cpus = options.cpus ?? cpuSplit(await allowedCpus(), req.overrides.serverCpus);
  const warnings = suiteWarnings(environment, cpus, options, kept, totalRecords);
  options.onProgress?.({ type: "suite-start", records: totalRecords, estimatedSec: suiteEstimateSec(req, toMeasure) });
  const suiteTemp = await makeTempDir({ dir: options.tempDir, prefix: "rtbench-" });
  try {
    // Hosts and runtime versions are input too: checked before anything is written or measured.
    const topology = await openHosts(req, signal);
    const runtimes = await resolveRuntimes(req, options, kept, signal);
    const previous = options.resume?.result;
    // A resumed file keeps the machine and calibration it started with; a new suite measures its own.
    const calibrated = previous ? undefined : options.calibration ?? await calibration(cpus.server, warnings, signal);
    const result = new GrowingResult(
      {
        schemaVersion: SCHEMA_VERSION,
        suite: { name: "rtbench", version: VERSION },
        startedAt: previous?.startedAt ?? new Date().toISOString(),
        settings,
        environment: previous?.environment ?? { ...environment, calibration: calibrated ?? null },
      },
      previous?.records ?? [],
      (record, partial) => {
        options.onProgress?.({ type: "record-end", record });
        return options.onPartial?.(partial);
      },
    );
    result.topology = topology;
    result.warnings.push(...warnings, ...runtimeWarnings(req, runtimes, warnings));
    // A resumed file already holds all of this; it is rewritten once a record is measured.
    if (!previous) await options.onPartial?.(result.current());
    const unmark = markOnAbort(signal, () => result.stopped(ids, stopOf(signal.reason, signal)), options.onPartial);
    let index = 0;
    const suite: SuiteContext = {
      specs: req.specs,
      runtimes,
      done: kept.done,
      continued: kept.continued,
      cpus,
      host: settings.host!,
      port: options.port,
      limits: hookTimeouts(options.hookTimeoutsSec),
      generators,
      cacheDir: options.cacheDir ?? defaultCacheDir(),
      suiteTemp,
      signal,
      schedule: req.schedule,
      pairing: req.pairing,
      pairingAsked: req.pairingAsked,
      duetRounds: req.overrides.runs,
      topology: req.topology,
      totalRecords,
      onProgress: options.onProgress,
      warn: (w: Warning) => void result.warnings.push(w),
      finish: (record: BenchRecord) => result.add(record),
      nextIndex: () => index++,
    };
    try {
      for (const planned of req.groups) await measureVariant(planned, suite);
    } catch (error) {
      // Whatever stopped the suite, what it measured stays: the file says it is partial, and what is left.
      const partial = result.stopped(ids, stopOf(error, signal));
      await options.onPartial?.(partial);
      throw new InterruptedError(partial, error);
    } finally {
      unmark();
    }
    return result.finished(ids);
  } finally {
    await release(req, suiteTemp);
  }
}
