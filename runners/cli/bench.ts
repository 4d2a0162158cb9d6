/**
 * The rtbench command line: `deno task bench [flags]`. A thin layer over
 * {@linkcode run}: parses flags, shows progress on a terminal, writes the
 * result file after every record and prints the tables.
 *
 * Exit codes: 0 every record completed or skipped; 1 some record errored or
 * is invalid, or rtbench itself failed; 2 bad input; 130 interrupted (143 on
 * SIGTERM, 129 on SIGHUP or when the `deno task` running it is killed).
 *
 * @module
 */

import { builtinAdapters, defaultRuntimeNames, lastReleasesOf, parseRuntimeSpecs } from "../../adapters/mod.ts";
import { builtinWorkloads, selectWorkloads } from "../../workloads/mod.ts";
import { loadWorkloadModule } from "../../workloads/validate.ts";
import type { RunSettings, Workload } from "../../workloads/types.ts";
import { errorLine, runEntry } from "../platform/entry.ts";
import { numberFlag, strictFlags } from "./_flags.ts";
import { ownTemp, removeTemp } from "../platform/temp.ts";
import { writeStdout } from "../platform/stdout.ts";
import { UsageError } from "../platform/errors.ts";
import { EXPORT_FORMATS, type ExportFormat, exportResult, parseFormat } from "../report/mod.ts";
import { createProgress } from "../report/progress.ts";
import { builtinLoadGenerators } from "../drivers/generators.ts";
import { type HostsOption, topologyOf } from "../drivers/remote.ts";
import type { BenchResult, RunOrder } from "../schema/result.ts";
import { readResultFile } from "../schema/read.ts";
import { cannotListen } from "../platform/ports.ts";
import { type Profile, PROFILES } from "../suite/settings.ts";
import { scheduleOf } from "../suite/schedule.ts";
import { run, VERSION } from "../suite/run.ts";
import { formatTable } from "../report/table.ts";
import { writeResult } from "../schema/write.ts";
import type { HistoryEntry } from "../report/history.ts";
import { keepAndCompare, openHistory } from "./_history.ts";
import { readNoiseFloor } from "./_noise_floor.ts";
import type { NoiseFloor } from "../report/compare.ts";

const NUMERIC: Record<string, keyof RunSettings> = {
  duration: "durationSec",
  warmup: "warmupSec",
  connections: "connections",
  runs: "runs",
  pipelining: "pipelining",
  timeout: "requestTimeoutSec",
  "start-timeout": "startTimeoutSec",
  "min-runs": "minRuns",
  "max-runs": "maxRuns",
  "ci-target": "ciTargetPercent",
  "sample-interval": "sampleIntervalMs",
  rate: "rate",
  "sweep-steps": "sweepSteps",
  "slo-p99": "sloP99Ms",
  "cpu-rate": "cpuRate",
  "idle-connections": "idleConnections",
};
const STRINGS = [
  "server-cpus",
  "workload",
  "runtime",
  "variant",
  "profile",
  "out",
  "format",
  "load-generator",
  "resume",
  "port",
  "host",
  "workload-file",
  "order",
  "seed",
  ...Object.keys(NUMERIC),
  "phases",
  "arrival",
  "server-host",
  "client-host",
  "db-host",
  "ssh-config",
  "last",
  "history",
  "fail-on-regression",
  "noise-floor",
];
/** Ports the Fetch standard blocks (https://fetch.spec.whatwg.org/#bad-port). */
const FETCH_BAD_PORTS = new Set([
  ..."1 7 9 11 13 15 17 19 20 21 22 23 25 37 42 43 53 69 77 79 87 95 101 102 103 104 109 110".split(" "),
  ..."111 113 115 117 119 123 135 137 139 143 161 179 389 427 465 512 513 514 515 526 530 531".split(" "),
  ..."532 540 548 554 556 563 587 601 636 989 990 993 995 1719 1720 1723 2049 3659 4045 4190".split(" "),
  ..."5060 5061 6000 6566 6665 6666 6667 6668 6669 6679 6697 10080".split(" "),
].map(Number));
const BOOLEANS = ["json", "list", "help", "quiet", "debug", "version", "sweep", "aa"];
/** Every flag that sets a run setting (what `--resume` takes from the file when none is given). */
const SETTING_FLAGS = [...Object.keys(NUMERIC), "phases", "arrival", "sweep"];

