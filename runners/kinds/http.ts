/**
 * The HTTP kind: for each run a fresh pinned server, one verified exchange
 * per distinct request, warm-up and measurement by the load generator, then
 * (in the run loop) side-effect checks with the server stopped.
 *
 * @module
 */

import {
  type Check,
  checkExchange,
  distinctRequests,
  type HttpExchange,
  type HttpRequestSpec,
  type HttpTraffic,
  type HttpWorkload,
  type VerifyContext,
  type WorkloadContext,
} from "../../workloads/mod.ts";
import {
  type CpuReport,
  DEFAULT_SLO_P99_MS,
  DEFAULT_SWEEP_STEPS,
  exchange,
  type LoadGenerator,
  type LoadMeasurement,
  openModelOf,
  pickLoadGenerator,
  type ResourceReport,
} from "../drivers/mod.ts";
import type { HttpRecordContext, RecordContext, RecordOutcome } from "./record.ts";
import type { Headline, RunSettings, SweepStep } from "../schema/mod.ts";
import { kneeOf, type Sweep, sweep } from "./http_sweep.ts";
import { openFigures } from "./open_figures.ts";
import { inPhase, keepChecks, PhaseError } from "./errors.ts";
import type { Kind, RunOutput } from "./kind.ts";
import { checkHttpParity } from "./http_parity.ts";
import { judgeHttpRun } from "./verdict.ts";
import { cpuCount, round, type Saturation } from "../stats/mod.ts";
import { countedRate } from "../samples/mod.ts";
import { underLoad } from "./under_load.ts";
import { multiCoreRun } from "./multicore.ts";
import { type RunningServer, serverExited, type StagedServer, startRecordServer } from "./server.ts";
import { remoteCpus, saturatedHost, startRemoteRecordServer, topologyFacts } from "./remote_server.ts";
import { hookTimeouts, withinTime } from "./timeouts.ts";

import { loadTimeoutSec, longerWindow, timeoutWarning, windowWarning } from "./window_extension.ts";
import { atCpuRate, type AtRate, withEfficiency } from "./cpu_rate.ts";
import { servedKind, servedRunStood, type ServedState } from "./served.ts";
import { type IdleMemory, idleMemory } from "./idle_connections.ts";

/** Requests re-verified on the fresh server of every run after the first, which verified every distinct request. */
const REVERIFIED_REQUESTS = 3;

/** The requests verification sends before run `run`: every distinct one first, then a few to check the new server. */
export function verifiedRequests(traffic: HttpTraffic, run: number): HttpRequestSpec[] {
  const distinct = distinctRequests(traffic.requests).slice(0, traffic.verified);
  return run === 0 ? distinct : distinct.slice(0, REVERIFIED_REQUESTS);
}

/**
 * Checks of the verification exchanges: every check of the first few, then one line for all the others (a record of
 * 256 requests keeps a readable list), with any failure among them listed in full.
 */
function exchangeChecks(exchanges: readonly HttpExchange[]): Check[] {
  const shown = exchanges.slice(0, REVERIFIED_REQUESTS).flatMap(checkExchange);
  const rest = exchanges.slice(REVERIFIED_REQUESTS);
  if (rest.length === 0) return shown;
  const failed = rest.flatMap(checkExchange).filter((c) => !c.passed);
  return [...shown, {
    name: `the other ${rest.length} distinct requests: status, content-type, content-length and body`,
    passed: failed.length === 0,
    expected: `${rest.length} as expected`,
    actual: `${rest.length - new Set(failed.map((c) => c.name.replace(/ \S+$/, ""))).size} as expected`,
  }, ...failed];
}

