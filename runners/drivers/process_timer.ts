/**
 * Timers that run a process and time each run from spawn to exit: `wait4` (a
 * small Python helper that reads each child's CPU time and peak RSS, as
 * hyperfine does) and `spawn` (Deno alone: wall time only). A timer is opened
 * once per command and then times one run at a time, so the runs of several
 * records can be interleaved; {@linkcode timeRuns} is hyperfine's loop (warm-ups,
 * minimum runs, minimum time) on top of it.
 *
 * @module
 */

import type { ProcessCommand, ProcessPlan, ProcessRun } from "../../workloads/mod.ts";
import { type ProcessGroup, runCommand, spawnGroup, type SpawnOptions, which } from "../platform/mod.ts";
import { WAIT4_PROBE_PY, WAIT4_TIMER_PY } from "./_wait4.ts";

/** What a timer session runs: one command, pinned, with a time limit per run. */
export interface TimerSessionRequest {
  /** The process. */
  readonly command: ProcessCommand;
  /** CPU list the process is pinned to, or null. */
  readonly cpus: string | null;
  /** A directory the timer may write scratch files to. */
  readonly scratchDir: string;
  /** Milliseconds one run may take before it is killed and reported `timedOut`; absent means no limit. */
  readonly runTimeoutMs?: number;
  /** Stops the session. */
  readonly signal?: AbortSignal;
}

/** An open timer: times one run of its command per call, in the order asked. */
export interface TimerSession {
  /** Times one run; `index` and `warmup` are copied into the result. */
  run(index: number, warmup: boolean): Promise<ProcessRun>;
  /** Stops the timer and removes its scratch files. */
  close(): Promise<void>;
}

/** What {@linkcode timeRuns} runs: a session and hyperfine's plan. */
export interface TimerRequest extends Omit<TimerSessionRequest, "runTimeoutMs"> {
  /** Warm-ups, minimum runs, minimum time, and the limit per run. */
  readonly plan: ProcessPlan;
  /** Runs stop after the first run that exits with another code. @default {0} */
  readonly expectExitCode?: number;
}

/** Runs and times a process. */
export interface ProcessTimer {
  /** `wait4` or `spawn`. */
  readonly name: string;
  /** How it measures, for records. */
  readonly description: string;
  /** Whether it reads user and system CPU time and peak RSS. */
  readonly rusage: boolean;
  /** Opens a session for one command. */
  open(request: TimerSessionRequest): Promise<TimerSession>;
  /** Runs the warm-ups, then the measured runs; stops early after an unexpected exit code ({@linkcode timeRuns}). */
  time(request: TimerRequest): Promise<ProcessRun[]>;
}

/** How a timed process is started and listed: an install reaches its registry; the program is the one timed. */
function timedAs(command: ProcessCommand): Pick<SpawnOptions, "purpose" | "role" | "program"> {
  return { purpose: command.registry ? "registry" : "runtime", role: "timed process", program: command.argv[0] };
}

/** Bytes of a run's stdout kept for checks. */
const KEEP_STDOUT = 4096;
/** Measured runs when the plan sets no maximum. */
export const DEFAULT_MAX_RUNS = 1000;

/**
 * hyperfine's loop over a timer session: `plan.warmupRuns` warm-ups, then
 * measured runs until both `plan.minRuns` and `plan.minDurationMs` are
 * reached (at most `plan.maxRuns`); stops after the first run whose exit code
 * is not `expectExitCode`.
 *
 * @param timer The timer.
 * @param request The command, pinning, scratch directory and plan.
 * @returns Every run, warm-ups first.
 *
 * @example Time `true` five times after one warm-up
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { spawnTimer, timeRuns } from "./process_timer.ts";
 *
 * const dir = await Deno.makeTempDir();
 * const runs = await timeRuns(spawnTimer, {
 *   command: { argv: ["true"], cwd: dir },
 *   plan: { warmupRuns: 1, minRuns: 5, minDurationMs: 0 },
 *   cpus: null,
 *   scratchDir: dir,
 * });
 * assertEquals(runs.map((r) => r.warmup), [true, false, false, false, false, false]);
 * await Deno.remove(dir, { recursive: true });
 * ```
 */