function helpText(workloads: readonly Workload[]): string {
  const q = PROFILES.quick;
  // An option several workloads share (for example --warmup-runs) is listed once, naming them all.
  const owners = new Map<string, { flag: string; description: string; workloads: string[] }>();
  for (const w of workloads) {
    for (const o of w.options ?? []) {
      const seen = owners.get(o.name) ?? { flag: `--${o.name} <${o.type}>`, description: o.description, workloads: [] };
      seen.workloads.push(w.name);
      owners.set(o.name, seen);
    }
  }
  const options = [...owners.values()].map((o) => [o.flag, `${o.description} (${o.workloads.join(", ")})`]);
  const rows: [string, string][] = [
    [
      "--workload, -w <list>",
      `workloads to run, comma-separated (default: all: ${workloads.map((w) => w.name).join(", ")})`,
    ],
    [
      "--runtime, -r <list>",
      "runtimes, comma-separated, each optionally name@version; native baselines go, rust (default: deno,node,bun)",
    ],
    [
      "--last <n>",
      "each runtime of --runtime becomes its last n releases on npm (node: majors; deno, bun: minors), newest patch",
    ],
    ["--variant <list>", "only these variants (default: every variant)"],
    ["--profile <name>", "quick (default) or full: defaults for the settings below"],
    ["--duration <s>", `measured seconds per run (quick: ${q.durationSec}, full: ${PROFILES.full.durationSec})`],
    ["--warmup <s>", `warm-up seconds before each run (quick: ${q.warmupSec})`],
    ["--connections <n>", `concurrent connections (default: ${q.connections})`],
    ["--runs <n>", `measured runs, each with a fresh server (quick: ${q.runs}, full: ${PROFILES.full.runs})`],
    ["--pipelining <n>", `requests in flight per connection (default: ${q.pipelining})`],
    ["--timeout <s>", `seconds before a request times out (default: ${q.requestTimeoutSec})`],
    ["--start-timeout <s>", `seconds a server may take to start (default: ${q.startTimeoutSec})`],
    ["--min-runs <n>", "adaptive runs: at least n, adding runs until the 95% CI is within --ci-target (default 3)"],
    ["--max-runs <n>", "adaptive runs: at most n (default 10)"],
    ["--ci-target <%>", "adaptive runs: stop when the 95% CI half-width is below this % of the mean (default 3)"],
    ["--load-generator <name>", "auto (default: the engine), rtbench, wrk, bombardier, oha, autocannon or locust"],
    ["--sample-interval <ms>", "milliseconds between resource samples of server and client (default 250)"],
    [
      "--rate <n>",
      "open model: requests (ws: messages) per second on a fixed schedule; latency from when each was due",
    ],
    ["--phases <list>", 'open model: constant and ramping rates, "10s@1000,30s@1000->8000,10s@8000"'],
    ["--arrival <name>", "open model: uniform (default) or poisson arrivals"],
    ["--sweep", "latency-throughput sweep: a closed-model peak, then rates from 10% to 110% of it"],
    ["--sweep-steps <n>", "rates of the sweep (default 10)"],
    ["--slo-p99 <ms>", "the sweep's knee: highest rate whose p99 stays at or under this (default 50)"],
    [
      "--cpu-rate <n>",
      "after each run, a window at n requests/s on the same server counting its CPU time per request (0: none; " +
      "default http-json and ws 20000)",
    ],
    [
      "--idle-connections <n>",
      "after a record's first run, n idle connections open: the server's memory per connection (0: none; " +
      "default http-json and ws 1000)",
    ],
    [
      "--server-cpus <n|all>",
      "CPUs for the server, the rest for the load generator; each runtime serves on all of them its own way",
    ],
    ["--port <n>", "port every server listens on (default: a free port per server)"],
    ["--host <address>", "interface servers bind and the load goes through (default: 127.0.0.1, loopback only)"],
    ["--workload-file <path>", "also load the workloads a module exports (repeatable)"],
    ["--server-host <[user@]host[:port]>", "run the servers on this machine, reached with ssh"],
    ["--client-host <[user@]host[:port]>", "run the load engine on this machine, over ssh (repeatable: they share it)"],
    ["--db-host <[user@]host[:port]>", "run the database on this machine, reached with ssh"],
    ["--ssh-config <file>", "ssh configuration file instead of your own (ssh -F)"],
    ["--order <name>", "order of runtimes within each round of runs: rotate (default), shuffle or blocked"],
    ["--seed <n>", "seed of the shuffled order (a seed alone means --order shuffle; recorded in the result)"],
    ["--resume <file>", "continue the suite in this result file: keep its done records, measure the rest into it"],
    ["--history <dir>", "also keep the result in this directory, which keeps every result (see deno task trend)"],
    [
      "--fail-on-regression <pct>",
      "with --history: exit 1 when a figure is significantly worse than in the last comparable result by > pct%",
    ],
    ["--noise-floor <file>", "with --fail-on-regression: an A/A result; a change smaller than its floor is not called"],
    ["--aa", "A/A run: the one --runtime measured as two arms, interleaved; the report prints the noise floor"],
    ...options as [string, string][],
    ["--format <name>", `report format: ${EXPORT_FORMATS.join(", ")} (default: table)`],
    [
      "--out <file>",
      "where the report goes; the result JSON is written beside it as <name>.json (default: report on stdout, " +
      "result in results/rtbench-<time>.json)",
    ],
    ["--json", "also print the result JSON to stdout (tables go to stderr)"],
    ["--list", "list workloads and runtimes, then exit"],
    ["--quiet", "no progress display"],
    ["--debug", "show stack traces"],
    ["--version", "print rtbench's version"],
    ["--help, -h", "this help"],
  ];
  const width = Math.max(...rows.map((r) => r[0].length));
  return [
    "rtbench: benchmark Node.js, Deno and Bun on the same verified workloads",
    "",
    "Usage: deno task bench [flags]",
    "",
    ...rows.map(([f, d]) => `  ${f.padEnd(width)}  ${d}`),
    "",
    "Exit codes: 0 all completed, 1 a record errored or is invalid (or --fail-on-regression found a regression), " +
    "2 bad input, 130/143/129 interrupted by " +
    "SIGINT/SIGTERM/SIGHUP.",
  ].join("\n");
}

