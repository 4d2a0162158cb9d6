// Shared test helpers: run the CLI as a user would, and look for processes left behind.

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

/** Starts the CLI (as `deno task bench` does) with its own TMPDIR; returns the child. */
export function spawnCli(args: string[], env: Record<string, string> = {}): Deno.ChildProcess {
  return new Deno.Command(Deno.execPath(), {
    args: ["run", ...BENCH_PERMISSIONS, `${ROOT}runners/cli/bench.ts`, ...args],
    cwd: ROOT,
    env: { NO_COLOR: "1", ...env },
    stdout: "piped",
    stderr: "piped",
    stdin: "null",
  }).spawn();
}

/** Runs the CLI to completion. */
export async function runCli(args: string[], env: Record<string, string> = {}): Promise<CliRun> {
  const out = await spawnCli(args, env).output();
  const dec = new TextDecoder();
  return { code: out.code, stdout: dec.decode(out.stdout), stderr: dec.decode(out.stderr) };
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
 * Live processes started with `TMPDIR=<tmp>` in their environment: every process rtbench starts inherits it, so
 * this finds what a run under `privateTmp()` left, including processes whose command lines do not name the
 * directory (a measured `node -e`, the children reaper).
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

/** Entries left in a directory. */
export async function entries(dir: string): Promise<string[]> {
  const names: string[] = [];
  for await (const e of Deno.readDir(dir)) names.push(e.name);
  return names;
}

/** Runs a deno task's program with the task's own permissions from deno.json, as `deno task <name>` does. */
export async function runTask(name: string, args: string[], env: Record<string, string> = {}): Promise<CliRun> {
  const tasks: Record<string, string> = JSON.parse(await Deno.readTextFile(`${ROOT}deno.json`)).tasks;
  const words = tasks[name].split(" ");
  const out = await new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      ...words.filter((w) => w.startsWith("--allow-")),
      `${ROOT}${words.find((w) => w.endsWith(".ts"))}`,
      ...args,
    ],
    cwd: ROOT,
    env: { NO_COLOR: "1", ...env },
    stdout: "piped",
    stderr: "piped",
    stdin: "null",
  }).output();
  const dec = new TextDecoder();
  return { code: out.code, stdout: dec.decode(out.stdout), stderr: dec.decode(out.stderr) };
}
