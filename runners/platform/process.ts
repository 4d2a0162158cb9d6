/**
 * Child processes in their own process group, so that stopping one stops
 * everything it started, each from an environment rtbench builds
 * (`child_env.ts`) rather than its own, each recorded in the process's ledger
 * (`ledger.ts`) until it is stopped. Every process rtbench spawns goes through
 * here.
 *
 * @module
 */

import { AsyncLocalStorage } from "node:async_hooks";
import { buildChildEnv, type EnvPurpose, harnessEnv } from "./child_env.ts";
import { recordOwned } from "./ledger.ts";

const decoder = new TextDecoder();

/** Options for {@linkcode spawnGroup}. */
export interface SpawnOptions {
  /**
   * The variables rtbench sets for this process. They come on top of the few the child takes from rtbench's
   * own environment (see `child_env.ts`); nothing else of that environment reaches it.
   */
  env?: Record<string, string>;
  /** What the process is for, which decides what it takes from rtbench's environment. @default {"runtime"} */
  purpose?: EnvPurpose;
  /** What it is in a record's list of processes (`server`, `load engine`). @default {its program's name} */
  role?: string;
  /** The program it stands for in that list, when not its own (a timer that runs it). @default {argv[0]} */
  program?: string;
  /** Whether it is listed among a record's processes; a transport (the local `ssh`) is not. @default {true} */
  listed?: boolean;
  /** Working directory. */
  cwd?: string;
  /** CPU list for `taskset -c`, or null for no pinning. */
  cpus?: string | null;
  /** Text written to the child's stdin, which is then closed. */
  stdin?: string;
  /** Bytes of stdout and stderr kept (the tail). @default {65536} */
  keepBytes?: number;
  /** Stops the group when aborted. */
  signal?: AbortSignal;
  /** Keeps stdin open for {@linkcode ProcessGroup.write} (a driven helper such as the resource sampler). */
  interactive?: boolean;
  /** Receives stdout as it arrives (the tail is kept as well). */
  onStdout?(chunk: Uint8Array): void;
  /** Receives stderr as it arrives (the tail is kept as well). */
  onStderr?(chunk: Uint8Array): void;
  /** Called once the child exists, with its pid (also its process group id). */
  onSpawn?(pid: number): void;
}