async function listText(workloads: readonly Workload[]): Promise<string> {
  const lines = ["Workloads:"];
  for (const w of workloads) {
    lines.push(`  ${w.name.padEnd(12)} ${w.kind.padEnd(9)} ${w.description}`);
    for (const v of w.variants) lines.push(`  ${"".padEnd(12)} variant ${v.name}: ${v.description}`);
  }
  lines.push("", "Runtimes:");
  for (const a of builtinAdapters) {
    const found = await a.detect();
    lines.push(
      `  ${a.name.padEnd(6)} ${a.description}; ${
        found ? `found: ${found}` : `not installed: ${a.howToGet ?? "fetched from npm on first use"}`
      }`,
    );
  }
  return lines.join("\n");
}

function serverCpusOf(raw: unknown): number | "all" {
  if (raw === "all") return "all";
  const n = toNumber("server-cpus", raw);
  if (!Number.isInteger(n) || n < 1) {
    throw new UsageError(`--server-cpus must be a whole number of CPUs or all, got "${raw}"`);
  }
  return n;
}

function toNumber(flag: string, raw: unknown): number {
  if (typeof raw !== "string" || raw.trim() === "") throw new UsageError(`--${flag} needs a value`);
  const n = Number(raw);
  if (!Number.isFinite(n)) throw new UsageError(`--${flag} must be a number, got "${raw}"`);
  return n;
}

/**
 * What the command line asked for.
 *
 * @example What `--workload http-json --runs 5` asks for
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { type CliRequest, parseCli } from "@rtbench/rtbench/cli";
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
  /** `--last <n>`: each runtime becomes its last n releases on npm (looked up by {@linkcode main}). */
  last?: number;
  /** Flags given on the command line, by name without dashes (what `--resume` must not take from the file). */
  given?: readonly string[];
}

