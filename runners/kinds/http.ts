/**
 * The HTTP kind runner: for each run a fresh pinned server, one verified
 * exchange per distinct request, warm-up and measurement by the load
 * generator, then side-effect checks with the server stopped.
 *
 * @module
 */

import type {
  Check,
  HttpExchange,
  HttpTraffic,
  HttpWorkload,
  VerifyContext,
  WorkloadContext,
} from "../../workloads/types.ts";
import { isSkip } from "../../workloads/types.ts";
import { checkExchange } from "../../workloads/checks.ts";
import { exchange } from "../drivers/exchange.ts";
import type { RecordContext, RecordOutcome } from "./record.ts";
import { describeFailures, inPhase, InvalidError, PhaseError, SkipRecord } from "./errors.ts";
import { ciWarning, needsAnotherRun, runPlan } from "../stats/adaptive.ts";
import { clientBoundWarning, type Saturation, saturation } from "../stats/saturation.ts";
import { pickLoadGenerator } from "../drivers/generators.ts";
import { type ResourceReport, startSampler } from "../drivers/resources.ts";
import { combineSummaries } from "../stats/resources.ts";
import type { RunRecord } from "../schema/result.ts";
import { serverExited, startRecordServer } from "./server.ts";
import { afterServerRun, beforeServerRun } from "./run_hooks.ts";
import { hookTimeouts, withinTime } from "./timeouts.ts";
import type { LoadMeasurement } from "../drivers/types.ts";
import { stageServer } from "../platform/workspace.ts";

/** Sends one request and reads the whole response. */

/** Checks one exchange against its request's expectation: status, content-type, content-length and body. */

const VERIFIED_REQUESTS = 3;

/** The measured window in epoch milliseconds, for lining resource samples up with it. */
function windowOf(m: LoadMeasurement): { fromMs: number; toMs: number } {
  const fromMs = m.windowStartMs ?? Date.now() - m.durationMs;
  return { fromMs, toMs: fromMs + m.durationMs };
}

async function verify(
  ctx: RecordContext<HttpWorkload>,
  baseUrl: string,
  traffic: HttpTraffic,
): Promise<[Check[], number]> {
  const timeoutMs = ctx.settings.requestTimeoutSec * 1000;
  const exchanges: HttpExchange[] = [];
  for (const request of traffic.requests.slice(0, VERIFIED_REQUESTS)) {
    exchanges.push(await exchange(baseUrl, request, timeoutMs, ctx.signal));
  }
  const checks = exchanges.flatMap(checkExchange);
  let sent = exchanges.length;
  const verifyContext: VerifyContext = {
    variant: ctx.variant,
    options: ctx.options,
    settings: ctx.settings,
    tempDir: ctx.tempDir,
    signal: ctx.signal,
    runtime: ctx.runtime.name,
    baseUrl,
    exchanges,
    send: (request) => {
      sent++;
      return exchange(baseUrl, request, timeoutMs, ctx.signal);
    },
  };
  // Each request the hooks send has --timeout; the hooks as a whole get a limit too.
  const budgetSec = hookTimeouts(ctx.hookTimeoutsSec).verify + ctx.settings.requestTimeoutSec;
  if (ctx.workload.verify) {
    checks.push(
      ...await withinTime("verify", "the workload's verify", budgetSec, () => ctx.workload.verify!(verifyContext)),
    );
  }
  if (ctx.session.verify) {
    checks.push(
      ...await withinTime("verify", "the session's verify", budgetSec, () => ctx.session.verify!(verifyContext)),
    );
  }
  return [checks, sent];
}

function runRecord(
  index: number,
  startedAt: string,
  m: LoadMeasurement,
  workload: HttpWorkload,
  ctx: WorkloadContext,
  resources?: ResourceReport,
): RunRecord {
  const figures: Record<string, number> = {
    requestsPerSecond: m.requestsPerSecond,
    bytesPerSecond: m.bytesPerSecond,
    validResponses: m.validResponses,
    durationMs: m.durationMs,
  };
  const sampled = resources?.summary;
  // The sampler watches every generator the same way; a generator's own figure is the fallback.
  const clientCpu = sampled?.client?.cpuPercent.mean ?? m.clientCpuPercent;
  if (clientCpu !== null) figures.clientCpuPercent = clientCpu;
  if (sampled?.server) {
    figures.serverCpuPercent = sampled.server.cpuPercent.mean;
    figures.serverRssPeakBytes = sampled.server.rssBytes.peak;
  }
  if (sampled?.samplerCpuPercent != null) figures.samplerCpuPercent = sampled.samplerCpuPercent;
  for (const [name, value] of Object.entries(workload.figures?.({ ...figures }, ctx) ?? {})) {
    if (!(name in figures) && Number.isFinite(value)) figures[name] = value;
  }
  return {
    index,
    startedAt,
    figures,
    counts: { errors: m.errors, timeouts: m.timeouts, non2xx: m.non2xx, mismatches: m.mismatches },
    latencyUs: m.latencyUs,
    latencyHistogram: m.latencyHistogram,
    resources: resources?.series ?? null,
  };
}

/** The error for a server that exited while `during` (its exit code and its last lines of output). */

/**
 * Measures one HTTP record. Fills `outcome` as it goes, so that on failure the
 * caller still has every finished run; throws {@linkcode PhaseError} or
 * {@linkcode InvalidError} naming the phase.
 */