async function verify(
  ctx: HttpRecordContext,
  baseUrl: string,
  requests: readonly HttpRequestSpec[],
  run: number,
  hooks = true,
): Promise<[Check[], number, number]> {
  const timeoutMs = ctx.settings.requestTimeoutSec * 1000;
  const exchanges: HttpExchange[] = [];
  // The slowest answer to one request alone: what a request costs the server, for the load's timeout.
  let aloneMs = 0;
  for (const request of requests) {
    const start = performance.now();
    exchanges.push(await exchange(baseUrl, request, timeoutMs, ctx.signal));
    aloneMs = Math.max(aloneMs, performance.now() - start);
  }
  const checks = exchangeChecks(exchanges);
  let sent = exchanges.length;
  if (!hooks) return [checks, sent, aloneMs];
  const verifyContext: VerifyContext = {
    variant: ctx.variant,
    options: ctx.options,
    settings: ctx.settings,
    tempDir: ctx.tempDir,
    signal: ctx.signal,
    runtime: ctx.runtime.name,
    run,
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
  return [checks, sent, aloneMs];
}

function runFigures(
  index: number,
  startedAt: string,
  m: LoadMeasurement,
  workload: HttpWorkload,
  ctx: WorkloadContext,
  resources?: ResourceReport,
): RunOutput["run"] {
  const figures: Record<string, number> = {
    // Over the exact span of the counted responses where the generator reports it: not a count over a fixed window.
    requestsPerSecond: m.countedSpanMs === undefined
      ? m.requestsPerSecond
      : round(countedRate(m.validResponses, m.durationMs, m.countedSpanMs), 2),
    ...(m.countedSpanMs !== undefined ? { countedSpanMs: m.countedSpanMs } : {}),
    bytesPerSecond: m.bytesPerSecond,
    validResponses: m.validResponses,
    durationMs: m.durationMs,
    ...(m.warmupMs !== undefined ? { warmupMs: m.warmupMs } : {}),
    // Keep-alive off: the connect's share, as figures each run has (their medians over runs go in the tables).
    ...(m.connectUs ? { connectP50Us: m.connectUs.p50, connectP99Us: m.connectUs.p99 } : {}),
  };
  const sampled = resources?.summary;
  // The sampler watches every generator the same way; a generator's own figure is the fallback.
  const clientCpu = sampled?.client?.cpuPercent.mean ?? m.clientCpuPercent;
  if (clientCpu !== null) {
    figures.clientCpuPercent = clientCpu;
    // The client's own cost per response: its headroom is what one of its CPUs could do at this cost.
    if (m.responses > 0) {
      figures.clientCpuUsPerResponse = round((clientCpu / 100) * m.durationMs * 1000 / m.responses, 2);
    }
  }
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
    ...(m.latencyQuantiles !== undefined ? { latencyQuantiles: m.latencyQuantiles } : {}),
    ...(m.connectHistogram !== undefined
      ? {
        connectUs: m.connectUs ?? null,
        connectHistogram: m.connectHistogram,
        totalLatencyUs: m.totalLatencyUs ?? null,
        totalLatencyHistogram: m.totalLatencyHistogram ?? null,
      }
      : {}),
    resources: resources?.series ?? null,
    ...(m.accounting ? { accounting: m.accounting } : {}),
    ...(m.endpoints
      ? {
        endpoints: Object.fromEntries(
          Object.entries(m.endpoints).map(([name, e]) => [name, {
            requestsPerSecond: round(e.requestsPerSecond, 2),
            responses: e.responses,
            validResponses: e.validResponses,
            latencyUs: e.latencyUs,
            latencyHistogram: e.latencyHistogram,
          }]),
        ),
      }
      : {}),
  };
}

/** One HTTP record: its staged server, traffic and load generator, and what its runs measured so far. */
interface HttpState extends ServedState<HttpRecordContext> {
  readonly file: string;
  readonly args: readonly string[] | undefined;
  readonly traffic: HttpTraffic;
  readonly generator: LoadGenerator;
  /** With `--sweep`: how close the load engine was to its limit at each run's knee (the peak without one). */
  readonly sweepSaturation: (Saturation | null)[];
}

/** What the load generator measured in one run, with the resources sampled meanwhile. */
interface Loaded {
  readonly measurement: LoadMeasurement;
  readonly resources: ResourceReport | undefined;
  /** The window's CPU time, from the kernel's counters. */
  readonly cpu?: CpuReport;
  /** With `--sweep`: every rate after the peak (`measurement`). */
  readonly sweep?: Sweep;
  /** Shorter attempts, each on its own server, before `measurement` (too few responses counted): work, not samples. */
  readonly earlier?: readonly LoadMeasurement[];
}