/** Keeps the last `limit` bytes written to it. */
class Tail {
  #chunks: Uint8Array[] = [];
  #size = 0;
  constructor(readonly limit: number) {}
  push(chunk: Uint8Array): void {
    this.#chunks.push(chunk);
    this.#size += chunk.length;
    while (this.#size > this.limit && this.#chunks.length > 1) {
      this.#size -= this.#chunks.shift()!.length;
    }
  }
  text(): string {
    const all = new Uint8Array(this.#size);
    let offset = 0;
    for (const c of this.#chunks) {
      all.set(c, offset);
      offset += c.length;
    }
    const start = Math.max(0, all.length - this.limit);
    return decoder.decode(all.subarray(start));
  }
}

const live = new Set<ProcessGroup>();

/** A process started, as a record lists it: its role, program, where it ran, and every variable it got. */
export interface SpawnNotice {
  /** What it is (`server`, `load engine`, `timed process`). */
  readonly role: string;
  /** The program's file name (`node`). */
  readonly program: string;
  /** The machine it ran on, when not this one. */
  readonly host?: string;
  /** Every variable it got, values as they are. */
  readonly env: Readonly<Record<string, string>>;
}

/** What processes started within {@linkcode withChildEnv} get and tell. */
interface ChildEnvScope {
  /** Names the user kept with `--pass-env`. */
  readonly pass: readonly string[];
  /** Told of every process started. */
  readonly notice?: (spawn: SpawnNotice) => void;
}

const scope = new AsyncLocalStorage<ChildEnvScope>();

/**
 * Runs `fn` so that every process it starts, however deep, keeps the `pass` names of rtbench's environment
 * (`--pass-env`) and is reported to `notice`. Unset fields are taken from an enclosing call; scopes of calls
 * running side by side do not mix.
 *
 * @example Collect what each process got
 * ```ts ignore
 * import { runCommand, withChildEnv } from "./process.ts";
 * const seen: string[] = [];
 * await withChildEnv({ notice: (s) => seen.push(s.program) }, () => runCommand(["true"]));
 * console.log(seen); // ["true"]
 * ```
 */
export function withChildEnv<T>(
  settings: { readonly pass?: readonly string[]; readonly notice?: (spawn: SpawnNotice) => void },
  fn: () => T,
): T {
  const outer = scope.getStore();
  return scope.run({ pass: settings.pass ?? outer?.pass ?? [], notice: settings.notice ?? outer?.notice }, fn);
}

/** The names `--pass-env` keeps in the current scope. */
export function passedNames(): readonly string[] {
  return scope.getStore()?.pass ?? [];
}

/**
 * `env` less the names `--pass-env` keeps from rtbench's environment where that sets them: the user's value stands
 * over a workload's own (`--pass-env NODE_ENV` over the framework servers' `NODE_ENV=production`).
 *
 * @example Without --pass-env, the workload's value
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { yieldToPassed } from "./process.ts";
 * assertEquals(yieldToPassed({ NODE_ENV: "production" }), { NODE_ENV: "production" });
 * ```
 */
export function yieldToPassed(env: Readonly<Record<string, string>> = {}): Record<string, string> {
  const own = harnessEnv();
  const kept = passedNames().filter((name) => own[name] !== undefined);
  return Object.fromEntries(Object.entries(env).filter(([name]) => !kept.includes(name)));
}

/** The current scope's listener, to report a process started elsewhere later (a remote one), or undefined. */
export function spawnListener(): ((spawn: SpawnNotice) => void) | undefined {
  return scope.getStore()?.notice;
}

/** The environment a child for `purpose` gets: see `buildChildEnv`, with the scope's `--pass-env` names. */
export function childEnv(
  own: Record<string, string> | undefined,
  purpose: EnvPurpose = "runtime",
): Record<string, string> {
  return buildChildEnv(harnessEnv(), own, purpose, passedNames());
}

function fileName(path: string): string {
  return path.slice(path.lastIndexOf("/") + 1);
}

const REAPER = new URL("./_reaper_child.ts", import.meta.url);

/**
 * Starts its arguments in the background in a session of their own (`setsid`, where it exists), their output to
 * /dev/null, prints their pid and exits: what it started is no child of this process.
 */
const SCRIPT = `command -v setsid >/dev/null && set -- setsid "$@"; "$@" </dev/null >/dev/null 2>&1 & echo $!`;

/**
 * Starts a children reaper (`_reaper_child.ts`, see `reaper.ts`) watching process `harness` and its ledger `ledger`.
 * A shell starts it and exits, so this process holds no handle, pipe or pending operation of it; nothing waits for
 * its runtime to load (a harness gone by then is gone when it first looks). Most code wants `startReaper`.
 *
 * @param harness The process watched.
 * @param ledger Its ledger file (`ledger.ts`).
 * @returns The reaper's pid, or null where it could not be started.
 *
 * @example A reaper for a stand-in process
 * ```ts ignore
 * import { launchReaper } from "./process.ts";
 * const stand = new Deno.Command("sleep", { args: ["60"] }).spawn();
 * await launchReaper(stand.pid, "/tmp/ledger"); // stand.kill() → the reaper stops what /tmp/ledger owns
 * ```
 */
export async function launchReaper(harness: number, ledger: string): Promise<number | null> {
  if (Deno.build.os === "windows") return null;
  const shell = ["sh", "-c", SCRIPT];
  const reaper = [
    Deno.execPath(),
    "run",
    "--no-config",
    "--quiet",
    "--allow-all",
    REAPER.href,
    String(harness),
    ledger,
  ];
  // It serves the process, not one run: it keeps no run's TMPDIR (a program may change TMPDIR between runs).
  const { TMPDIR: _, ...env } = childEnv(undefined, "harness");
  const out = await new Deno.Command(shell[0], {
    args: [...shell.slice(1), "rtbench-reaper", ...reaper],
    clearEnv: true,
    env,
    stdin: "null",
    stdout: "piped",
    stderr: "null",
    // A session of its own for the shell, so that the reaper is never in this process's group, not even before setsid.
    detached: true,
  }).output().catch(() => null);
  const pid = Number(out ? decoder.decode(out.stdout).trim() : NaN);
  return Number.isInteger(pid) && pid > 0 ? pid : null;
}

/** A spawned child that leads its own process group. */
export class ProcessGroup {
  /** Process id, also the process group id. */
  readonly pid: number;
  /** The argv actually executed (after pinning). */
  readonly argv: readonly string[];
  /** Every environment variable it was started with. */
  readonly env: Readonly<Record<string, string>>;
  /** Resolves when the group leader exits. */
  readonly exited: Promise<Deno.CommandStatus>;
  #stdout: Tail;
  #stderr: Tail;
  #drained: Promise<unknown>;
  #status: Deno.CommandStatus | undefined;
  #stdin: WritableStreamDefaultWriter<Uint8Array> | undefined;