/**
 * Parses and validates command-line arguments; throws {@linkcode UsageError}
 * naming the flag on any bad input.
 *
 * @param args The command-line arguments, without the program name.
 * @param workloads The workloads `--workload` may name, with the options that become flags.
 * @returns What to do, and with which workloads, runtimes, settings and outputs.
 *
 * @example Parse a duration
 * ```ts
 * import { parseCli } from "./bench.ts";
 * const req = parseCli(["--workload", "http-json", "--duration", "2"]);
 * console.log(req.settings.durationSec); // 2
 * ```
 */
export function parseCli(args: string[], workloads: readonly Workload[] = builtinWorkloads): CliRequest {
  const optionFlags = [...new Set(workloads.flatMap((w) => (w.options ?? []).map((o) => o.name)))];
  const valueFlags = [...STRINGS, ...optionFlags];
  const flags = strictFlags(args, {
    string: valueFlags,
    boolean: BOOLEANS,
    collect: ["workload", "runtime", "workload-file", "client-host"],
    alias: { w: "workload", r: "runtime" },
  });
  const debug = flags.debug === true;
  const base = {
    loadGenerator: "auto",
    runtimes: [],
    profile: "quick" as Profile,
    settings: {},
    options: {},
    json: false,
    quiet: false,
    debug,
  };
  if (flags.help) return { action: "help", workloads: [...workloads], ...base };
  if (flags.version) return { action: "version", workloads: [...workloads], ...base };
  if (flags.list) return { action: "list", workloads: [...workloads], ...base };

  const joined = (v: unknown, flag: string): string | undefined => {
    if (v === undefined || (Array.isArray(v) && v.length === 0)) return undefined;
    const s = Array.isArray(v) ? v.join(",") : String(v);
    if (s.trim() === "") throw new UsageError(`--${flag} needs a value`);
    return s;
  };
  const workloadList = joined(flags.workload, "workload");
  const picked = workloadList === undefined ? [...workloads] : selectWorkloads(workloadList, workloads);
  const runtimeList = joined(flags.runtime, "runtime");
  const runtimes = runtimeList === undefined
    ? defaultRuntimeNames()
    : parseRuntimeSpecs(runtimeList).map((s) => s.requested);

  const last = numberFlag(flags, "last", { integer: true, min: 1, max: 10 });
  const history = flags.history === undefined ? undefined : String(flags.history);
  const failOnRegression = numberFlag(flags, "fail-on-regression", { min: 0 });
  if (failOnRegression !== undefined && history === undefined) {
    throw new UsageError("--fail-on-regression needs --history <dir>, the results to compare against");
  }
  const noiseFloor = flags["noise-floor"] === undefined ? undefined : String(flags["noise-floor"]);
  if (noiseFloor !== undefined && failOnRegression === undefined) {
    throw new UsageError("--noise-floor needs --fail-on-regression, the comparison it applies to");
  }
  if (flags.aa === true && runtimes.length !== 1) {
    throw new UsageError(
      `--aa measures one runtime as two arms: give exactly one --runtime, got ${runtimes.join(",")}`,
    );
  }
  if (last !== undefined && flags.resume !== undefined) {
    throw new UsageError("--last: with --resume, the runtimes come from the result file");
  }
  const profile = (flags.profile ?? "quick") as string;
  if (!(profile in PROFILES)) {
    throw new UsageError(`--profile: unknown profile "${profile}" (allowed: ${Object.keys(PROFILES).join(", ")})`);
  }
  const settings: Record<string, number | string | boolean> = {};
  for (const [flag, key] of Object.entries(NUMERIC)) {
    if (flags[flag] !== undefined) settings[key] = toNumber(flag, flags[flag]);
  }
  if (flags.phases !== undefined) settings.phases = String(flags.phases);
  if (flags.arrival !== undefined) settings.arrival = String(flags.arrival);
  if (flags.sweep === true) settings.sweep = true;
  if (flags["server-cpus"] !== undefined) settings.serverCpus = serverCpusOf(flags["server-cpus"]);
  let variants: string[] | undefined;
  const variantList = joined(flags.variant, "variant");
  if (variantList !== undefined) {
    variants = variantList.split(",").map((s) => s.trim()).filter(Boolean);
    const known = new Set(picked.flatMap((w) => w.variants.map((v) => v.name)));
    const bad = variants.find((v) => !known.has(v));
    if (bad) throw new UsageError(`--variant: unknown variant "${bad}" (allowed: ${[...known].join(", ")})`);
  }
  const options: Record<string, string> = {};
  for (const name of optionFlags) if (flags[name] !== undefined) options[name] = String(flags[name]);
  const out = flags.out === undefined ? undefined : String(flags.out);
  const format = flags.format === undefined ? undefined : parseFormat(String(flags.format));
  if (format !== undefined && format !== "json" && out !== undefined && resultPathFor(out) === out) {
    throw new UsageError(
      `--out: ${out} would be both the ${format} report and the result file; name it .${format}`,
    );
  }
  if (flags.json === true && format !== undefined && format !== "json" && flags.out === undefined) {
    throw new UsageError(`--format ${format} and --json both print to stdout; give the report a file with --out`);
  }
  let port: number | undefined;
  if (flags.port !== undefined) {
    const n = toNumber("port", flags.port);
    if (!Number.isInteger(n) || n < 1 || n > 65535) {
      throw new UsageError(`--port must be a whole number from 1 to 65535, got "${flags.port}"`);
    }
    // Fetch refuses these ports (the Fetch standard's "bad ports"), so verification could never reach the server.
    if (FETCH_BAD_PORTS.has(n)) {
      throw new UsageError(`--port ${n} is a port fetch refuses to connect to; choose another`);
    }
    port = n;
  }
  const host = flags.host === undefined ? undefined : String(flags.host).trim();
  if (host === "") throw new UsageError("--host needs an address");
  const resume = flags.resume === undefined ? undefined : String(flags.resume);
  if (resume !== undefined && resume.trim() === "") throw new UsageError("--resume needs a result file");
  if (resume !== undefined && flags.out !== undefined && (format === undefined || format === "json")) {
    throw new UsageError(`--out: with --resume, results go to ${resume}; --out may only name a --format report`);
  }
  const loadGenerator = joined(flags["load-generator"], "load-generator") ?? "auto";
  const seed = flags.seed === undefined ? undefined : toNumber("seed", flags.seed);
  // Checked here so that a bad --order or --seed is refused before anything runs.
  const { order } = scheduleOf(flags.order === undefined ? undefined : String(flags.order), seed);
  const generatorNames = builtinLoadGenerators.map((g) => g.name);
  if (loadGenerator !== "auto" && !generatorNames.includes(loadGenerator)) {
    throw new UsageError(
      `--load-generator: unknown load generator "${loadGenerator}" (allowed: auto, ${generatorNames.join(", ")})`,
    );
  }
  return {
    action: "run",
    workloads: picked,
    runtimes,
    variants,
    ...(workloadList === undefined ? { wholeSuite: true } : {}),
    profile: profile as Profile,
    settings: settings as Partial<RunSettings>,
    options,
    loadGenerator,
    out,
    format,
    json: flags.json === true,
    quiet: flags.quiet === true,
    debug,
    resume,
    port,
    host,
    order: flags.order === undefined && seed === undefined ? undefined : order,
    seed,
    hosts: hostsFlags(flags),
    last,
    history,
    failOnRegression,
    ...(noiseFloor !== undefined ? { noiseFloor } : {}),
    ...(flags.aa === true ? { aa: true } : {}),
    given: givenFlags(args),
  };
}