/**
 * What a record is ranked by: requests/s (closed model); the sustainable rate at the p99 objective (`--sweep`);
 * p99 latency at the rate asked for (`--rate`, `--phases`).
 */
function headlineOf(settings: RunSettings): Headline {
  if (settings.sweep) return { figure: "sustainableRequestsPerSecond", higherIsBetter: true };
  if (openModelOf(settings)) return { figure: "latencyP99Us", higherIsBetter: false };
  return { figure: "requestsPerSecond", higherIsBetter: true };
}

async function open(ctx: HttpRecordContext, outcome: RecordOutcome, staged: StagedServer): Promise<HttpState> {
  if (ctx.topology) {
    outcome.cpus = remoteCpus(ctx.topology, ctx.cpus);
    Object.assign(outcome.facts, topologyFacts(ctx.topology));
  }
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
    ...(generator.client ? { client: await generator.client() } : {}),
    ...(generator.verifies ? { verifies: generator.verifies } : {}),
    accountsForRequests: generator.accounts === true,
    selectedBy,
  };
  if (generator.accounts !== true) {
    // Without the accounting a server that answers twice, or stops answering, or drops connections, can look healthy:
    // the record says so rather than pass for one where every request was accounted for.
    outcome.warnings.push({
      code: "unaccounted",
      message: `${generator.name} does not account for every request: answers nobody asked for, requests never ` +
        "answered and connections the server closed are not counted, so a server that answers twice or stops " +
        "answering may look healthy here; --load-generator rtbench accounts for each",
    });
  }
  if (generator.statusOnly) {
    outcome.warnings.push({
      code: "status-only",
      message: `${generator.name} checked no more than the status of each response in the measured window ` +
        `(${generator.verifies ?? "see loadGenerator.verifies"}): a wrong body there would not be noticed; ` +
        "--load-generator rtbench checks every response",
    });
  }
  return { ctx, outcome, file: staged.file, args: staged.args, traffic, generator, sampled: [], sweepSaturation: [] };
}

/**
 * Verifies the fresh server of run `run`; returns how many requests verification sent, and the slowest answer to one
 * of them. The server of a run measured again (`again`) answers the traffic's first requests, as a later run's does,
 * without the workload's own verification: that ran once per run, and the side-effect checks count its probes once.
 */
async function verifyServer(
  state: HttpState,
  server: RunningServer,
  run: number,
  again = false,
): Promise<{ sent: number; aloneMs: number }> {
  const { ctx, outcome } = state;
  ctx.onPhase?.("verify", run);
  const asRun = again ? Math.max(run, 1) : run;
  const requests = verifiedRequests(state.traffic, asRun);
  if (asRun === 0) {
    outcome.facts.verifiedRequests = requests.length;
    outcome.facts.distinctRequests = distinctRequests(state.traffic.requests).length;
  }
  const [checks, sent, aloneMs] = await inPhase("verify", () => verify(ctx, server.baseUrl, requests, asRun, !again))
    .catch(
      (error) => {
        throw server.group.status ? serverExited(server, "verify", "verification") : error;
      },
    );
  keepChecks(outcome, checks, asRun === 0, "verify");
  return { sent, aloneMs };
}

/** Warm-up and measurement by the load generator, with the server and the client sampled. */
async function load(state: HttpState, server: RunningServer, run: number, settings: RunSettings): Promise<Loaded> {
  const { ctx } = state;
  const sampled = state.traffic.sampled;
  const target = {
    baseUrl: server.baseUrl,
    requests: state.traffic.requests,
    ...(sampled ? { sampleEvery: sampled.every } : {}),
  };
  const options = { cpus: ctx.cpus.client, signal: ctx.signal, clientHosts: ctx.topology?.clients };
  if (!ctx.settings.sweep) {
    const { measured, resources, cpu } = await underLoad(
      ctx,
      server,
      run,
      (onSpawn) => state.generator.run(target, settings, { ...options, onSpawn }),
    );
    return { measurement: measured, resources, cpu };
  }
  const steps = ctx.settings.sweepSteps ?? DEFAULT_SWEEP_STEPS;
  let done: Sweep | undefined;
  const { resources } = await underLoad(ctx, server, run, async (onSpawn) => {
    done = await sweep(state.generator, target, ctx.settings, steps, { ...options, onSpawn });
    // Resources are sampled over the whole sweep.
    const start = done.peak.windowStartMs ?? Date.now();
    return { durationMs: Date.now() - start, windowStartMs: start };
  });
  return { measurement: done!.peak, resources, sweep: done };
}