export async function timeRuns(timer: ProcessTimer, request: TimerRequest): Promise<ProcessRun[]> {
  const { plan } = request;
  const expect = request.expectExitCode ?? 0;
  const session = await timer.open({ ...request, runTimeoutMs: plan.runTimeoutMs });
  const runs: ProcessRun[] = [];
  try {
    for (let i = 0; i < plan.warmupRuns; i++) {
      const run = await session.run(i, true);
      runs.push(run);
      if (run.exitCode !== expect) return runs;
    }
    let total = 0;
    const max = plan.maxRuns ?? DEFAULT_MAX_RUNS;
    for (let n = 0; n < max && (n < plan.minRuns || total < plan.minDurationMs); n++) {
      const run = await session.run(n, false);
      runs.push(run);
      total += run.wallMs;
      if (run.exitCode !== expect) break;
    }
    return runs;
  } finally {
    await session.close();
  }
}

interface Wait4Line {
  index: number;
  warmup: boolean;
  wallNs: number;
  userUs: number;
  systemUs: number;
  maxRssKiB: number;
  exitCode: number | null;
  signal: number | null;
  timedOut: boolean;
  stdout: string;
  stderr: string;
}

function cpuList(cpus: string | null): number[] | null {
  if (!cpus) return null;
  return cpus.split(",").flatMap((part) => {
    const [a, b] = part.split("-").map(Number);
    return Array.from({ length: (b ?? a) - a + 1 }, (_, i) => a + i);
  });
}

/** The Python side of a wait4 session: one JSON line in per run, one out. */
class Wait4Session implements TimerSession {
  readonly #group: ProcessGroup;
  readonly #scratchDir: string;
  readonly #signal?: AbortSignal;
  #buffer = "";
  #waiting: ((line: string | null) => void)[] = [];
  #lines: string[] = [];

  constructor(python: string, request: TimerSessionRequest) {
    this.#scratchDir = request.scratchDir;
    this.#signal = request.signal;
    const decoder = new TextDecoder();
    // The helper's environment is the timed process's: it hands its own to every run.
    this.#group = spawnGroup([python, "-I", "-c", WAIT4_TIMER_PY], {
      cwd: request.command.cwd,
      env: { ...request.command.env },
      ...timedAs(request.command),
      interactive: true,
      keepBytes: 64 * 1024,
      signal: request.signal,
      onStdout: (chunk) => this.#receive(decoder.decode(chunk, { stream: true })),
    });
    this.#group.exited.then(() => {
      for (const wake of this.#waiting.splice(0)) wake(null);
    });
    this.#group.write(
      JSON.stringify({
        argv: request.command.argv,
        // Exactly what was built for the timed process (Python may add to its own, e.g. coercing a C locale).
        env: this.#group.env,
        cpus: cpuList(request.cpus),
        outDir: request.scratchDir,
        keepBytes: KEEP_STDOUT,
        timeoutSec: (request.runTimeoutMs ?? 0) / 1000,
      }) + "\n",
    );
  }

  #receive(text: string): void {
    this.#buffer += text;
    let newline: number;
    while ((newline = this.#buffer.indexOf("\n")) !== -1) {
      const line = this.#buffer.slice(0, newline);
      this.#buffer = this.#buffer.slice(newline + 1);
      const wake = this.#waiting.shift();
      if (wake) wake(line);
      else this.#lines.push(line);
    }
  }

  #next(): Promise<string | null> {
    const line = this.#lines.shift();
    if (line !== undefined) return Promise.resolve(line);
    if (this.#group.status) return Promise.resolve(null);
    return new Promise((resolve) => this.#waiting.push(resolve));
  }

  async run(index: number, warmup: boolean): Promise<ProcessRun> {
    this.#signal?.throwIfAborted();
    this.#group.write(JSON.stringify({ index, warmup }) + "\n");
    const line = await this.#next();
    this.#signal?.throwIfAborted();
    if (line === null) {
      await this.#group.finished();
      const why = this.#group.stderr().trim().split("\n").at(-1) ?? "";
      throw new Error(`The wait4 timer exited with code ${this.#group.status?.code}${why ? `: ${why}` : ""}`);
    }
    const r = JSON.parse(line) as Wait4Line;
    return {
      index: r.index,
      warmup: r.warmup,
      wallMs: r.wallNs / 1e6,
      userMs: r.userUs / 1000,
      systemMs: r.systemUs / 1000,
      maxRssBytes: r.maxRssKiB * 1024,
      exitCode: r.exitCode,
      signal: r.signal,
      timedOut: r.timedOut,
      stdout: r.stdout,
      stderr: r.stderr,
    };
  }

  async close(): Promise<void> {
    await this.#group.stop();
    await Deno.remove(`${this.#scratchDir}/.rtbench-stdout`).catch(() => {});
    await Deno.remove(`${this.#scratchDir}/.rtbench-stderr`).catch(() => {});
  }
}

