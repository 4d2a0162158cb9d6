// What `deno task bench` asked for, completed before anything runs: the workloads of `--workload-file`, the rest of
// a `--resume` file's settings, the runtimes `--last` names, and where the result and report go (checked writable).

import { builtinAdapters, lastReleasesOf } from "../../adapters/mod.ts";
import { builtinWorkloads, loadWorkloadModule, type RunSettings, type Workload } from "../../workloads/mod.ts";
import { allowedCpus, CPUS_ENV, cpusOf, UsageError } from "../platform/mod.ts";
import type { ExportFormat, HistoryEntry, NoiseFloor } from "../report/mod.ts";
import {
  type BenchResult,
  type CpuSets,
  type MachineCalibration,
  readResultFile,
  type RunOrder,
} from "../schema/mod.ts";
import { type Profile, PROFILES, type RunOptions } from "../suite/mod.ts";
import { openHistory } from "./_history.ts";
import { readNoiseFloor } from "./_noise_floor.ts";
import { checkWritable, defaultResultPath } from "./_out.ts";
import { SETTING_FLAG_NAMES } from "./_bench_flags.ts";
import { CALIBRATION_ENV, calibrationOf, type HostsOption } from "../drivers/mod.ts";

/**
 * What the command line asked for.
 *
 * @example What `--workload http-json --runs 5` asks for
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { type CliRequest, parseCli } from "./bench.ts";
 *
 * const request: CliRequest = parseCli(["--workload", "http-json", "--runs", "5"]);
 * assertEquals([request.action, request.workloads[0].name, request.settings.runs], ["run", "http-json", 5]);
 * ```
 */
export interface CliRequest {
  /** `help`, `list`, `version`, or `run`. */
  action: "help" | "list" | "version" | "run";
  /** Workloads to run. */
  workloads: Workload[];
  /** Runtime entries. */
  runtimes: string[];
  /** Variants filter. */
  variants?: string[];
  /** No `--workload`: the whole suite, without the variants kept to runs that name their workload. */
  wholeSuite?: boolean;
  /** Profile. */
  profile: Profile;
  /** Explicit settings. */
  settings: Partial<RunSettings>;
  /** Workload options, raw. */
  options: Record<string, string>;
  /** Load generator: `auto` or a name. */
  loadGenerator: string;
  /** Result file, or with a non-JSON `format` the report file (the result goes beside it). */
  out?: string;
  /** Report format; absent means the terminal table. */
  format?: ExportFormat;
  /** Print JSON to stdout. */
  json: boolean;
  /** No progress. */
  quiet: boolean;
  /** Stack traces. */
  debug: boolean;
  /** Result file to resume (`--resume`): its done records are kept, the rest measured into it. */
  resume?: string;
  /** Port every server listens on (`--port`). */
  port?: number;
  /** Interface servers bind (`--host`). */
  host?: string;
  /** Order of runtimes within each round of runs (`--order`). */
  order?: RunOrder;
  /** Seed of the shuffled order (`--seed`). */
  seed?: number;
  /** Other machines (`--server-host`, `--client-host`, `--db-host`, `--ssh-config`). */
  hosts?: HostsOption;
  /** Directory that keeps every result (`--history`). */
  history?: string;
  /** With `history`: exit 1 when a figure regressed beyond this percent against the last comparable result. */
  failOnRegression?: number;
  /** With `failOnRegression`: an A/A result whose noise floor applies (`--noise-floor`). */
  noiseFloor?: string;
  /** An A/A run (`--aa`): the one runtime measured as two arms. */
  aa?: boolean;
  /** How ratios of CPU per request at the fixed rate are paired (`--pairing`). */
  pairing?: string;
  /** Variables of rtbench's environment every process keeps (`--pass-env`). */
  passEnv?: string[];
  /** `--last <n>`: each runtime becomes its last n releases on npm (looked up by {@linkcode main}). */
  last?: number;
  /** Flags given on the command line, by name without dashes (what `--resume` must not take from the file). */
  given?: readonly string[];
  /** The modules of `--workload-file`, in order. */
  workloadFiles?: readonly string[];
}

/** A request ready to run: completed, its outputs checked. */
export interface Prepared {
  /** What to run. */
  readonly request: CliRequest;
  /** The file `--resume` continues. */
  readonly previous: BenchResult | undefined;
  /** The results already in `--history`. */
  readonly history: readonly HistoryEntry[];
  /** Where the result file goes. */
  readonly resultPath: string;
  /** Where the report goes, when `--out` names one (a `--format` other than json). */
  readonly reportPath: string | undefined;
  /** The noise floor of `--noise-floor`'s A/A result. */
  readonly noiseFloor: NoiseFloor | undefined;
  /** A calibration measured earlier on this machine (`RTBENCH_CALIBRATION`), recorded instead of measuring one. */
  readonly calibration: MachineCalibration | undefined;
  /** The server's and the load's CPUs `RTBENCH_CPUS` chose, instead of halves of the CPUs this process may use. */
  readonly cpus: CpuSets | undefined;
}

/** The part of a command line's request that `run()` takes (and checks). */
export function runOptionsOf(request: CliRequest): RunOptions {
  return {
    workloads: request.workloads,
    runtimes: request.runtimes,
    variants: request.variants,
    wholeSuite: request.wholeSuite,
    profile: request.profile,
    settings: request.settings,
    options: request.options,
    loadGenerator: request.loadGenerator,
    host: request.host,
    port: request.port,
    order: request.order,
    seed: request.seed,
    aa: request.aa,
    ...(request.pairing !== undefined ? { pairing: request.pairing as RunOptions["pairing"] } : {}),
    hosts: request.hosts,
    passEnv: request.passEnv,
  };
}