/** `--server-host`, `--client-host`, `--db-host` and `--ssh-config`, each host checked as `[user@]host[:port]`. */
function hostsFlags(flags: Record<string, unknown>): HostsOption | undefined {
  const one = (name: string) => flags[name] === undefined ? undefined : String(flags[name]);
  // Repeated flags arrive joined by commas, so a comma separates hosts too.
  const clients = flags["client-host"] === undefined ? [] : String(flags["client-host"]).split(",");
  const hosts: HostsOption = {
    ...(one("server-host") ? { server: one("server-host") } : {}),
    ...(clients.length > 0 ? { clients } : {}),
    ...(one("db-host") ? { db: one("db-host") } : {}),
    ...(one("ssh-config") ? { sshConfig: one("ssh-config") } : {}),
  };
  if (Object.keys(hosts).length === 0) return undefined;
  // Malformed hosts are refused here, before anything runs.
  topologyOf(hosts);
  if (hosts.sshConfig && !hosts.server && !hosts.clients && !hosts.db) {
    throw new UsageError("--ssh-config needs --server-host, --client-host or --db-host");
  }
  return hosts;
}

/** Names of the flags on a command line, without dashes, aliases resolved. */
function givenFlags(args: readonly string[]): string[] {
  return args.filter((a) => a.startsWith("-")).map((a) =>
    a === "-w" ? "workload" : a === "-r" ? "runtime" : a.replace(/^--?/, "").split("=")[0]
  );
}

