/**
 * The micro kind runner: runs a workload's tinybench script inside the
 * runtime, one fresh process per run, checks the task's sample output, and
 * maps tinybench's latency and throughput statistics into the run's figures.
 *
 * @module
 */

import { type Check, isSkip, type MicroReport, type MicroWorkload } from "../../workloads/mod.ts";
import { runCommand, stageServer } from "../platform/mod.ts";
import type { RecordContext, RecordOutcome } from "./record.ts";
import { inPhase, keepChecks, PhaseError, SkipRecord } from "./errors.ts";
import type { Kind, RunOutput } from "./kind.ts";
import { microEstimateSec } from "./estimate.ts";
import { round } from "../stats/mod.ts";

const NUMBER_FIELDS = ["opsPerCall", "sink", "timeMs", "warmupTimeMs"] as const;

/** Parses the last stdout line of a micro script; throws naming what is missing. */
export function parseMicroReport(stdout: string): MicroReport {
  const line = stdout.trim().split("\n").at(-1) ?? "";
  let report: MicroReport;
  try {
    report = JSON.parse(line);
  } catch {
    throw new Error(`The benchmark script printed no JSON report (last line: ${JSON.stringify(line.slice(0, 200))})`);
  }
  for (const key of NUMBER_FIELDS) {
    if (typeof report[key] !== "number") throw new Error(`The benchmark report has no number "${key}"`);
  }
  if (typeof report.latencyMs?.mean !== "number" || typeof report.throughput?.mean !== "number") {
    throw new Error("The benchmark report has no latency or throughput statistics");
  }
  return report;
}

/**
 * Figures of one run: per operation throughput, per call latency (ns) and tinybench's margins of error.
 *
 * Throughput is operations ÷ time (samples over their summed latency), not tinybench's `throughput.mean`: that is the
 * mean of 1/latency, which a runtime's own spread (a GC pause among fast calls) pushes up, enough to change a ranking.
 */
export function microFigures(report: MicroReport): Record<string, number> {
  const ns = (ms: number) => round(ms * 1e6, 1);
  const callsPerSecond = 1000 / report.latencyMs.mean;
  return {
    opsPerSecond: round(callsPerSecond * report.opsPerCall, 1),
    callsPerSecond: round(callsPerSecond, 1),
    callLatencyMeanNs: ns(report.latencyMs.mean),
    callLatencyP50Ns: ns(report.latencyMs.p50),
    callLatencyP99Ns: ns(report.latencyMs.p99),
    latencyRmePercent: round(report.latencyMs.rme),
    throughputRmePercent: round(report.throughput.rme),
    samples: report.latencyMs.samples,
  };
}

/** One micro record: the staged script, the command that runs it and its environment. */
interface MicroState {
  readonly ctx: RecordContext<MicroWorkload>;
  readonly outcome: RecordOutcome;
  readonly command: string[];
  readonly env: Record<string, string>;
  readonly timeoutMs: number;
}

async function open(ctx: RecordContext<MicroWorkload>, outcome: RecordOutcome): Promise<MicroState> {
  const source = ctx.workload.script(ctx.runtime.name, ctx.variant);
  if (isSkip(source)) throw new SkipRecord(source.skip);
  // A native baseline runs the servers it builds, not scripts or commands written for JavaScript runtimes.
  if (ctx.runtime.adapter.baseline) {
    throw new SkipRecord(`${ctx.runtime.name} is a native baseline: it runs servers only`);
  }
  outcome.headline = microKind.headline(ctx.workload, ctx.settings);
  outcome.cpus = { server: ctx.cpus.server, client: null };
  const file = await inPhase("setup", async () => {
    const beside = [...source.beside ?? [], ...ctx.workload.assets ?? []];
    return await stageServer(source.entry, ctx.workDir, ctx.nodeModules, { ...source, beside });
  });
  const command = ctx.runtime.adapter.command(ctx.runtime.binary, file, source.args);
  outcome.command = command;
  const timeMs = Math.round(ctx.settings.durationSec * 1000);
  const warmupTimeMs = Math.round(ctx.settings.warmupSec * 1000);
  const env = {
    RTBENCH_TASK: ctx.variant,
    RTBENCH_TIME_MS: String(timeMs),
    RTBENCH_WARMUP_MS: String(warmupTimeMs),
    NO_COLOR: "1",
  };
  // tinybench stops a task after its time budget once it has 64 samples; a bcrypt-like
  // task can take longer, so allow generous headroom before calling the run stuck.
  const timeoutMs = ctx.settings.startTimeoutSec * 1000 + 20 * (timeMs + warmupTimeMs);
  return { ctx, outcome, command, env, timeoutMs };
}

/** One run: a fresh process runs the tinybench script; its report is checked and mapped to figures. */
async function runOnce(state: MicroState, run: number): Promise<RunOutput> {
  const { ctx, outcome, command, env, timeoutMs } = state;
  ctx.onPhase?.("measure", run);
  const startedAt = new Date().toISOString();
  const out = await inPhase(
    "measure",
    () =>
      runCommand(command, {
        cwd: ctx.workDir,
        env,
        cpus: ctx.cpus.server,
        timeoutMs,
        signal: ctx.signal,
        role: "timed process",
      }),
  );
  ctx.signal.throwIfAborted();
  if (!out.success) {
    const why = out.timedOut
      ? `timed out after ${timeoutMs / 1000} s`
      : `exited with code ${out.code}: ${out.stderr.trim().split("\n").at(-1)?.slice(0, 300) ?? ""}`;
    throw new PhaseError("measure", `The benchmark script ${why}`);
  }
  const report = await inPhase("measure", () => Promise.resolve(parseMicroReport(out.stdout)));
  const checks: Check[] = [
    { name: "task", passed: report.task === ctx.variant, expected: ctx.variant, actual: report.task },
    { name: "self-check", passed: report.selfCheck === true, expected: true, actual: report.selfCheck },
    ...await inPhase("verify", () => Promise.resolve(ctx.workload.verify(report, ctx))),
  ];
  keepChecks(outcome, checks, run === 0, "verify", (failures) => `run ${run + 1}: ${failures}`);
  Object.assign(outcome.facts, {
    timer: report.timer,
    detectedResolutionNs: report.detectedResolutionMs === null ? null : round(report.detectedResolutionMs * 1e6, 1),
    opsPerCall: report.opsPerCall,
    tinybenchTimeMs: report.timeMs,
    tinybenchWarmupTimeMs: report.warmupTimeMs,
    tinybenchRuntime: `${report.runtime} ${report.runtimeVersion}`,
  });
  return {
    run: {
      index: run,
      startedAt,
      figures: microFigures(report),
      counts: { errors: 0, timeouts: 0, non2xx: 0, mismatches: 0 },
      latencyUs: null,
      latencyHistogram: null,
    },
  };
}

/**
 * The micro kind: each run a fresh process of the runtime runs the
 * workload's tinybench script; the task's sample output is checked and
 * tinybench's statistics become the run's figures.
 *
 * @example Wire it into the run loop
 * ```ts ignore
 * import { RecordRun } from "./loop.ts";
 * import { microKind } from "./micro.ts";
 * const record = new RecordRun(microKind, ctx, outcome);
 * ```
 */
export const microKind: Kind<MicroWorkload, MicroState> = {
  name: "micro",
  requires: ["script", "verify"],
  headline: () => ({ figure: "opsPerSecond", higherIsBetter: true }),
  estimateSec: microEstimateSec,
  open,
  run: runOnce,
};