/** The values of every `--workload-file` on a command line. */
export function workloadFiles(args: readonly string[]): string[] {
  const files: string[] = [];
  for (let i = 0; i < args.length; i++) {
    if (args[i] === "--workload-file") {
      if (i + 1 >= args.length || args[i + 1].startsWith("--")) throw new UsageError("--workload-file needs a path");
      files.push(args[++i]);
    } else if (args[i].startsWith("--workload-file=")) {
      files.push(args[i].slice("--workload-file=".length));
    }
  }
  return files;
}

/** Built-in workloads and those of every `--workload-file`; a name defined twice is refused. */
export async function knownWorkloads(args: readonly string[]): Promise<Workload[]> {
  const all = [...builtinWorkloads];
  for (const file of workloadFiles(args)) {
    if (file.trim() === "") throw new UsageError("--workload-file needs a path");
    for (const w of await loadWorkloadModule(file)) {
      if (all.some((known) => known.name === w.name)) {
        throw new UsageError(`--workload-file ${file}: a workload named "${w.name}" is already defined`);
      }
      all.push(w);
    }
  }
  return all;
}

/**
 * With `--resume <file>`, what the command line leaves unsaid comes from the
 * file: workloads, runtimes, variants, profile, settings, load generator, host
 * and port. What it says must match the file (checked by `run()`).
 */
async function resumeRequest(request: CliRequest, known: readonly Workload[]): Promise<[CliRequest, BenchResult]> {
  const file = request.resume!;
  let previous: BenchResult;
  try {
    previous = await readResultFile(file);
  } catch (error) {
    if (error instanceof UsageError) throw new UsageError(`--resume: ${error.message}`, { cause: error });
    throw error;
  }
  const s = previous.settings;
  const given = new Set(request.given ?? []);
  const next = { ...request };
  if (!given.has("workload")) {
    next.workloads = s.workloads.map((name) => {
      const w = known.find((k) => k.name === name);
      if (!w) throw new UsageError(`--resume ${file}: workload "${name}" is unknown here (pass its --workload-file)`);
      return w;
    });
  }
  // An A/A file names its arms (deno#A, deno#B): the suite makes them again from the one runtime.
  if (!given.has("runtime")) next.runtimes = s.aa ? [s.runtimes[0].replace(/#A$/, "")] : [...s.runtimes];
  if (s.aa && !given.has("aa")) next.aa = true;
  if (!given.has("variant")) next.variants = s.variants ? [...s.variants] : undefined;
  if (!given.has("profile")) {
    if (!(s.profile in PROFILES)) throw new UsageError(`--resume ${file}: unknown profile "${s.profile}"`);
    next.profile = s.profile as Profile;
  }
  if (!SETTING_FLAG_NAMES.some((flag) => given.has(flag))) next.settings = { ...s.overrides };
  if (!given.has("load-generator")) next.loadGenerator = s.loadGenerator;
  if (!given.has("host") && s.host !== undefined) next.host = s.host;
  if (!given.has("port") && s.port != null) next.port = s.port;
  // The rest of the suite keeps the file's order of runs (and its seed).
  if (!given.has("order") && !given.has("seed") && s.order !== undefined) {
    next.order = s.order;
    next.seed = s.seed ?? undefined;
  }
  return [next, previous];
}

/**
 * The result file that goes with a report written to `out`: the same name
 * with a `.json` extension (`report.html` → `report.json`).
 */
export function resultPathFor(out: string): string {
  const slash = out.lastIndexOf("/");
  const dot = out.lastIndexOf(".");
  return (dot > slash + 1 ? out.slice(0, dot) : out) + ".json";
}

/**
 * Completes a request to run — the `--resume` file's settings, the history,
 * the releases `--last` names — and checks that its outputs can be written.
 * Throws a {@linkcode UsageError} naming the flag.
 */
export async function prepare(request: CliRequest, known: readonly Workload[]): Promise<Prepared> {
  const calibration = calibrationOf(Deno.env.get(CALIBRATION_ENV));
  const placement = Deno.env.get(CPUS_ENV);
  const cpus = placement ? cpusOf(placement, await allowedCpus()) : undefined;
  if (cpus && request.settings.serverCpus !== undefined) {
    throw new UsageError(`--server-cpus and ${CPUS_ENV} both place the server: give one`);
  }
  let previous: BenchResult | undefined;
  if (request.resume !== undefined) [request, previous] = await resumeRequest(request, known);
  const history = request.history === undefined ? [] : await openHistory(request.history);
  const noiseFloor = request.noiseFloor === undefined ? undefined : await readNoiseFloor(request.noiseFloor);
  if (request.last !== undefined) {
    request = { ...request, runtimes: await lastReleasesOf(request.runtimes, request.last, builtinAdapters) };
  }
  // With a report format other than JSON, --out names the report and the result file goes beside it.
  const format = request.format;
  const reportPath = format !== undefined && format !== "json" ? request.out : undefined;
  const resultPath = request.resume ??
    (request.out === undefined ? defaultResultPath() : reportPath ? resultPathFor(reportPath) : request.out);
  await checkWritable(resultPath, request.resume !== undefined ? "--resume" : "--out");
  if (reportPath) await checkWritable(reportPath, "--out");
  return { request, previous, history, resultPath, reportPath, noiseFloor, calibration, cpus };
}
