// The one set of test helpers: run the CLI and every other deno task as a user would, private temporary directories
// removed whatever happens, environment changes undone, and the checks that nothing was left running or on disk.
import { assertEquals } from "@std/assert";
import { GROUP_PREFIX } from "../runners/drivers/cpu_meter.ts";
import { laneEnv, takeLane } from "./_lanes.ts";
import { SETTING_FLAGS } from "../runners/cli/_flag_names.ts";
import type { RunSettings } from "../runners/schema/mod.ts";

/** The repository root. */
export const ROOT: string = new URL("..", import.meta.url).pathname;

/** Permissions the bench task runs with, read from deno.json so tests run the CLI exactly as users do. */
export const BENCH_PERMISSIONS: string[] = JSON.parse(Deno.readTextFileSync(`${ROOT}deno.json`)).tasks.bench
  .split(" ").filter((a: string) => a.startsWith("--allow-"));

/** Output of a finished CLI run. */
export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * What a suite a test runs leaves out unless the test asks for it: http-json's and ws-echo's fixed-rate window and
 * idle connections (their defaults, seconds and CPU-seconds a record). tests/_suite.ts applies it to settings,
 * {@linkcode benchArgs} to the CLI's flags.
 */
export const UNASKED: Readonly<Partial<RunSettings>> = { cpuRate: 0, idleConnections: 0 };

/**
 * The bench command's arguments as the tests give them: {@linkcode UNASKED}'s flags first, but for those a test names,
 * and none where it continues a file (`--resume` takes them from it).
 */
export function benchArgs(args: readonly string[]): string[] {
  const named = (flag: string) => args.some((a) => a === flag || a.startsWith(`${flag}=`));
  if (named("--resume")) return [...args];
  const flags = Object.entries(UNASKED).map(([key, value]) => [SETTING_FLAGS[key as keyof RunSettings]!, `${value}`]);
  return [...flags.filter(([flag]) => !named(flag)).flat(), ...args];
}

/** Starts the CLI (as `deno task bench` does) with its own TMPDIR; returns the child. */
export function spawnCli(args: string[], env: Record<string, string> = {}): Deno.ChildProcess {
  return new Deno.Command(Deno.execPath(), {
    args: ["run", ...BENCH_PERMISSIONS, `${ROOT}runners/cli/main.ts`, "bench", ...benchArgs(args)],
    cwd: ROOT,
    env: { NO_COLOR: "1", ...env },
    stdout: "piped",
    stderr: "piped",
    stdin: "null",
  }).spawn();
}

/** Runs the CLI to completion, as `deno task bench` does. */
export function runCli(args: string[], env: Record<string, string> = {}): Promise<CliRun> {
  return runTask("bench", args, { env });
}

/**
 * The CPU meters' control groups this test file's harness made and left (their names start with its module
 * instance's `GROUP_PREFIX`; other files running beside it in this process make groups of their own).
 */
export async function leftMeterGroups(): Promise<string[]> {
  const out = await new Deno.Command("sh", {
    args: ["-c", `ls -d /sys/fs/cgroup/*/${GROUP_PREFIX}* /sys/fs/cgroup/${GROUP_PREFIX}* 2>/dev/null`],
    stdout: "piped",
  }).output();
  return new TextDecoder().decode(out.stdout).split("\n").filter(Boolean);
}

/** Live (non-zombie) processes whose command line contains `marker`, excluding this test process. */
export async function processesMatching(marker: string): Promise<string[]> {
  const out = await new Deno.Command("ps", { args: ["-eo", "pid=,stat=,args="], stdout: "piped" }).output();
  return new TextDecoder().decode(out.stdout).split("\n").filter((line) => {
    const [pid, stat] = line.trim().split(/\s+/);
    return line.includes(marker) && !stat?.startsWith("Z") && Number(pid) !== Deno.pid;
  });
}

/**
 * Live processes started with `TMPDIR=<tmp>` in their environment: every process rtbench starts for a run inherits it
 * (not its children reaper, which serves the whole process), so this finds what a run under `privateTmp()` left,
 * including processes whose command lines do not name the directory (a measured `node -e`).
 */
export async function processesWithTmpdir(tmp: string): Promise<string[]> {
  const out = await new Deno.Command("ps", { args: ["-ww", "-eo", "pid=,stat=,args=", "e"], stdout: "piped" }).output();
  return new TextDecoder().decode(out.stdout).split("\n").filter((line) => {
    const [pid, stat] = line.trim().split(/\s+/);
    return (line.includes(`TMPDIR=${tmp} `) || line.endsWith(`TMPDIR=${tmp}`)) && !stat?.startsWith("Z") &&
      Number(pid) !== Deno.pid;
  }).map((line) => line.slice(0, 400));
}

/** Polls `fn` every 50 ms until it returns true or `ms` pass. */
export async function waitFor(fn: () => boolean | Promise<boolean>, ms: number): Promise<boolean> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (await fn()) return true;
    await new Promise((r) => setTimeout(r, 50));
  }
  return false;
}

/** A fresh private directory used as TMPDIR, so leftovers are attributable to one test. */
export async function privateTmp(): Promise<string> {
  return await Deno.makeTempDir({ prefix: "rtbench-test-" });
}

/** Whether `path` is there, a link counted as itself (never followed); an error other than its absence throws. */
export async function exists(path: string): Promise<boolean> {
  try {
    await Deno.lstat(path);
    return true;
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return false;
    throw error;
  }
}

/** Entries left in a directory. */
export async function entries(dir: string): Promise<string[]> {
  const names: string[] = [];
  for await (const e of Deno.readDir(dir)) names.push(e.name);
  return names;
}

