/**
 * Timers that run a process repeatedly and time each run from spawn to exit:
 * `wait4` (a small Python helper that reads each child's CPU time and peak
 * RSS, as hyperfine does) and `spawn` (Deno alone: wall time only).
 *
 * @module
 */

import type { ProcessCommand, ProcessPlan, ProcessRun } from "../../workloads/types.ts";
import { runCommand, spawnGroup, which } from "../platform/process.ts";
import { WAIT4_PROBE_PY, WAIT4_TIMER_PY } from "./_wait4.ts";

/** What one call of {@linkcode ProcessTimer.time} runs. */
export interface TimerRequest {
  /** The process. */
  readonly command: ProcessCommand;
  /** Warm-ups, minimum runs, minimum time. */
  readonly plan: ProcessPlan;
  /** CPU list the process is pinned to, or null. */
  readonly cpus: string | null;
  /** A directory the timer may write scratch files to. */
  readonly scratchDir: string;
  /** Runs stop after the first run that exits with another code. @default {0} */
  readonly expectExitCode?: number;
  /** Stops the runs. */
  readonly signal?: AbortSignal;
}

/** Runs and times a process. */
export interface ProcessTimer {
  /** `wait4` or `spawn`. */
  readonly name: string;
  /** How it measures, for records. */
  readonly description: string;
  /** Whether it reads user and system CPU time and peak RSS. */
  readonly rusage: boolean;
  /** Runs the warm-ups, then the measured runs; stops early after an unexpected exit code. */
  time(request: TimerRequest): Promise<ProcessRun[]>;
}

/** Bytes of a run's stdout kept for checks. */
const KEEP_STDOUT = 4096;
/** Measured runs when the plan sets no maximum. */
export const DEFAULT_MAX_RUNS = 1000;

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

/**
 * The `wait4` timer: Python's `os.posix_spawnp` and `os.wait4` around each
 * run, with the loop inside one Python process. Pinning is applied to the
 * timer itself (children inherit it), so no `taskset` sits in the timed span.
 *
 * @example
 * ```ts ignore
 * import { wait4Timer } from "./process_timer.ts";
 * const runs = await wait4Timer("python3").time({
 *   command: { argv: ["true"], cwd: "/tmp" },
 *   plan: { warmupRuns: 1, minRuns: 5, minDurationMs: 0 },
 *   cpus: null,
 *   scratchDir: "/tmp",
 * });
 * console.log(runs.length); // 6
 * ```
 */
export function wait4Timer(python: string): ProcessTimer {
  return {
    name: "wait4",
    description: "python3 os.posix_spawnp + os.wait4: monotonic clock around spawn and reap; rusage of the child",
    rusage: true,
    async time(request: TimerRequest): Promise<ProcessRun[]> {
      const { plan } = request;
      const input = {
        argv: request.command.argv,
        cpus: cpuList(request.cpus),
        outDir: request.scratchDir,
        warmupRuns: plan.warmupRuns,
        minRuns: plan.minRuns,
        minNs: Math.round(plan.minDurationMs * 1e6),
        maxRuns: plan.maxRuns ?? DEFAULT_MAX_RUNS,
        expectExit: request.expectExitCode ?? 0,
        keepBytes: KEEP_STDOUT,
        timeoutSec: (plan.runTimeoutMs ?? 0) / 1000,
      };
      const group = spawnGroup([python, "-I", "-c", WAIT4_TIMER_PY], {
        cwd: request.command.cwd,
        env: { ...request.command.env },
        stdin: JSON.stringify(input),
        keepBytes: 64 * 1024 * 1024,
        signal: request.signal,
      });
      try {
        const status = await group.finished();
        request.signal?.throwIfAborted();
        if (!status.success) {
          const why = group.stderr().trim().split("\n").at(-1) ?? "";
          throw new Error(`The wait4 timer failed with exit code ${status.code}${why ? `: ${why}` : ""}`);
        }
        return group.stdout().split("\n").filter((l) => l.trim()).map((line) => {
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
        });
      } finally {
        await group.stop();
        await Deno.remove(`${request.scratchDir}/.rtbench-stdout`).catch(() => {});
        await Deno.remove(`${request.scratchDir}/.rtbench-stderr`).catch(() => {});
      }
    },
  };
}

/**
 * The `spawn` timer: Deno spawns each run and reads the clock around spawn
 * and exit. No CPU time or peak RSS (Deno cannot read a child's rusage); a
 * pinned run includes `taskset`'s own exec in its wall time.
 *
 * @example
 * ```ts ignore
 * import { spawnTimer } from "./process_timer.ts";
 * const [run] = await spawnTimer.time({
 *   command: { argv: ["true"], cwd: "/tmp" },
 *   plan: { warmupRuns: 0, minRuns: 1, minDurationMs: 0 },
 *   cpus: null,
 *   scratchDir: "/tmp",
 * });
 * console.log(run.userMs); // null
 * ```
 */
export const spawnTimer: ProcessTimer = {
  name: "spawn",
  description: "Deno.Command: performance.now() around spawn and exit; no rusage",
  rusage: false,
  async time(request: TimerRequest): Promise<ProcessRun[]> {
    const { plan, command } = request;
    const expect = request.expectExitCode ?? 0;
    const runs: ProcessRun[] = [];
    const once = async (index: number, warmup: boolean): Promise<ProcessRun> => {
      request.signal?.throwIfAborted();
      const t0 = performance.now();
      const group = spawnGroup([...command.argv], {
        cwd: command.cwd,
        env: { ...command.env },
        cpus: request.cpus,
        keepBytes: KEEP_STDOUT,
        signal: request.signal,
      });
      let timedOut = false;
      const timer = plan.runTimeoutMs === undefined ? undefined : setTimeout(() => {
        timedOut = true;
        void group.stop(0);
      }, plan.runTimeoutMs);
      try {
        const status = await group.exited;
        const wallMs = performance.now() - t0;
        clearTimeout(timer);
        await group.finished();
        request.signal?.throwIfAborted();
        const run: ProcessRun = {
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
        runs.push(run);
        return run;
      } finally {
        clearTimeout(timer);
        await group.stop();
      }
    };
    for (let i = 0; i < plan.warmupRuns; i++) {
      if ((await once(i, true)).exitCode !== expect) return runs;
    }
    let total = 0;
    const max = plan.maxRuns ?? DEFAULT_MAX_RUNS;
    for (let n = 0; n < max && (n < plan.minRuns || total < plan.minDurationMs); n++) {
      const run = await once(n, false);
      total += run.wallMs;
      if (run.exitCode !== expect) break;
    }
    return runs;
  },
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
      (await runCommand([python, "-I", "-c", WAIT4_PROBE_PY], { timeoutMs: 30_000 })).success;
    if (usable) return wait4Timer(python!);
    if (forced === "wait4") throw new Error("RTBENCH_TIMER=wait4, but no python3 ≥ 3.8 with os.wait4 is on PATH");
    return spawnTimer;
  })();
  return chosen;
}
