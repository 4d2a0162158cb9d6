/**
 * `rtbench bench [flags]` (`deno task bench`), the command that measures. A thin layer over
 * {@linkcode run}: parses flags into `run()`'s request (whose one validator
 * names fields, which the command line names by their flags), checks where
 * the output goes, shows progress on a terminal, writes the result file after
 * every record and prints the tables.
 *
 * Exit codes: 0 every record completed or skipped; 1 some record errored or
 * is invalid, or rtbench itself failed; 2 bad input; 130 interrupted (143 on
 * SIGTERM, 129 on SIGHUP or when the `deno task` running it is killed), with
 * every finished run kept in the result file, marked interrupted.
 *
 * @module
 */

import { defaultRuntimeNames, parseRuntimeSpecs } from "../../adapters/mod.ts";
import { builtinWorkloads, type RunSettings, selectWorkloads, type Workload } from "../../workloads/mod.ts";
import { runEntry, UsageError } from "../platform/mod.ts";
import { parseFormat } from "../report/mod.ts";
import type { HostsOption } from "../drivers/mod.ts";
import type { RunOrder } from "../schema/mod.ts";
import { checkRequest, type Profile, VERSION } from "../suite/mod.ts";
import { type Flags, numberFlag, strictFlags } from "./_flags.ts";
import { SETTING_FLAGS, withFlagNames } from "./_flag_names.ts";
import { BOOLEAN_FLAGS, helpText, listText, REPEATABLE_FLAGS, VALUE_FLAGS } from "./_bench_flags.ts";
import {
  type CliRequest,
  knownWorkloads,
  prepare,
  resultPathFor,
  runOptionsOf,
  workloadFiles,
} from "./_bench_request.ts";
import { measure } from "./_bench_run.ts";
import { removeEmptyFolders } from "./_out.ts";

export type { CliRequest } from "./_bench_request.ts";

/**
 * Parses and validates command-line arguments: each flag's value, and
 * everything `run()` will be asked for (its one validator, naming fields;
 * here they are named by their flags). Throws {@linkcode UsageError} naming
 * the flag on any bad input.
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
  try {
    const request = parse(args, workloads);
    // With --resume the file says what the command line leaves unsaid; run() checks the whole before any work.
    if (request.action === "run" && request.resume === undefined) checkRequest(runOptionsOf(request));
    return request;
  } catch (error) {
    throw withFlagNames(error);
  }
}

function parse(args: string[], workloads: readonly Workload[]): CliRequest {
  const optionFlags = [...new Set(workloads.flatMap((w) => (w.options ?? []).map((o) => o.name)))];
  const flags = strictFlags(args, {
    string: [...VALUE_FLAGS, ...optionFlags],
    boolean: BOOLEAN_FLAGS,
    collect: REPEATABLE_FLAGS,
    alias: { w: "workload", r: "runtime" },
  });
  const base = {
    workloads: [...workloads],
    runtimes: [],
    profile: "quick" as Profile,
    settings: {},
    options: {},
    loadGenerator: "auto",
    json: false,
    quiet: false,
    debug: flags.debug === true,
  };
  if (flags.help) return { action: "help", ...base };
  if (flags.version) return { action: "version", ...base };
  if (flags.list) return { action: "list", ...base };
  const text = (name: string) => flags[name] === undefined ? undefined : String(flags[name]);
  const seed = numberOf(flags, "seed");
  const request: CliRequest = {
    ...base,
    action: "run",
    ...pickWorkloads(text("workload"), workloadFiles(args).length > 0, workloads),
    runtimes: text("runtime") === undefined
      ? defaultRuntimeNames()
      : parseRuntimeSpecs(text("runtime")!).map((s) => s.requested),
    variants: text("variant")?.split(",").map((s) => s.trim()).filter(Boolean),
    profile: (text("profile") ?? "quick") as Profile,
    settings: settingsOf(flags),
    options: Object.fromEntries(optionFlags.filter((n) => flags[n] !== undefined).map((n) => [n, text(n)!])),
    loadGenerator: text("load-generator") ?? "auto",
    out: text("out"),
    format: text("format") === undefined ? undefined : parseFormat(text("format")!),
    json: flags.json === true,
    quiet: flags.quiet === true,
    resume: text("resume"),
    port: numberOf(flags, "port"),
    host: text("host"),
    order: text("order") as RunOrder | undefined,
    seed,
    hosts: hostsFlags(flags),
    last: numberFlag(flags, "last", { integer: true, min: 1, max: 10 }),
    history: text("history"),
    failOnRegression: numberFlag(flags, "fail-on-regression", { min: 0 }),
    ...(text("noise-floor") !== undefined ? { noiseFloor: text("noise-floor") } : {}),
    ...(flags.aa === true ? { aa: true } : {}),
    ...(text("pairing") !== undefined ? { pairing: text("pairing") } : {}),
    ...(text("pass-env") !== undefined ? { passEnv: text("pass-env")!.split(",").map((s) => s.trim()) } : {}),
    given: givenFlags(args),
    workloadFiles: workloadFiles(args),
  };
  checkOutputs(request);
  checkOptionFlags(request.workloads, request.options, workloads);
  return request;
}

/**
 * The workloads a command line runs: those `--workload` names; without it, those of `--workload-file` alone (the
 * suite's are not added to them); without either, the whole suite.
 */
function pickWorkloads(
  named: string | undefined,
  files: boolean,
  workloads: readonly Workload[],
): Pick<CliRequest, "workloads" | "wholeSuite"> {
  if (named !== undefined) return { workloads: selectWorkloads(named, workloads) };
  const fromFiles = files ? workloads.filter((w) => !builtinWorkloads.includes(w)) : [];
  return fromFiles.length > 0 ? { workloads: fromFiles } : { workloads: [...workloads], wholeSuite: true };
}

