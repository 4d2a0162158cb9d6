/**
 * The process kind: hyperfine-style timing of whole processes from spawn to
 * exit. Warm-ups, then at least the plan's runs and time; every run (warm-ups
 * included) is checked; outliers are reported, never dropped; the timer's own
 * cost per spawn is measured and recorded beside the figures.
 *
 * @module
 */

import {
  type Check,
  isSkip,
  type ProcessRun,
  type ProcessTarget,
  type ProcessWorkload,
  type Skip,
} from "../../workloads/mod.ts";
import { which } from "../platform/mod.ts";
import { DEFAULT_MAX_RUNS, defaultTimer, type ProcessTimer, type TimerSession, timeRuns } from "../drivers/mod.ts";
import type { Kind, RunOutput } from "./kind.ts";
import { processEstimateSec } from "./estimate.ts";
import type { RecordContext, RecordOutcome } from "./record.ts";
import { inPhase, keepChecks, PhaseError, SkipRecord } from "./errors.ts";
import { median, round } from "../stats/mod.ts";
import { OUTLIER_Z, outlierIndices } from "../samples/mod.ts";
import { DEFAULT_RUN_TIMEOUT_SEC, hookTimeouts, withinTime } from "./timeouts.ts";

/** The timer's cost per spawn: the same timer and pinning on `true`, a process that does nothing. */
async function spawnOverheadMs(
  timer: ProcessTimer,
  ctx: RecordContext<ProcessWorkload>,
): Promise<number | null> {
  const noop = which("true");
  if (!noop) return null;
  const runs = await timeRuns(timer, {
    command: { argv: [noop], cwd: ctx.workDir },
    plan: { warmupRuns: 2, minRuns: 20, minDurationMs: 0, maxRuns: 20 },
    cpus: ctx.cpus.server,
    scratchDir: ctx.workDir,
    signal: ctx.signal,
  });
  const timed = runs.filter((r) => !r.warmup && r.exitCode === 0).map((r) => r.wallMs);
  return timed.length > 0 ? round(median(timed)) : null;
}

function exitCheck(run: ProcessRun): Check {
  return {
    name: "exit code",
    passed: run.exitCode === 0,
    expected: 0,
    actual: run.exitCode ?? `signal ${run.signal}`,
  };
}

function lastLine(text: string): string {
  return text.trim().split("\n").filter((l) => l.trim()).at(-1)?.slice(0, 300) ?? "";
}

/** One process record: the prepared target, its open timer session and the measured time so far. */
interface ProcessState {
  readonly ctx: RecordContext<ProcessWorkload>;
  readonly outcome: RecordOutcome;
  readonly target: ProcessTarget;
  readonly timer: ProcessTimer;
  readonly session: TimerSession;
  /** Checks of the first inspected run are all recorded; of later runs, the failed ones. */
  inspected: number;
  measuredMs: number;
}

function prepare(ctx: RecordContext<ProcessWorkload>): Promise<ProcessTarget | Skip> {
  return withinTime(
    "setup",
    "prepare",
    hookTimeouts(ctx.hookTimeoutsSec).prepare,
    () =>
      ctx.workload.prepare({
        variant: ctx.variant,
        options: ctx.options,
        settings: ctx.settings,
        tempDir: ctx.tempDir,
        signal: ctx.signal,
        runtime: ctx.runtime,
        workDir: ctx.workDir,
        sharedDir: ctx.sharedDir,
        nodeModules: ctx.nodeModules,
      }),
  );
}

async function open(ctx: RecordContext<ProcessWorkload>, outcome: RecordOutcome): Promise<ProcessState> {
  // A native baseline runs the servers it builds, not scripts or commands written for JavaScript runtimes.
  if (ctx.runtime.adapter.baseline) {
    throw new SkipRecord(`${ctx.runtime.name} is a native baseline: it runs servers only`);
  }
  outcome.headline = processKind.headline(ctx.workload, ctx.settings);
  outcome.cpus = { server: ctx.cpus.server, client: null };
  ctx.onPhase?.("setup", 0);
  const prepared = await prepare(ctx);
  if (isSkip(prepared)) throw new SkipRecord(prepared.skip);
  // A run without a limit of its own gets the default one: a process that never exits must not hang the suite.
  const target: ProcessTarget = prepared.plan.runTimeoutMs === undefined
    ? { ...prepared, plan: { ...prepared.plan, runTimeoutMs: DEFAULT_RUN_TIMEOUT_SEC * 1000 } }
    : prepared;
  try {
    const timer = await inPhase("setup", defaultTimer);
    outcome.command = [...target.command.argv];
    Object.assign(outcome.facts, target.facts);
    outcome.facts.timer = timer.name;
    outcome.facts.timerMethod = timer.description;
    outcome.facts.warmupRuns = target.plan.warmupRuns;
    outcome.facts.minRuns = target.plan.minRuns;
    outcome.facts.minDurationMs = target.plan.minDurationMs;
    outcome.facts.spawnOverheadMs = await inPhase("setup", () => spawnOverheadMs(timer, ctx));
    if (!timer.rusage) {
      outcome.warnings.push({
        code: "no-rusage",
        message: "user and system CPU time and peak RSS are null: no python3 with os.wait4 on PATH, " +
          "and Deno cannot read a child's resource usage",
      });
    }
    const session = await inPhase("setup", () =>
      timer.open({
        command: target.command,
        cpus: ctx.cpus.server,
        scratchDir: ctx.workDir,
        runTimeoutMs: target.plan.runTimeoutMs,
        signal: ctx.signal,
      }));
    return { ctx, outcome, target, timer, session, inspected: 0, measuredMs: 0 };
  } catch (error) {
    await disposeTarget(ctx, target);
    throw error;
  }
}