/**
 * The open model's figures over the closed model's: the rate asked for and what was late (`--rate`, `--phases`,
 * with each phase), or the sweep's peak, knee and steps (`--sweep`).
 */
function withModel(
  run: RunOutput["run"],
  m: LoadMeasurement,
  swept: Sweep | undefined,
  settings: RunSettings,
): RunOutput["run"] {
  const figures: Record<string, number> = { ...run.figures };
  if (swept) {
    const knee = kneeOf(swept.steps.map((s) => s.step), settings.sloP99Ms ?? DEFAULT_SLO_P99_MS);
    figures.peakRequestsPerSecond = m.requestsPerSecond;
    figures.sustainableRequestsPerSecond = knee?.achievedRate ?? 0;
    if (knee?.latencyUs) figures.kneeLatencyP99Us = knee.latencyUs.p99;
    return { ...run, figures, steps: swept.steps.map((s) => s.step) };
  }
  const model = openModelOf(settings);
  if (!model || !m.phases) return run;
  const open = openFigures(model, m.phases, m.latencyUs, "Requests");
  return { ...run, figures: { ...figures, ...open.figures }, phases: open.phases };
}

/** What one run's server went through: verification, the load, the fixed-rate window, idle connections. */
interface Served {
  readonly verifyRequests: number;
  readonly loaded: Loaded;
  readonly rated: AtRate<LoadMeasurement> | null;
  readonly memory: IdleMemory | null;
  /** The server that served (stopped by now). */
  readonly server: RunningServer;
  /** A longer window to measure the run again over, on a fresh server: it counted too few responses. */
  readonly again: number | null;
  /** The request timeout its load needed, from the server's answer to one request alone (see `window_extension.ts`). */
  readonly timeoutSec: number;
  /** The slowest of its answers to one request alone, in verification. */
  readonly aloneMs: number;
}

/**
 * One attempt at run `run`: a fresh pinned server, verified, loaded over `settings`' window; then, unless it counted
 * too few responses (see `window_extension.ts`), the fixed-rate window and idle connections; stopped.
 */
async function serve(state: HttpState, run: number, settings: RunSettings, attempts: number): Promise<Served> {
  const { ctx } = state;
  const server = ctx.topology?.server
    ? await startRemoteRecordServer(ctx, ctx.topology.server, state.file, state.args)
    : await startRecordServer(ctx, state.file, state.args);
  state.outcome.command = [...server.command];
  try {
    const { sent: verifyRequests, aloneMs } = await verifyServer(state, server, run, attempts > 0);
    const loaded = await load(state, server, run, settings);
    const timeoutSec = neededTimeout(settings, aloneMs);
    const again = longerWindow(settings, loaded.measurement, attempts, timeoutSec);
    if (again !== null) {
      return { verifyRequests, loaded, rated: null, memory: null, server, again, timeoutSec, aloneMs };
    }
    const rated = await cpuRateWindow(state, server, run);
    const memory = await idleMemory(state.ctx, server, run, { http: state.traffic.requests[0] });
    return { verifyRequests, loaded, rated, memory, server, again, timeoutSec, aloneMs };
  } finally {
    await server.stop();
  }
}

/** The request timeout a closed-model load of this server needs, from its answer to one request alone. */
function neededTimeout(settings: RunSettings, aloneMs: number): number {
  if (settings.rate !== undefined || settings.phases || settings.sweep) return settings.requestTimeoutSec;
  return loadTimeoutSec(settings.requestTimeoutSec, settings.connections * settings.pipelining, aloneMs);
}

/**
 * The run's attempts: measured again over a longer window, on a fresh server, while it counts too few valid
 * responses; the shorter attempts' measurements ride along as `earlier`, and their verifications are counted.
 */