/** How a task or the CLI is run: extra environment, working directory. */
export interface RunOptions {
  /** Variables added to the child's environment (`NO_COLOR=1` is always set). */
  env?: Record<string, string>;
  /** Working directory. @default {ROOT} */
  cwd?: string;
}

/** deno.json's tasks, by name: the command each runs. */
export async function denoTasks(): Promise<Record<string, string>> {
  return JSON.parse(await Deno.readTextFile(`${ROOT}deno.json`)).tasks;
}

/**
 * Runs a deno task's program with the task's own permissions from deno.json, as `deno task <name>` does, with
 * `args` after the task's own (for `bench`, as {@linkcode benchArgs} gives them); the child's environment is this
 * process's plus `env`.
 */
export async function runTask(
  name: string,
  args: string[],
  options: RunOptions | Record<string, string> = {},
): Promise<CliRun> {
  const words = (await denoTasks())[name].split(" ");
  const program = words.findIndex((w) => w.endsWith(".ts"));
  const permissions = words.slice(0, program).filter((w) => w.startsWith("--allow-"));
  const given = name === "bench" ? benchArgs(args) : args;
  return await runProgram(permissions, words[program], [...words.slice(program + 1), ...given], options);
}

/** The development tools of `runners/dev/` by the names {@linkcode runDevTool} takes (`vs-wrk` for `vs_wrk.ts`). */
export async function devTools(): Promise<string[]> {
  const names: string[] = [];
  for await (const entry of Deno.readDir(`${ROOT}runners/dev`)) {
    if (entry.isFile && /^[a-z]\w*\.ts$/.test(entry.name) && !entry.name.endsWith("_test.ts")) {
      names.push(entry.name.slice(0, -3).replaceAll("_", "-"));
    }
  }
  return names.sort();
}

/**
 * Runs a development tool as docs/development.md shows it, `deno run -A runners/dev/<tool>.ts` (`vs-wrk` names
 * `vs_wrk.ts`), with `args`; the child's environment is this process's plus `env`.
 */
export async function runDevTool(
  name: string,
  args: string[],
  options: RunOptions | Record<string, string> = {},
): Promise<CliRun> {
  return await runProgram(["--allow-all"], `runners/dev/${name.replaceAll("-", "_")}.ts`, args, options);
}

/** Runs `program` (a path under the repository) with `permissions` and `args`, from {@linkcode ROOT} by default. */
async function runProgram(
  permissions: string[],
  program: string,
  args: string[],
  options: RunOptions | Record<string, string>,
): Promise<CliRun> {
  // An object without `env` or `cwd` is the environment itself (the older form of these helpers).
  if (!("env" in options) && !("cwd" in options)) options = { env: options as Record<string, string> };
  const { env, cwd } = options as RunOptions;
  const lane = await takeLane();
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", `--config=${ROOT}deno.json`, ...permissions, `${ROOT}${program}`, ...args],
    cwd: cwd ?? ROOT,
    env: { NO_COLOR: "1", ...laneEnv(lane, args), ...env },
    stdout: "piped",
    stderr: "piped",
    stdin: "null",
  }).output().finally(() => lane.release());
  const dec = new TextDecoder();
  return { code: out.code, stdout: dec.decode(out.stdout), stderr: dec.decode(out.stderr) };
}

/** A private TMPDIR the embedded PostgreSQL (run as the user postgres when rtbench runs as root) can enter. */
export async function databaseTmp(): Promise<string> {
  const tmp = await privateTmp();
  if (Deno.uid() === 0) await Deno.chmod(tmp, 0o711);
  return tmp;
}

/**
 * Runs `fn` with a fresh private directory (see {@linkcode privateTmp}; for the embedded PostgreSQL with
 * `database`), and removes the directory afterwards, whether `fn` passed or failed.
 */
export async function withTmp<T>(fn: (tmp: string) => Promise<T>, options: { database?: boolean } = {}): Promise<T> {
  const tmp = options.database ? await databaseTmp() : await privateTmp();
  try {
    return await fn(tmp);
  } finally {
    await Deno.remove(tmp, { recursive: true });
  }
}

/**
 * Runs `fn` with `vars` set in this process's environment (undefined: unset), and restores every one when `fn`
 * returns, throws, or (when it returns a promise) settles.
 */
export function withEnv<T>(vars: Record<string, string | undefined>, fn: () => T): T {
  const saved = Object.fromEntries(Object.keys(vars).map((k) => [k, Deno.env.get(k)]));
  const apply = (values: Record<string, string | undefined>) => {
    for (const [k, v] of Object.entries(values)) v === undefined ? Deno.env.delete(k) : Deno.env.set(k, v);
  };
  let result: T;
  try {
    apply(vars);
    result = fn();
  } catch (error) {
    apply(saved);
    throw error;
  }
  if (result instanceof Promise) return result.finally(() => apply(saved)) as T;
  apply(saved);
  return result;
}

/**
 * Nothing a run in `tmp` started is still running (no process naming the directory, none started with it as
 * TMPDIR; a process on its way out gets 3 s), and the directory holds exactly `kept` (the files the test asked for).
 */
export async function assertNothingLeft(tmp: string, kept: readonly string[] = []): Promise<void> {
  const running = async () => [...await processesMatching(tmp), ...await processesWithTmpdir(tmp)];
  await waitFor(async () => (await running()).length === 0, 3000);
  assertEquals([...new Set(await running())], [], "no server, load generator or database left running");
  assertEquals((await entries(tmp)).sort(), [...kept].sort(), "nothing but the results left in the directory");
}