async function disposeTarget(ctx: RecordContext<ProcessWorkload>, target: ProcessTarget): Promise<void> {
  if (target.dispose) {
    await withinTime("cleanup", "dispose", hookTimeouts(ctx.hookTimeoutsSec).dispose, () => target.dispose!());
  }
}

/** Times one run (the target's `beforeRun` first, untimed) and checks it; returns its extra figures. */
async function timeAndInspect(state: ProcessState, index: number, warmup: boolean): Promise<[ProcessRun, Figures]> {
  const { ctx, outcome, target } = state;
  const phase = warmup ? "warmup" : "measure";
  if (target.beforeRun) {
    await withinTime(
      phase,
      "beforeRun",
      hookTimeouts(ctx.hookTimeoutsSec).beforeRun,
      () => target.beforeRun!({ index, warmup }),
    );
  }
  const run = await inPhase(phase, () => state.session.run(index, warmup));
  const which = `${warmup ? "warm-up" : "measured"} run ${index + 1}`;
  if (run.timedOut) {
    throw new PhaseError(
      phase,
      `${which} took longer than ${(target.plan.runTimeoutMs ?? 0) / 1000} s and was stopped`,
    );
  }
  const checkPhase = warmup ? "verify" : "measure";
  const result = await withinTime(
    checkPhase,
    "inspect",
    hookTimeouts(ctx.hookTimeoutsSec).afterRun,
    () => Promise.resolve(target.inspect(run)),
  );
  const stderr = lastLine(run.stderr);
  keepChecks(
    outcome,
    [exitCheck(run), ...result.checks],
    state.inspected++ === 0,
    checkPhase,
    (failures) => `${which}: ${failures}${stderr ? ` (stderr: ${stderr})` : ""}`,
  );
  return [run, result.figures ?? {}];
}

type Figures = Readonly<Record<string, number>>;

/** One measured run; the record's warm-ups come before its first. */
async function runOnce(state: ProcessState, index: number): Promise<RunOutput> {
  const { ctx, target } = state;
  if (index === 0) {
    for (let i = 0; i < target.plan.warmupRuns; i++) {
      ctx.onPhase?.("warmup", i);
      await timeAndInspect(state, i, true);
    }
  }
  ctx.onPhase?.("measure", index);
  const startedAt = new Date().toISOString();
  const [run, extra] = await timeAndInspect(state, index, false);
  state.measuredMs += run.wallMs;
  const figures: Record<string, number> = { wallMs: round(run.wallMs) };
  if (run.userMs !== null) figures.userMs = round(run.userMs);
  if (run.systemMs !== null) figures.systemMs = round(run.systemMs);
  if (run.maxRssBytes !== null) figures.maxRssBytes = run.maxRssBytes;
  return {
    run: {
      index,
      startedAt,
      figures: { ...figures, ...extra },
      counts: { errors: 0, timeouts: 0, non2xx: 0, mismatches: 0 },
      latencyUs: null,
      latencyHistogram: null,
    },
  };
}

/** Outliers of the headline figure (wall time when some run lacks it), reported, never dropped. */
function judge(_state: ProcessState, outcome: RecordOutcome): void {
  const runs = outcome.runs;
  outcome.facts.measuredRuns = runs.length;
  const wanted = outcome.headline.figure;
  const figure = runs.every((r) => wanted in r.figures) ? wanted : "wallMs";
  const values = runs.map((r) => r.figures[figure]);
  const outliers = outlierIndices(values);
  outcome.facts.outlierRuns = outliers.length;
  outcome.warnings = outcome.warnings.filter((w) => w.code !== "outliers");
  if (outliers.length === 0) return;
  const shown = outliers.slice(0, 5).map((i) => `run ${i + 1}: ${values[i].toFixed(2)}`).join(", ");
  outcome.warnings.push({
    code: "outliers",
    message: `${outliers.length} of ${values.length} measured runs are outliers in ${figure} ` +
      `(modified Z-score > ${OUTLIER_Z}; ${shown}${outliers.length > 5 ? ", ..." : ""}); ` +
      "kept in the figures: other load on the machine, or caches, may have interfered",
  });
}

/**
 * The process kind: hyperfine-style timing of whole processes from spawn to
 * exit, one run per step of the run loop, so that the runs of several
 * runtimes interleave. The record's warm-ups come before its first run;
 * without `--min-runs/--max-runs` it runs at least the target's runs and its
 * minimum measured time (at most its maximum runs).
 *
 * @example Wire it into the run loop
 * ```ts ignore
 * import { RecordRun } from "./loop.ts";
 * import { processKind } from "./process.ts";
 * const record = new RecordRun(processKind, ctx, outcome);
 * ```
 */
export const processKind: Kind<ProcessWorkload, ProcessState> = {
  name: "process",
  requires: ["prepare", "headline"],
  headline: (workload) => ({ ...workload.headline }),
  estimateSec: processEstimateSec,
  open,
  run: runOnce,
  plan: (state, fromSettings) =>
    fromSettings.adaptive ? fromSettings : {
      adaptive: false,
      min: state.target.plan.minRuns,
      max: state.target.plan.maxRuns ?? DEFAULT_MAX_RUNS,
      ciTargetPercent: fromSettings.ciTargetPercent,
    },
  wantsMore: (state) => state.measuredMs < state.target.plan.minDurationMs,
  judge,
  async close(state) {
    try {
      await state.session.close();
    } finally {
      await disposeTarget(state.ctx, state.target);
    }
  },
};