async function serveEnough(state: HttpState, run: number): Promise<Served> {
  let settings = state.ctx.settings;
  const earlier: LoadMeasurement[] = [];
  let verifyRequests = 0;
  let served = await serve(state, run, settings, 0);
  for (; served.again !== null; served = await serve(state, run, settings, earlier.length)) {
    earlier.push(served.loaded.measurement);
    verifyRequests += served.verifyRequests;
    // The server is slow: measured again with the timeout its answer alone predicts, so it is not cut off again.
    const timeoutSec = Math.max(settings.requestTimeoutSec, served.timeoutSec);
    const warnings = state.outcome.warnings;
    if (timeoutSec > settings.requestTimeoutSec && !warnings.some((w) => w.code === "request-timeout-raised")) {
      warnings.push(timeoutWarning(run, settings, timeoutSec, served.aloneMs));
    }
    settings = { ...settings, durationSec: served.again, requestTimeoutSec: timeoutSec };
  }
  if (earlier.length === 0) return served;
  state.outcome.warnings.push(windowWarning(run, earlier, served.loaded.measurement));
  return { ...served, verifyRequests: verifyRequests + served.verifyRequests, loaded: { ...served.loaded, earlier } };
}

/** One run: a fresh pinned server, verified, loaded, stopped (again, over a longer window, when it counted few). */
async function runOnce(state: HttpState, run: number): Promise<RunOutput> {
  const { ctx, outcome } = state;
  const startedAt = new Date().toISOString();
  const served = await serveEnough(state, run);
  const { loaded, rated, memory, server } = served;
  const { measurement: m, resources, sweep: swept } = loaded;
  const record = withEfficiency(
    withModel(runFigures(run, startedAt, m, ctx.workload, ctx, resources), m, swept, ctx.settings),
    swept ? undefined : loaded.cpu,
    m.responses,
    [rated, memory],
    outcome,
  );
  // The idle connections' exchanges are work the server did and answered, as verification's are.
  const verifyRequests = served.verifyRequests + (memory?.exchanges ?? 0);
  const all = [
    m,
    ...(swept?.steps.map((s) => s.measurement) ?? []),
    ...(rated ? [rated.measured] : []),
    ...(loaded.earlier ?? []),
  ];
  const invalid = judgeLoad(state, m, all, run) ?? await checkSamples(state, m, run);
  if (invalid !== null) return { run: record, invalid };
  servedRunStood(outcome, m, ctx.settings.connections);
  if (m.errors > 0) {
    outcome.warnings.push({
      code: "request-errors",
      message: `run ${run + 1}: ${m.errors} connection errors (${m.timeouts} timeouts), not counted as samples`,
    });
  }
  if (m.clientHosts) {
    // How the run's connections were split over the load machines, as the engine placed them.
    outcome.facts.clientHostConnections = m.clientHosts.map((s) => `${s.host}=${s.connections}`).join(",");
  }
  for (const share of m.clientHosts ?? []) {
    const warning = saturatedHost(share, run);
    if (warning && !outcome.warnings.some((w) => w.message === warning.message)) outcome.warnings.push(warning);
  }
  if (resources) state.sampled.push(resources);
  if (swept) state.sweepSaturation.push(kneeSaturation(record.steps ?? [], m, ctx));
  return multiCoreRun(outcome, server, resources, ctx.cpus, {
    run: record,
    // The server's work over the whole run: under --sweep the peak and every rate after it (side-effect checks
    // compare the database's or the disk's counts with these); the window and its valid responses are the peak's.
    responses: {
      valid: m.validResponses,
      // A response after the window is no sample, but the server did its work and answered it.
      total: verifyRequests + sum(all, (x) => x.warmupResponses + x.responses + (x.lateResponses ?? 0)),
      ...(all.every((x) => x.sentRequests !== undefined)
        ? { sent: verifyRequests + sum(all, (x) => x.sentRequests!) }
        : { unsent: { loads: 1 + (loaded.earlier?.length ?? 0), timeouts: sum(all, (x) => x.timeouts) } }),
      ...(m.endpoints
        ? {
          endpoints: Object.fromEntries(
            Object.keys(m.endpoints).map((name) => [
              name,
              sum(all, (x) =>
                (x.endpoints?.[name]?.validResponses ?? 0) + (x.endpoints?.[name]?.warmupValidResponses ?? 0)),
            ]),
          ),
        }
        : {}),
      window: {
        startMs: m.windowStartMs ?? Date.now() - m.durationMs,
        durationMs: m.durationMs,
        ...(m.windows ? { processes: m.windows } : {}),
      },
    },
  });
}