/**
 * The `wait4` timer: Python's `os.posix_spawnp` and `os.wait4` around each
 * run, in one Python process per session. Pinning is applied to the timer
 * itself (children inherit it), so no `taskset` sits in the timed span.
 *
 * @example
 * ```ts ignore
 * import { timeRuns, wait4Timer } from "./process_timer.ts";
 * const runs = await timeRuns(wait4Timer("python3"), {
 *   command: { argv: ["true"], cwd: "/tmp" },
 *   plan: { warmupRuns: 1, minRuns: 5, minDurationMs: 0 },
 *   cpus: null,
 *   scratchDir: "/tmp",
 * });
 * console.log(runs.length); // 6
 * ```
 */
export function wait4Timer(python: string): ProcessTimer {
  const timer: ProcessTimer = {
    name: "wait4",
    description: "python3 os.posix_spawnp + os.wait4: monotonic clock around spawn and reap; rusage of the child",
    rusage: true,
    open: (request) => Promise.resolve(new Wait4Session(python, request)),
    time: (request) => timeRuns(timer, request),
  };
  return timer;
}

/**
 * The `spawn` timer: Deno spawns each run and reads the clock around spawn
 * and exit. No CPU time or peak RSS (Deno cannot read a child's rusage); a
 * pinned run includes `taskset`'s own exec in its wall time.
 *
 * @example
 * ```ts ignore
 * import { spawnTimer } from "./process_timer.ts";
 * const session = await spawnTimer.open({ command: { argv: ["true"], cwd: "/tmp" }, cpus: null, scratchDir: "/tmp" });
 * const run = await session.run(0, false);
 * await session.close();
 * console.log(run.userMs); // null
 * ```
 */
export const spawnTimer: ProcessTimer = {
  name: "spawn",
  description: "Deno.Command: performance.now() around spawn and exit; no rusage",
  rusage: false,
  open(request: TimerSessionRequest): Promise<TimerSession> {
    const { command } = request;
    return Promise.resolve({
      async run(index: number, warmup: boolean): Promise<ProcessRun> {
        request.signal?.throwIfAborted();
        const t0 = performance.now();
        const group = spawnGroup([...command.argv], {
          cwd: command.cwd,
          env: { ...command.env },
          ...timedAs(command),
          cpus: request.cpus,
          keepBytes: KEEP_STDOUT,
          signal: request.signal,
        });
        let timedOut = false;
        const timer = request.runTimeoutMs === undefined ? undefined : setTimeout(() => {
          timedOut = true;
          void group.stop(0);
        }, request.runTimeoutMs);
        try {
          const status = await group.exited;
          const wallMs = performance.now() - t0;
          clearTimeout(timer);
          await group.finished();
          request.signal?.throwIfAborted();
          return {
            index,
            warmup,
            wallMs,
            userMs: null,
            systemMs: null,
            maxRssBytes: null,
            exitCode: status.signal ? null : status.code,
            signal: status.signal ? status.code - 128 : null,
            timedOut,
            stdout: group.stdout(),
            stderr: group.stderr(),
          };
        } finally {
          clearTimeout(timer);
          await group.stop();
        }
      },
      close: () => Promise.resolve(),
    });
  },
  time: (request) => timeRuns(spawnTimer, request),
};

let chosen: Promise<ProcessTimer> | undefined;

/**
 * The best timer on this machine: `wait4` when a usable `python3` is on
 * `PATH`, else `spawn`. `RTBENCH_TIMER=spawn` or `=wait4` forces one.
 *
 * @example
 * ```ts ignore
 * import { defaultTimer } from "./process_timer.ts";
 * console.log((await defaultTimer()).name); // "wait4" where python3 is installed
 * ```
 */
export function defaultTimer(): Promise<ProcessTimer> {
  chosen ??= (async () => {
    const forced = Deno.env.get("RTBENCH_TIMER");
    if (forced === "spawn") return spawnTimer;
    const python = which("python3");
    const usable = python !== null &&
      // A check of the machine, made once: not one of the processes of the record that happens to ask first.
      (await runCommand([python, "-I", "-c", WAIT4_PROBE_PY], { timeoutMs: 30_000, listed: false })).success;
    if (usable) return wait4Timer(python!);
    if (forced === "wait4") throw new Error("RTBENCH_TIMER=wait4, but no python3 ≥ 3.8 with os.wait4 is on PATH");
    return spawnTimer;
  })();
  return chosen;
}