  /** Spawns `argv` as the leader of a new process group (use {@linkcode spawnGroup}). */
  constructor(argv: string[], options: SpawnOptions) {
    const keep = options.keepBytes ?? 65536;
    this.#stdout = new Tail(keep);
    this.#stderr = new Tail(keep);
    const env = childEnv(options.env, options.purpose);
    const child = new Deno.Command(argv[0], {
      args: argv.slice(1),
      clearEnv: true,
      env,
      cwd: options.cwd,
      stdin: options.stdin === undefined && !options.interactive ? "null" : "piped",
      stdout: "piped",
      stderr: "piped",
      // A new session makes the child a group leader: killing -pid reaches its descendants.
      detached: true,
    }).spawn();
    this.pid = child.pid;
    this.argv = argv;
    this.env = env;
    live.add(this);
    recordOwned({ group: this.pid });
    if (options.interactive) {
      this.#stdin = child.stdin.getWriter();
      if (options.stdin !== undefined) this.write(options.stdin);
    } else if (options.stdin !== undefined) {
      const writer = child.stdin.getWriter();
      writer.write(new TextEncoder().encode(options.stdin))
        .then(() => writer.close())
        .catch(() => {/* the child exited before reading; its status tells why */});
    }
    this.#drained = Promise.all([
      pump(child.stdout, this.#stdout, options.onStdout),
      pump(child.stderr, this.#stderr, options.onStderr),
    ]);
    this.exited = child.status.then((status) => {
      this.#status = status;
      return status;
    });
    const signal = options.signal;
    if (signal) {
      const onAbort = () => void this.stop();
      signal.addEventListener("abort", onAbort, { once: true });
      this.exited.finally(() => signal.removeEventListener("abort", onAbort));
    }
  }

  /** Exit status once the leader has exited, else undefined. */
  get status(): Deno.CommandStatus | undefined {
    return this.#status;
  }

  /** Writes to the stdin of an `interactive` child; ignored once it has exited. */
  write(text: string): void {
    this.#stdin?.write(new TextEncoder().encode(text)).catch(() => {/* the child has exited; its status tells why */});
  }

  /** The kept tail of stdout. */
  stdout(): string {
    return this.#stdout.text();
  }

  /** The kept tail of stderr. */
  stderr(): string {
    return this.#stderr.text();
  }

  /** Waits for exit and for both output streams to be read to their end. */
  async finished(): Promise<Deno.CommandStatus> {
    const status = await this.exited;
    await this.#drained;
    return status;
  }