/** Why run `run` makes its record invalid, or null (see {@linkcode judgeHttpRun}); its warnings go on the record. */
function judgeLoad(state: HttpState, m: LoadMeasurement, all: readonly LoadMeasurement[], run: number): string | null {
  const verdict = judgeHttpRun(m, all, run, state.generator.name);
  for (const w of verdict.warnings) {
    if (!state.outcome.warnings.some((x) => x.message === w.message)) state.outcome.warnings.push(w);
  }
  return verdict.invalid;
}

/**
 * The traffic's checks of the responses the load kept (bcrypt: a sampled hash against its password); why the record is
 * invalid when one failed, else null. The first run's checks are kept on the record.
 */
async function checkSamples(state: HttpState, m: LoadMeasurement, run: number): Promise<string | null> {
  const sampled = state.traffic.sampled;
  if (!sampled || !m.samples) return null;
  const samples = m.samples.map((s) => ({ request: state.traffic.requests[s.request], body: s.body }));
  const checks = await inPhase("measure", () => sampled.check(samples));
  try {
    keepChecks(state.outcome, checks, run === 0, "measure", (failures) => `sampled under load: ${failures}`);
    return null;
  } catch (error) {
    return (error as Error).message;
  }
}

/**
 * The load engine's share of its CPUs at a sweep's knee (at the closed-model peak when no rate was held), from its own
 * CPU over that step's window; the server's share is not known per step, so the step can only say client-saturated.
 */
function kneeSaturation(steps: readonly SweepStep[], peak: LoadMeasurement, ctx: RecordContext): Saturation | null {
  const knee = kneeOf(steps, ctx.settings.sloP99Ms ?? DEFAULT_SLO_P99_MS);
  const cpu = knee ? knee.clientCpuPercent : peak.clientCpuPercent;
  if (cpu === undefined || cpu === null) return null;
  return { client: cpu / 100 / cpuCount(ctx.cpus.client), server: 1, clientBound: false };
}

/** The `--cpu-rate` window on the run's server, by the record's load generator when it can send at a rate. */
function cpuRateWindow(state: HttpState, server: RunningServer, run: number): Promise<AtRate<LoadMeasurement> | null> {
  const { ctx } = state;
  if (!ctx.settings.cpuRate || ctx.settings.sweep || !state.generator.openModel) return Promise.resolve(null);
  const target = { baseUrl: server.baseUrl, requests: state.traffic.requests };
  return atCpuRate(
    ctx,
    server,
    run,
    "Request",
    (m: LoadMeasurement) => m.responses,
    (settings, onSpawn) =>
      state.generator.run(target, settings, { cpus: ctx.cpus.client, signal: ctx.signal, onSpawn }),
  );
}

function sum<T>(items: readonly T[], of: (item: T) => number): number {
  return items.reduce((a, x) => a + of(x), 0);
}

/**
 * The HTTP kind: each run a fresh pinned server, verified before load, then
 * warm-up and measurement by the load generator; before any record, the
 * variant's runtimes are checked for answering alike (parity).
 *
 * @example Wire it into the run loop
 * ```ts ignore
 * import { RecordRun } from "./loop.ts";
 * import { httpKind } from "./http.ts";
 * const record = new RecordRun(httpKind, ctx, outcome);
 * ```
 */
export const httpKind: Kind<HttpWorkload, HttpState, HttpRecordContext> = servedKind({
  name: "http",
  headline: headlineOf,
  open,
  run: runOnce,
  client: (state) => state.generator.name,
  // A sweep's samples span every rate: the client is judged where it matters, at the knee.
  saturations: (state) => state.ctx.settings.sweep ? state.sweepSaturation : undefined,
  clientCost: ["clientCpuUsPerResponse", "responses"],
  checkVariant: checkHttpParity,
});