/** The values of every `--workload-file` on a command line. */
function workloadFiles(args: readonly string[]): string[] {
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
async function knownWorkloads(args: readonly string[]): Promise<Workload[]> {
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
  if (!SETTING_FLAGS.some((flag) => given.has(flag))) next.settings = { ...s.overrides };
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

function defaultOutPath(): string {
  const stamp = new Date().toISOString().replace(/[-:]/g, "").replace("T", "-").slice(0, 15);
  return `results/rtbench-${stamp}.json`;
}

/**
 * The result file that goes with a report written to `out`: the same name
 * with a `.json` extension (`report.html` → `report.json`).
 */
function resultPathFor(out: string): string {
  const slash = out.lastIndexOf("/");
  const dot = out.lastIndexOf(".");
  return (dot > slash + 1 ? out.slice(0, dot) : out) + ".json";
}

function terminalColumns(): number {
  try {
    // A pseudo-terminal without a size (script, CI runners) reports 0 columns.
    const { columns } = Deno.consoleSize();
    return columns >= 20 ? columns : 80;
  } catch {
    return 80;
  }
}

/** Directories {@linkcode prepareOut} created; removed at the end if nothing was written into them. */
const createdDirs: string[] = [];

async function prepareOut(path: string): Promise<void> {
  const dir = path.includes("/") ? path.slice(0, path.lastIndexOf("/")) : ".";
  try {
    if (path.startsWith("results/") && !(await Deno.stat(dir).then(() => true, () => false))) {
      await Deno.mkdir(dir, { recursive: true });
      createdDirs.push(dir);
    }
    const info = await Deno.stat(dir);
    if (!info.isDirectory) throw new Error("not a directory");
    const slash = path.lastIndexOf("/");
    const probe = ownTemp(`${path.slice(0, slash + 1)}.rtbench-${path.slice(slash + 1)}.${Deno.pid}.probe`);
    await Deno.writeTextFile(probe, "");
    await removeTemp(probe);
  } catch (error) {
    throw new UsageError(`--out: cannot write ${path} (${(error as Error).message.split(":")[0]})`);
  }
}

/**
 * Options of {@linkcode main}.
 *
 * @example Stop a CLI run from the calling program
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { main, type MainOptions } from "@rtbench/rtbench/cli";
 *
 * const options: MainOptions = { signal: AbortSignal.abort() };
 * assertEquals(await main(["--help"], options), 0);
 * ```
 */
export interface MainOptions {
  /** Interrupts the suite: running processes are stopped, finished records stay in the result file. */
  signal?: AbortSignal;
}

/**
 * Runs the CLI with `args` and returns the exit code. Run as a program, it
 * goes through `runEntry`, which turns SIGINT, SIGTERM and SIGHUP into
 * `signal` and cleans up however the process ends.
 *
 * @param args The command-line arguments, without the program name.
 * @param options An abort signal that interrupts the suite like Ctrl-C does.
 * @returns The exit code: 0, 1, 2, 130 or 143.
 *
 * @example Run the CLI from another program
 * ```ts ignore
 * import { main } from "./bench.ts";
 * Deno.exit(await main(["--workload", "http-json", "--runtime", "deno"]));
 * ```
 *
 * @example Bad input is exit code 2
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { main } from "@rtbench/rtbench/cli";
 *
 * assertEquals(await main(["--profile", "fast"]), 2);
 * ```
 */
export async function main(args: string[], options: MainOptions = {}): Promise<number> {
  const signal = options.signal ?? new AbortController().signal;
  let request: CliRequest;
  let known: Workload[];
  let previous: BenchResult | undefined;
  let history: HistoryEntry[] = [];
  let noiseFloor: NoiseFloor | undefined;
  try {
    known = await knownWorkloads(args);
    request = parseCli(args, known);
    if (request.action === "run" && request.resume !== undefined) {
      [request, previous] = await resumeRequest(request, known);
    }
    if (request.action === "run" && request.history !== undefined) history = await openHistory(request.history);
    if (request.action === "run" && request.noiseFloor !== undefined) {
      noiseFloor = await readNoiseFloor(request.noiseFloor);
    }
    if (request.action === "run" && request.last !== undefined) {
      request = { ...request, runtimes: await lastReleasesOf(request.runtimes, request.last, builtinAdapters) };
    }
    if (request.action === "run") {
      const host = request.host ?? "127.0.0.1";
      const why = cannotListen(host, request.port ?? 0);
      if (why) {
        throw new UsageError(
          request.port !== undefined && why.startsWith("port")
            ? `Cannot start server: ${why} (--port)`
            : `--host: cannot listen on ${host}: ${why}`,
        );
      }
    }
  } catch (error) {
    if (error instanceof UsageError) {
      console.error(`rtbench: ${error.message}`);
      if (args.includes("--debug")) console.error(error.stack);
      return 2;
    }
    throw error;
  }
  if (request.action === "help") {
    console.log(helpText(known));
    return 0;
  }
  if (request.action === "version") {
    console.log(`rtbench ${VERSION}`);
    return 0;
  }
  if (request.action === "list") {
    console.log(await listText(known));
    return 0;
  }

  // With a report format other than JSON, --out names the report and the result file goes beside it.
  const format = request.format;
  const reportPath = format !== undefined && format !== "json" ? request.out : undefined;
  const out = request.resume ??
    (request.out === undefined ? defaultOutPath() : reportPath ? resultPathFor(reportPath) : request.out);
  const human = request.json ? console.error : console.log;
  let lastWrite: Promise<void> = Promise.resolve();
  const encoder = new TextEncoder();
  const progress = request.quiet ? undefined : createProgress({
    write: (text) => Deno.stderr.writeSync(encoder.encode(text)),
    columns: terminalColumns,
    live: Deno.stderr.isTerminal(),
  });
  const ticker = progress ? setInterval(() => progress.tick(), 1000) : undefined;
  const endProgress = () => {
    clearInterval(ticker);
    progress?.stop();
  };
  try {
    await prepareOut(out);
    if (reportPath) await prepareOut(reportPath);
    const result: BenchResult = await run({
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
      hosts: request.hosts,
      resume: previous && { file: out, result: previous },
      signal,
      onProgress: progress?.update,
      onPartial: (partial) => {
        lastWrite = lastWrite.then(() => writeResult(out, partial));
        return lastWrite;
      },
    });
    endProgress();
    await lastWrite;
    await writeResult(out, result);
    if (format !== undefined && request.out === undefined) {
      // The report itself is the output: nothing else goes to stdout.
      await writeStdout(exportResult(result, format));
    } else {
      human(formatTable(result));
    }
    if (reportPath && format) {
      await Deno.writeTextFile(reportPath, exportResult(result, format));
      console.error(`Report written to ${reportPath}`);
    }
    if (request.json && !(format === "json" && request.out === undefined)) console.log(JSON.stringify(result, null, 2));
    console.error(`Result written to ${out}`);
    const regressed = request.history !== undefined &&
      await keepAndCompare(request.history, history, result, out, request.failOnRegression, console.error, noiseFloor);
    return regressed || result.records.some((r) => r.status === "errored" || r.status === "invalid") ? 1 : 0;
  } catch (error) {
    endProgress();
    if (signal.aborted) {
      await lastWrite.catch(() => {});
      console.error(`\nrtbench: ${errorLine(signal.reason)}; finished records are in ${out}`);
      return 130;
    }
    if (error instanceof UsageError || error instanceof RangeError) {
      console.error(`rtbench: ${error.message}`);
      if (request.debug) console.error(error.stack);
      return 2;
    }
    console.error(`rtbench: ${errorLine(error)}${request.debug ? "" : " (--debug shows the stack)"}`);
    if (request.debug) console.error((error as Error).stack);
    return 1;
  } finally {
    endProgress();
    // Input refused after the default results/ was made must not leave it behind (non-recursive: a result stays).
    for (const dir of createdDirs.splice(0)) await Deno.remove(dir).catch(() => {});
  }
}

if (import.meta.main) await runEntry("rtbench", Deno.args, ({ signal }) => main(Deno.args, { signal }));