  /**
   * Stops the whole group: SIGTERM, then SIGKILL after `graceMs`. Resolves when
   * the leader has exited; descendants are signalled with it.
   */
  async stop(graceMs = 1000): Promise<void> {
    if (this.#stdin) {
      const writer = this.#stdin;
      this.#stdin = undefined;
      writer.close().catch(() => {/* already closed by the child's exit */});
    }
    if (this.#status === undefined) {
      signalGroup(this.pid, "SIGTERM");
      const timer = new Promise<"timeout">((r) => {
        const id = setTimeout(() => r("timeout"), graceMs);
        this.exited.finally(() => clearTimeout(id));
      });
      if (await Promise.race([this.exited, timer]) === "timeout") {
        signalGroup(this.pid, "SIGKILL");
        await this.exited;
      }
    }
    // The leader may be gone while a descendant that ignored SIGTERM lives on.
    signalGroup(this.pid, "SIGKILL");
    if (live.delete(this)) recordOwned({ released: this.pid });
  }
}

function signalGroup(pgid: number, signal: Deno.Signal): void {
  try {
    Deno.kill(-pgid, signal);
  } catch {
    // ESRCH: the group is already empty.
  }
}

async function pump(
  stream: ReadableStream<Uint8Array>,
  tail: Tail,
  listener?: (chunk: Uint8Array) => void,
): Promise<void> {
  try {
    for await (const chunk of stream) {
      tail.push(chunk);
      listener?.(chunk);
    }
  } catch {
    // The stream breaks when the process is killed; what was read is kept.
  }
}

let tasksetPath: string | null | undefined;

/** Whether `taskset` can pin processes on this machine (Linux with util-linux). */
export function canPin(): boolean {
  if (tasksetPath === undefined) tasksetPath = Deno.build.os === "linux" ? which("taskset") : null;
  return tasksetPath !== null;
}

/** Finds an executable on `PATH`, or null. */
export function which(name: string): string | null {
  const path = Deno.env.get("PATH") ?? "";
  for (const dir of path.split(":")) {
    if (!dir) continue;
    const candidate = `${dir}/${name}`;
    try {
      const info = Deno.statSync(candidate);
      if (info.isFile && (info.mode ?? 0o111) & 0o111) return candidate;
    } catch {
      // not in this directory
    }
  }
  return null;
}

/** Spawns `argv` as the leader of a new process group, pinned to `cpus` when given. */
export function spawnGroup(argv: string[], options: SpawnOptions = {}): ProcessGroup {
  const pinned = options.cpus && canPin() ? ["taskset", "-c", options.cpus, ...argv] : argv;
  const group = new ProcessGroup(pinned, options);
  const program = fileName(options.program ?? argv[0]);
  if (options.listed !== false) spawnListener()?.({ role: options.role ?? program, program, env: group.env });
  options.onSpawn?.(group.pid);
  return group;
}

/** Result of {@linkcode runCommand}. */
export interface CommandOutput {
  /** Exit code (128 + signal number when killed). */
  code: number;
  /** Whether the exit code was 0. */
  success: boolean;
  /** Captured stdout (tail). */
  stdout: string;
  /** Captured stderr (tail). */
  stderr: string;
  /** Whether the command was stopped because it ran out of time. */
  timedOut: boolean;
}

/** Runs a command to completion in its own group; it is stopped after `timeoutMs`. */
export async function runCommand(
  argv: string[],
  options: SpawnOptions & { timeoutMs?: number } = {},
): Promise<CommandOutput> {
  const group = spawnGroup(argv, options);
  let timedOut = false;
  const timer = options.timeoutMs === undefined ? undefined : setTimeout(() => {
    timedOut = true;
    void group.stop();
  }, options.timeoutMs);
  try {
    const status = await group.finished();
    return {
      code: status.code,
      success: status.success && !timedOut,
      stdout: group.stdout(),
      stderr: group.stderr(),
      timedOut,
    };
  } finally {
    clearTimeout(timer);
    await group.stop();
  }
}

/** Stops every process group still running; used when the harness is interrupted. */
export async function stopAllGroups(): Promise<void> {
  await Promise.all([...live].map((g) => g.stop(500)));
}

/** Sends SIGKILL to every process group still running, at once; for a last-moment exit that cannot wait. */
export function killAllGroups(): void {
  for (const group of live) signalGroup(group.pid, "SIGKILL");
}

/** Process ids of groups rtbench has started and not yet stopped. */
export function liveGroupPids(): number[] {
  return [...live].map((g) => g.pid);
}

/**
 * Runs a measuring tool (a load generator, a driver) to completion and returns
 * its stdout. A failure becomes one message naming the tool and why: its last
 * output lines, its exit code, or the time budget it overran. An abort is
 * rethrown as the abort.
 */
export async function runTool(
  name: string,
  argv: string[],
  options: SpawnOptions & { timeoutMs: number },
): Promise<string> {
  const out = await runCommand(argv, options);
  options.signal?.throwIfAborted();
  if (!out.success) {
    const why = out.timedOut
      ? `did not finish within ${options.timeoutMs / 1000} s`
      : (out.stderr + out.stdout).trim().split("\n").slice(-3).join(" ") || `exit code ${out.code}`;
    throw new Error(`${name} failed: ${why}`);
  }
  return out.stdout;
}

/** Parses the JSON object a tool printed (from its first `{`), or throws naming the tool and what it printed. */
export function toolJson<T>(name: string, stdout: string): T {
  try {
    return JSON.parse(stdout.slice(stdout.indexOf("{"))) as T;
  } catch {
    throw new Error(`${name} printed no result: ${stdout.trim().slice(-200) || "(nothing)"}`);
  }
}