/** A workload's option given when no selected workload takes it would be ignored without a word: refused. */
function checkOptionFlags(
  picked: readonly Workload[],
  options: Readonly<Record<string, string>>,
  all: readonly Workload[],
) {
  for (const name of Object.keys(options)) {
    if (picked.some((w) => w.options?.some((o) => o.name === name))) continue;
    const owners = all.filter((w) => w.options?.some((o) => o.name === name)).map((w) => w.name);
    const which = owners.length === 1 ? `only ${owners[0]} takes it` : `only ${owners.join(", ")} take it`;
    throw new UsageError(`--${name}: ${which}, and ${owners.length === 1 ? "it is not" : "none of them is"} selected`);
  }
}

/** A flag's value as a number, undefined when absent; what is not a number is refused naming the flag. */
function numberOf(flags: Flags, name: string, expected = "a number"): number | undefined {
  const raw = flags[name];
  if (raw === undefined) return undefined;
  const n = typeof raw === "string" && raw.trim() !== "" ? Number(raw) : NaN;
  if (!Number.isFinite(n)) throw new UsageError(`--${name} must be ${expected}, got "${raw}"`);
  return n;
}

/** The settings the flags give, typed; their ranges and combinations are `run()`'s validator's to check. */
function settingsOf(flags: Flags): Partial<RunSettings> {
  const settings: Record<string, unknown> = {};
  for (const [key, flag] of Object.entries(SETTING_FLAGS)) {
    const name = flag!.slice(2);
    const raw = flags[name];
    if (raw === undefined || raw === false) continue;
    if (key === "phases" || key === "arrival") settings[key] = String(raw);
    else if (key === "sweep") settings[key] = true;
    else if (key === "keepAlive") settings[key] = raw === "on" ? true : raw === "off" ? false : String(raw);
    else if (key === "serverCpus" && raw === "all") settings[key] = "all";
    else settings[key] = numberOf(flags, name, key === "serverCpus" ? "a whole number of CPUs or all" : "a number");
  }
  return settings as Partial<RunSettings>;
}

/** The flags only the command line has, checked together: outputs, history, --last, --resume. */
function checkOutputs(r: CliRequest): void {
  const { format, out } = r;
  if (r.failOnRegression !== undefined && r.history === undefined) {
    throw new UsageError("--fail-on-regression needs --history <dir>, the results to compare against");
  }
  if (r.noiseFloor !== undefined && r.failOnRegression === undefined) {
    throw new UsageError("--noise-floor needs --fail-on-regression, the comparison it applies to");
  }
  if (r.last !== undefined && r.resume !== undefined) {
    throw new UsageError("--last: with --resume, the runtimes come from the result file");
  }
  if (format !== undefined && format !== "json" && out !== undefined && resultPathFor(out) === out) {
    throw new UsageError(`--out: ${out} would be both the ${format} report and the result file; name it .${format}`);
  }
  if (r.json && format !== undefined && format !== "json" && out === undefined) {
    throw new UsageError(`--format ${format} and --json both print to stdout; give the report a file with --out`);
  }
  if (r.resume !== undefined && out !== undefined && (format === undefined || format === "json")) {
    throw new UsageError(`--out: with --resume, results go to ${r.resume}; --out may only name a --format report`);
  }
}

/** `--server-host`, `--client-host`, `--db-host` and `--ssh-config` (each host is checked by `run()`'s validator). */
function hostsFlags(flags: Flags): HostsOption | undefined {
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

/**
 * Options of {@linkcode main}.
 *
 * @example Stop a CLI run from the calling program
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { main, type MainOptions } from "./bench.ts";
 *
 * const options: MainOptions = { signal: AbortSignal.abort() };
 * assertEquals(await main(["--help"], options), 0);
 * ```
 */
export interface MainOptions {
  /** Interrupts the suite: running processes are stopped, finished runs stay in the result file. */
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
 * import { main } from "./bench.ts";
 *
 * assertEquals(await main(["--profile", "fast"]), 2);
 * ```
 */
export async function main(args: string[], options: MainOptions = {}): Promise<number> {
  const signal = options.signal ?? new AbortController().signal;
  try {
    let prepared;
    try {
      const known = await knownWorkloads(args);
      const request = parseCli(args, known);
      if (request.action === "help") console.log(helpText(known));
      if (request.action === "version") console.log(`rtbench ${VERSION}`);
      if (request.action === "list") console.log(await listText(known));
      if (request.action !== "run") return 0;
      prepared = await prepare(request, known);
    } catch (error) {
      const flagged = withFlagNames(error);
      if (!(flagged instanceof UsageError || flagged instanceof RangeError)) throw error;
      console.error(`rtbench: ${flagged.message}`);
      if (args.includes("--debug")) console.error(flagged.stack);
      return 2;
    }
    return await measure(prepared, signal);
  } finally {
    // Folders made for output (results/) are removed again if the suite was refused before writing into them.
    await removeEmptyFolders();
  }
}

/**
 * Runs `bench` with `args` as a program, through the one lifecycle of a
 * command that starts processes (`runEntry`): prints, and exits with its code.
 *
 * @example
 * ```ts ignore
 * import { entry } from "./bench.ts";
 * await entry(Deno.args);
 * ```
 */
export function entry(args: string[]): Promise<never> {
  return runEntry("rtbench", args, ({ signal }) => main(args, { signal }));
}

if (import.meta.main) await entry(Deno.args);
