/**
 * The process kind runner: hyperfine-style timing of whole processes from
 * spawn to exit. Warm-ups, then at least the plan's runs and time; every run
 * (warm-ups included) is checked; outliers are reported, never dropped; the
 * timer's own cost per spawn is measured and recorded beside the figures.
 *
 * @module
 */

import type { Check, ProcessRun, ProcessTarget, ProcessWorkload } from "../../workloads/types.ts";
import { isSkip } from "../../workloads/types.ts";
import { which } from "../platform/process.ts";
import { defaultTimer, type ProcessTimer, type TimerRequest } from "../drivers/process_timer.ts";
import type { RecordContext, RecordOutcome } from "./record.ts";
import { describeFailures, inPhase, InvalidError, PhaseError, SkipRecord } from "./errors.ts";
import type { RunRecord } from "../schema/result.ts";
import { median } from "../stats/summary.ts";
import { OUTLIER_Z, outlierIndices } from "../stats/outliers.ts";
import { DEFAULT_RUN_TIMEOUT_SEC, hookTimeouts, withinTime } from "./timeouts.ts";
import { round } from "../stats/round.ts";

/** Modified Z-score above which a run is reported as an outlier (Iglewicz and Hoaglin). */

/** The timer's cost per spawn: the same timer and pinning on `true`, a process that does nothing. */
async function spawnOverheadMs(
  timer: ProcessTimer,
  ctx: RecordContext<ProcessWorkload>,
): Promise<number | null> {
  const noop = which("true");
  if (!noop) return null;
  const runs = await timer.time({
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

/**
 * Measures one process record. Fills `outcome` as it goes; throws
 * {@linkcode PhaseError} or {@linkcode InvalidError} naming the phase.
 */
export async function runProcessRecord(ctx: RecordContext<ProcessWorkload>, outcome: RecordOutcome): Promise<void> {
  outcome.headline = { ...ctx.workload.headline };
  outcome.cpus = { server: ctx.cpus.server, client: null };
  ctx.onPhase?.("setup", 0);
  const prepared = await withinTime(
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
        nodeModules: ctx.nodeModules,
      }),
  );
  if (isSkip(prepared)) throw new SkipRecord(prepared.skip);
  // A run without a limit of its own gets the default one: a process that never exits must not hang the suite.
  const target: ProcessTarget = prepared.plan.runTimeoutMs === undefined
    ? { ...prepared, plan: { ...prepared.plan, runTimeoutMs: DEFAULT_RUN_TIMEOUT_SEC * 1000 } }
    : prepared;
  try {
    await measure(ctx, target, outcome);
  } finally {
    if (target.dispose) {
      await withinTime("cleanup", "dispose", hookTimeouts(ctx.hookTimeoutsSec).dispose, () => target.dispose!());
    }
  }
}

async function measure(ctx: RecordContext<ProcessWorkload>, target: ProcessTarget, outcome: RecordOutcome) {
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

  const startedAt = new Date().toISOString();
  const timed: { run: ProcessRun; startedAt: string; figures: Record<string, number> }[] = [];
  let inspected = 0;
  const inspect = async (run: ProcessRun) => {
    const phase = run.warmup ? "verify" : "measure";
    if (run.timedOut) {
      throw new PhaseError(
        run.warmup ? "warmup" : "measure",
        `${run.warmup ? "warm-up" : "measured"} run ${run.index + 1} took longer than ${
          (target.plan.runTimeoutMs ?? 0) / 1000
        } s and was stopped`,
      );
    }
    const result = await withinTime(
      phase,
      "inspect",
      hookTimeouts(ctx.hookTimeoutsSec).afterRun,
      () => Promise.resolve(target.inspect(run)),
    );
    const checks = [exitCheck(run), ...result.checks];
    const failed = checks.filter((c) => !c.passed);
    if (inspected++ === 0) outcome.checks.push(...checks);
    else outcome.checks.push(...failed);
    if (failed.length > 0) {
      const which = `${run.warmup ? "warm-up" : "measured"} run ${run.index + 1}`;
      const stderr = lastLine(run.stderr);
      throw new InvalidError(phase, `${which}: ${describeFailures(failed)}${stderr ? ` (stderr: ${stderr})` : ""}`);
    }
    return result.figures ?? {};
  };
  const keep = async (run: ProcessRun, at: string) => {
    const extra = await inspect(run);
    if (run.warmup) return;
    const figures: Record<string, number> = { wallMs: round(run.wallMs) };
    if (run.userMs !== null) figures.userMs = round(run.userMs);
    if (run.systemMs !== null) figures.systemMs = round(run.systemMs);
    if (run.maxRssBytes !== null) figures.maxRssBytes = run.maxRssBytes;
    timed.push({ run, startedAt: at, figures: { ...figures, ...extra } });
  };
  const base: TimerRequest = {
    command: target.command,
    plan: target.plan,
    cpus: ctx.cpus.server,
    scratchDir: ctx.workDir,
    signal: ctx.signal,
  };

  if (target.beforeRun) {
    // One run per timer call, so the workload can reset state between runs.
    const plan = target.plan;
    const max = plan.maxRuns ?? 1000;
    for (let i = 0; i < plan.warmupRuns; i++) {
      ctx.onPhase?.("warmup", i);
      await withinTime(
        "warmup",
        "beforeRun",
        hookTimeouts(ctx.hookTimeoutsSec).beforeRun,
        () => target.beforeRun!({ index: i, warmup: true }),
      );
      const [run] = await inPhase("warmup", () => timeOne(timer, base));
      await keep({ ...run, index: i, warmup: true }, new Date().toISOString());
    }
    let total = 0;
    for (let n = 0; n < max && (n < plan.minRuns || total < plan.minDurationMs); n++) {
      ctx.onPhase?.("measure", n);
      await withinTime(
        "measure",
        "beforeRun",
        hookTimeouts(ctx.hookTimeoutsSec).beforeRun,
        () => target.beforeRun!({ index: n, warmup: false }),
      );
      const at = new Date().toISOString();
      const [run] = await inPhase("measure", () => timeOne(timer, base));
      total += run.wallMs;
      await keep({ ...run, index: n }, at);
    }
  } else {
    ctx.onPhase?.(target.plan.warmupRuns > 0 ? "warmup" : "measure", 0);
    const runs = await inPhase("measure", () => timer.time(base));
    for (const run of runs) await keep(run, startedAt);
  }
  if (timed.length === 0) throw new PhaseError("measure", "No measured run");

  outcome.runs.push(...timed.map(({ run, startedAt, figures }): RunRecord => ({
    index: run.index,
    startedAt,
    figures,
    counts: { errors: 0, timeouts: 0, non2xx: 0, mismatches: 0 },
    latencyUs: null,
    latencyHistogram: null,
  })));
  outcome.facts.measuredRuns = timed.length;
  const figure = timed.every((t) => outcome.headline.figure in t.figures) ? outcome.headline.figure : "wallMs";
  const values = timed.map((t) => t.figures[figure]);
  const outliers = outlierIndices(values);
  outcome.facts.outlierRuns = outliers.length;
  if (outliers.length > 0) {
    const shown = outliers.slice(0, 5).map((i) => `run ${i + 1}: ${values[i].toFixed(2)}`).join(", ");
    outcome.warnings.push({
      code: "outliers",
      message: `${outliers.length} of ${values.length} measured runs are outliers in ${figure} ` +
        `(modified Z-score > ${OUTLIER_Z}; ${shown}${outliers.length > 5 ? ", ..." : ""}); ` +
        "kept in the figures: other load on the machine, or caches, may have interfered",
    });
  }
}

async function timeOne(timer: ProcessTimer, base: TimerRequest) {
  const runs = await timer.time({
    ...base,
    plan: { warmupRuns: 0, minRuns: 1, minDurationMs: 0, maxRuns: 1, runTimeoutMs: base.plan.runTimeoutMs },
  });
  if (runs.length !== 1) throw new Error(`The ${timer.name} timer returned ${runs.length} runs instead of 1`);
  return runs;
}