export async function runHttpRecord(ctx: RecordContext<HttpWorkload>, outcome: RecordOutcome): Promise<void> {
  const source = ctx.workload.server(ctx.runtime.name, ctx.variant);
  if (isSkip(source)) throw new SkipRecord(source.skip);
  Object.assign(outcome.facts, source.facts);
  const file = await inPhase("setup", () => stageServer(source.entry, ctx.workDir, ctx.nodeModules));
  outcome.headline = { figure: "requestsPerSecond", higherIsBetter: true };
  outcome.cpus = ctx.cpus;
  const traffic = ctx.workload.traffic(ctx);
  if (traffic.requests.length === 0) throw new PhaseError("setup", `${ctx.workload.name} has no requests to send`);
  const choice = ctx.loadGenerators ?? { requested: ctx.loadGenerator.name, candidates: [ctx.loadGenerator] };
  const { generator, selectedBy } = await inPhase(
    "setup",
    () => Promise.resolve(pickLoadGenerator(choice, { baseUrl: "", requests: traffic.requests }, ctx.settings)),
  );
  outcome.loadGenerator = {
    name: generator.name,
    version: await generator.version(),
    latencyResolution: "us",
    ...(generator.verifies ? { verifies: generator.verifies } : {}),
    selectedBy,
  };
  const plan = runPlan(ctx.settings);
  const headlines: number[] = [];
  const saturations: (Saturation | null)[] = [];
  const sampled: ResourceReport[] = [];
  const judge = () => {
    outcome.resources = combineSummaries(sampled.map((r) => r.summary));
    outcome.warnings = outcome.warnings.filter((w) => w.code !== "client-bound");
    const warning = clientBoundWarning(saturations, generator.name, ctx.cpus);
    if (warning) outcome.warnings.push(warning);
  };

  for (let run = 0; needsAnotherRun(plan, headlines); run++) {
    ctx.onPhase?.("start", run);
    await beforeServerRun(ctx, run);
    const server = await startRecordServer(ctx, file, source.args);
    outcome.command = [...server.command];
    let measurement: LoadMeasurement;
    let resources: ResourceReport | undefined;
    let verifyRequests: number;
    const startedAt = new Date().toISOString();
    try {
      ctx.onPhase?.("verify", run);
      const [checks, sent] = await inPhase("verify", () => verify(ctx, server.baseUrl, traffic)).catch((error) => {
        throw server.group.status ? serverExited(server, "verify", "verification") : error;
      });
      verifyRequests = sent;
      if (run === 0) outcome.checks.push(...checks);
      if (checks.some((c) => !c.passed)) {
        if (run > 0) outcome.checks.push(...checks.filter((c) => !c.passed));
        throw new InvalidError("verify", describeFailures(checks));
      }
      ctx.onPhase?.(ctx.settings.warmupSec > 0 ? "warmup" : "measure", run);
      const sampler = startSampler({
        intervalMs: ctx.settings.sampleIntervalMs,
        roots: { server: [server.group.pid] },
        cpus: ctx.cpus.client,
      });
      let measured: LoadMeasurement | undefined;
      // When the server dies under load, its exit (not the generator's complaint about it) is the reason, in the
      // phase it died in: the warm-up when it exited before warm-up seconds had passed since the generator started.
      const loadStart = Date.now();
      let exitedAt = Infinity;
      server.group.exited.then(() => exitedAt = Date.now());
      const crashed = () => {
        const phase = exitedAt - loadStart < ctx.settings.warmupSec * 1000 ? "warmup" : "measure";
        return serverExited(server, phase, phase === "warmup" ? "the warm-up" : "the measurement");
      };
      try {
        measured = await inPhase(
          "measure",
          () =>
            generator.run({ baseUrl: server.baseUrl, requests: traffic.requests }, ctx.settings, {
              cpus: ctx.cpus.client,
              signal: ctx.signal,
              onSpawn: (pid) => sampler.addRoot("client", pid),
            }),
        ).catch((error) => {
          throw server.group.status ? crashed() : error;
        });
      } finally {
        // Stopped on every path: its helper is a process of its own.
        const report = await sampler.stop(measured && windowOf(measured));
        if (measured) resources = report;
      }
      measurement = measured;
      if (server.group.status) throw crashed();
    } finally {
      await server.stop();
    }
    if (measurement.mismatches > 0 || measurement.non2xx > 0) {
      outcome.runs.push(runRecord(run, startedAt, measurement, ctx.workload, ctx, resources));
      throw new InvalidError(
        "measure",
        `${measurement.mismatches} mismatched and ${measurement.non2xx} non-2xx responses under load` +
          (measurement.firstMismatch ? ` (first: ${measurement.firstMismatch})` : ""),
      );
    }
    if (measurement.validResponses === 0) {
      throw new PhaseError(
        "measure",
        `No valid response in ${ctx.settings.durationSec} s (${measurement.errors} errors)`,
      );
    }
    if (measurement.errors > 0) {
      outcome.warnings.push({
        code: "request-errors",
        message: `run ${
          run + 1
        }: ${measurement.errors} connection errors (${measurement.timeouts} timeouts), not counted as samples`,
      });
    }
    outcome.runs.push(runRecord(run, startedAt, measurement, ctx.workload, ctx, resources));
    headlines.push(measurement.requestsPerSecond);
    if (resources) {
      sampled.push(resources);
      saturations.push(saturation(resources.summary, ctx.cpus));
    }
    judge();
    await afterServerRun(ctx, outcome, run, {
      validResponses: measurement.validResponses,
      totalResponses: verifyRequests + measurement.warmupResponses + measurement.responses,
    });
  }
  const wide = ciWarning(plan, headlines, "requestsPerSecond");
  if (wide) outcome.warnings.push(wide);
}
