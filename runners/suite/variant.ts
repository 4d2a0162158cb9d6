/**
 * One workload × variant on every runtime: the workload's dependencies and
 * session are set up once, the runtimes are checked against each other
 * (parity), then every runtime's record is opened and their runs are
 * interleaved; the session is released however that ends.
 *
 * @module
 */

import { MissingToolchainError, type ResolvedRuntime, type RuntimeSpec } from "../../adapters/mod.ts";
import type { Workload, WorkloadSession } from "../../workloads/mod.ts";
import {
  checkVariant,
  chosenCpuRate,
  type CpuRateChoice,
  type Ending,
  endingOf,
  headlineOf,
  type HookTimeouts,
  InvalidError,
  PhaseError,
  type RecordOutcome,
  type RecordRun,
  recordRun,
  SkipRecord,
  type VariantVerdict,
  withinTime,
} from "../kinds/mod.ts";
import type { LoadGeneratorChoice, Topology } from "../drivers/mod.ts";
import { installDependencies } from "../platform/mod.ts";
import type { ProgressEvent } from "./progress.ts";
import type { BenchRecord, CpuSets, DuetRatioRecord, Pairing, PairingMode, Warning } from "../schema/mod.ts";
import { runPlan } from "../stats/mod.ts";
import { assembleRecord, emptyOutcome } from "./assemble.ts";
import { estimateSec, type Planned, recordId } from "./plan.ts";
import { interleave, type Schedule } from "./schedule.ts";
import { stopOf } from "./suite_result.ts";
import { judgeRounds, pairingOf, withPairedCi } from "./pairing.ts";
import { planDuets, type VariantDuets } from "./duet_variant.ts";

/** What every variant of a suite is measured with. */
export interface SuiteContext {
  /** The runtimes, as requested. */
  readonly specs: readonly RuntimeSpec[];
  /** Each runtime as found, or why it could not be had, keyed as requested. */
  readonly runtimes: ReadonlyMap<string, ResolvedRuntime | Error>;
  /** Records kept from a resumed file, by id: not measured again. */
  readonly done: ReadonlyMap<string, BenchRecord>;
  /** Interrupted records of a resumed file, by id: measured on from their finished runs. */
  readonly continued: ReadonlyMap<string, BenchRecord>;
  /** CPU sets of server and client. */
  readonly cpus: CpuSets;
  /** Interface servers bind. */
  readonly host: string;
  /** Port every server listens on, or undefined for a free one each. */
  readonly port: number | undefined;
  /** Hook time limits in effect. */
  readonly limits: HookTimeouts;
  /** The HTTP load generators to choose from. */
  readonly generators: LoadGeneratorChoice;
  /** Cache of server dependencies. */
  readonly cacheDir: string;
  /** The suite's private temporary directory. */
  readonly suiteTemp: string;
  /** Interrupts the suite. */
  readonly signal: AbortSignal;
  /** Other machines for servers, load and database, when asked for. */
  readonly topology?: Topology;
  /** The order of runs within rounds. */
  readonly schedule: Schedule;
  /** How ratios of CPU per request at the fixed rate are paired (`--pairing`). @default {"rounds"} */
  readonly pairing?: PairingMode;
  /** Whether the pairing was asked for (`--pairing`): only then does a variant without a fixed rate warn of no duet. */
  readonly pairingAsked?: boolean;
  /** Duet rounds: `--runs` when given, else as many as the intervals need (see `duet_variant.ts`). */
  readonly duetRounds?: number;
  /** Records to measure in the whole suite, for progress. */
  readonly totalRecords: number;
  /** Receives progress events. */
  onProgress?(event: ProgressEvent): void;
  /** Adds a suite-wide warning. */
  warn(warning: Warning): void;
  /** Takes a finished record (written to the partial result at once). */
  finish(record: BenchRecord): Promise<void>;
  /** The next record's index in the suite, from 0. */
  nextIndex(): number;
}

/** The workload's dependencies, installed once per workload and shared by its variants. */
const installs = new WeakMap<SuiteContext, Map<Workload, Promise<string | undefined>>>();

function dependencies(workload: Workload, suite: SuiteContext): Promise<string | undefined> {
  let byWorkload = installs.get(suite);
  if (!byWorkload) installs.set(suite, byWorkload = new Map());
  let installed = byWorkload.get(workload);
  if (!installed) {
    const required = workload.dependencies ?? {};
    const optional = workload.optionalDependencies ?? {};
    installed = Object.keys(required).length + Object.keys(optional).length > 0
      ? installDependencies(required, suite.cacheDir, suite.signal, optional)
      : Promise.resolve(undefined);
    byWorkload.set(workload, installed);
  }
  return installed;
}

/** The variant's shared state: its session, dependencies and what setting them up broke. */
interface Prepared {
  readonly tempDir: string;
  readonly session: WorkloadSession;
  readonly nodeModules: string | undefined;
  readonly setupError: PhaseError | undefined;
}

async function prepare(planned: Planned, suite: SuiteContext): Promise<Prepared> {
  const { workload, variant, settings } = planned;
  const tempDir = `${suite.suiteTemp}/${workload.name}-${variant}`;
  await Deno.mkdir(tempDir, { recursive: true });
  let nodeModules: string | undefined;
  const db = suite.topology?.db;
  try {
    nodeModules = await dependencies(workload, suite);
    const ctx = { variant, options: planned.options, settings, tempDir, signal: suite.signal };
    const session = workload.setup
      ? await withinTime(
        "setup",
        "the workload's setup",
        suite.limits.setup,
        () => workload.setup!({ ...ctx, serverCpus: suite.cpus.server, nodeModules, dbHost: db?.ssh }),
      )
      : {};
    return { tempDir, session, nodeModules, setupError: undefined };
  } catch (error) {
    suite.signal.throwIfAborted();
    const setupError = new PhaseError("setup", (error as Error).message ?? String(error), { cause: error });
    return { tempDir, session: {}, nodeModules, setupError };
  }
}

/** The suite's CPU sets, with the server's narrowed when the session kept some of them (a database's own CPU). */
function cpusOf(prepared: Prepared, suite: SuiteContext): CpuSets {
  const server = prepared.session.serverCpus;
  return server === undefined ? suite.cpus : { ...suite.cpus, server };
}

/** What a record of this variant is measured with, but for its runtime and private directory. */
function contextBase(planned: Planned, prepared: Prepared, suite: SuiteContext) {
  return {
    workload: planned.workload,
    variant: planned.variant,
    settings: planned.settings,
    options: planned.options,
    session: prepared.session,
    tempDir: prepared.tempDir,
    nodeModules: prepared.nodeModules,
    cpus: cpusOf(prepared, suite),
    host: suite.host,
    port: suite.port,
    hookTimeoutsSec: suite.limits,
    signal: suite.signal,
    topology: suite.topology,
  };
}

/** The parity verdicts of the runtimes that could be had; a check that cannot run is a suite warning. */
async function parity(planned: Planned, prepared: Prepared, suite: SuiteContext): Promise<Map<string, VariantVerdict>> {
  if (prepared.setupError) return new Map();
  const ready = new Map<string, ResolvedRuntime>();
  for (const [requested, rt] of suite.runtimes) if (!(rt instanceof Error)) ready.set(requested, rt);
  const workDir = `${suite.suiteTemp}/variant-checks/${planned.workload.name}-${planned.variant}`;
  try {
    return await checkVariant({ ...contextBase(planned, prepared, suite), runtimes: ready, workDir });
  } catch (error) {
    suite.signal.throwIfAborted();
    suite.warn({
      code: "parity-unchecked",
      message: `${planned.workload.name}/${planned.variant}: runtimes could not be compared (${
        (error as Error).message
      })`,
    });
    return new Map();
  } finally {
    await Deno.remove(workDir, { recursive: true }).catch(() => {});
  }
}

/** One runtime's record of the variant: opened, or ended before its first run. */
interface Opened {
  readonly spec: RuntimeSpec;
  readonly id: string;
  readonly startedAt: string;
  /** The interrupted record of a resumed file this one goes on from. */
  readonly earlier: BenchRecord | undefined;
  readonly runtime: ResolvedRuntime | undefined;
  readonly outcome: RecordOutcome;
  /** The record to step; absent when it ended before opening (`early`). */
  readonly record?: RecordRun;
  readonly early?: Ending;
}

async function openRecord(
  planned: Planned,
  prepared: Prepared,
  verdict: VariantVerdict | undefined,
  spec: RuntimeSpec,
  suite: SuiteContext,
  cpuRateChoice: CpuRateChoice | undefined,
): Promise<Opened> {
  const id = recordId(planned, spec);
  const index = suite.nextIndex();
  suite.onProgress?.({
    type: "record-start",
    index,
    total: suite.totalRecords,
    id,
    estimatedSec: estimateSec(
      planned,
      suite.pairing === "duet" ? { runtimes: suite.specs.length, rounds: suite.duetRounds } : undefined,
    ),
  });
  const earlier = suite.continued.get(id);
  const base = { spec, id, startedAt: earlier?.startedAt ?? new Date().toISOString(), earlier };
  const rt = suite.runtimes.get(spec.requested)!;
  const outcome = emptyOutcome(
    cpusOf(prepared, suite),
    headlineOf(planned.workload, planned.settings),
    prepared.session.facts,
  );
  // A resumed record goes on from its finished runs; its checks and warnings stay beside the new ones.
  if (earlier) {
    outcome.runs.push(...earlier.runs);
    outcome.checks.push(...earlier.verification.checks);
    outcome.warnings.push(...earlier.warnings);
  }
  outcome.warnings.push(...prepared.session.warnings ?? []);
  if (verdict) outcome.checks.push(...verdict.checks);
  if (rt instanceof Error) {
    // A native toolchain that is not installed is not a failure of the suite: the record says how to get it.
    const why = rt instanceof MissingToolchainError
      ? new SkipRecord(rt.message)
      : new PhaseError("provision", rt.message);
    return { ...base, runtime: undefined, outcome, early: endingOf(why) };
  }
  const refused = prepared.setupError ?? (verdict?.invalid ? new InvalidError("verify", verdict.invalid) : undefined);
  if (refused) return { ...base, runtime: rt, outcome, early: endingOf(refused) };
  const workDir = `${suite.suiteTemp}/records/${index}`;
  await Deno.mkdir(workDir, { recursive: true });
  const record = recordRun({
    ...contextBase(planned, prepared, suite),
    runtime: rt,
    workDir,
    sharedDir: `${suite.suiteTemp}/shared/${planned.workload.name}`,
    loadGenerator: suite.generators.candidates[0],
    loadGenerators: suite.generators,
    ...(cpuRateChoice ? { cpuRateChoice } : {}),
    onPhase: (phase, run) => suite.onProgress?.({ type: "phase", id, phase, run, runs: runPlan(planned.settings).max }),
  }, outcome);
  await record.open();
  return { ...base, runtime: rt, outcome, record };
}

/** A record's closed-model rate in its first run, for the fixed rate the variant chooses from them. */
function firstRate(o: Opened): number {
  const figures = o.outcome.runs[0]?.figures ?? {};
  return figures.requestsPerSecond ?? figures.messagesPerSecond ?? 0;
}

/**
 * The variant as a record of it ran: with a fixed rate chosen from the first round, the rate its windows used (0 when
 * it had no run after that round, so none) in its settings, and where it came from in its facts.
 */
function asRan(planned: Planned, choice: CpuRateChoice | undefined, outcome: RecordOutcome): Planned {
  if (!choice) return planned;
  const used = choice.rate !== null && outcome.runs.some((r) => r.figures.cpuRateAchievedPerSecond !== undefined);
  outcome.facts.cpuRateChosenFrom = used
    ? "keep-alive off: half the slowest runtime's closed-model rate in the first round"
    : "keep-alive off: none, as the rate is chosen once every runtime has a first run and no run of this record came after that";
  return { ...planned, settings: { ...planned.settings, cpuRate: used ? choice.rate! : 0 } };
}

/**
 * Measures every runtime's record of one workload × variant (those not kept
 * from a resumed file): set-up, parity, interleaved runs, release.
 *
 * @param planned The workload × variant.
 * @param suite What the suite measures with, and where finished records go.
 *
 * @example
 * ```ts ignore
 * import { measureVariant } from "./variant.ts";
 * for (const planned of groups) await measureVariant(planned, suite);
 * ```
 */
export async function measureVariant(planned: Planned, suite: SuiteContext): Promise<void> {
  const specs = suite.specs.filter((spec) => !suite.done.has(recordId(planned, spec)));
  // Nothing left to measure here: no setup, no server.
  if (specs.length === 0) return;
  const prepared = await prepare(planned, suite);
  const opened: Opened[] = [];
  const finished = new Set<Opened>();
  let pairing: Pairing | undefined;
  let duets: VariantDuets | null = null;
  let duetRatios = new Map<string, DuetRatioRecord[]>();
  let stopping = false;
  // A record is written with its duet ratios whole: every duet round left runs first (none once the suite stops).
  const closeDuets = async () => {
    if (!duets) return;
    if (!stopping) await duets.finish();
    const { ratios, warning } = duets.result();
    duets = null;
    duetRatios = ratios;
    if (warning) suite.warn(warning);
  };
  // Keep-alive off without --cpu-rate: the fixed rate is chosen once every runtime has run the first round.
  const choice: CpuRateChoice | undefined = planned.cpuRateFromFirstRound ? { rate: null } : undefined;
  const finish = async (o: Opened, ending: Ending) => {
    finished.add(o);
    const ran = asRan(planned, o.record ? choice : undefined, o.outcome);
    if (o.record) await closeDuets();
    // A record that did not complete has no duet ratio: its server was shown wrong (or never measured) somewhere.
    const duet = ending.status === "completed" ? duetRatios.get(o.id) : undefined;
    const record = assembleRecord({ ...o, planned: ran, ending, pairing: o.record ? pairing : undefined });
    // The record says which pairing produced its ratios: duet where it has duet ratios, rounds for its runs.
    const assembled = duet && duet.length > 0
      ? { ...record, ...(record.pairing ? { pairing: { ...record.pairing, mode: "duet" as const } } : {}), duet }
      : record;
    // Every round so far is complete when a record finishes: its pairs are judged on the others' runs as they are.
    const others = opened.filter((x) => x !== o && x.record).map((x) => ({
      label: x.spec.requested,
      runs: x.outcome.runs,
    }));
    await suite.finish(withPairedCi(assembled, others));
  };
  try {
    const verdicts = await parity(planned, prepared, suite);
    for (const spec of specs) {
      suite.signal.throwIfAborted();
      opened.push(await openRecord(planned, prepared, verdicts.get(spec.requested), spec, suite, choice));
    }
    for (const o of opened) if (o.early) await finish(o, o.early);
    const running = opened.filter((o) => o.record);
    const name = `${planned.workload.name}/${planned.variant}`;
    pairing = pairingOf(name, running.map((o) => o.id), suite.schedule.order, new Date().toISOString());
    if (suite.pairing === "duet") duets = await planVariantDuets(planned, prepared, suite, running);
    let rounds = 0;
    const afterRound = async (records: readonly RecordRun[]) => {
      if (choice && choice.rate === null) choice.rate = chosenCpuRate(running.map(firstRate));
      if (pairing) judgeRounds(records);
      // The duet's rounds spread over the variant's: the two modes alternate through the same minutes.
      await duets?.upTo(++rounds / planned.settings.runs);
    };
    await interleave(running.map((o) => o.record!), suite.schedule, async (record) => {
      await finish(running.find((o) => o.record === record)!, await record.close());
    }, pairing || choice || duets ? afterRound : undefined);
  } catch (error) {
    stopping = true;
    // Runs are interleaved, so a suite stopped mid-variant holds finished runs of records not yet closed: kept.
    const reason = stopOf(error, suite.signal).reason;
    for (const o of opened.filter((o) => !finished.has(o) && o.record)) {
      const ending = o.record!.stopped(reason);
      if (ending) await finish(o, ending);
    }
    throw error;
  } finally {
    if (suite.pairing === "duet") await Deno.remove(duetDir(planned, suite), { recursive: true }).catch(() => {});
    await release(planned, prepared.session, suite);
  }
}

/** Where a variant's duet servers are staged: kept until its last duet round. */
function duetDir(planned: Planned, suite: SuiteContext): string {
  return `${suite.suiteTemp}/duet/${planned.workload.name}-${planned.variant}`;
}

/**
 * Duet pairing: every pair of the variant's running records, staged for duet rounds that alternate with the
 * variant's own (see `duet_variant.ts`); a duet that cannot be measured is a suite warning, and the records keep their
 * rounds.
 */
async function planVariantDuets(
  planned: Planned,
  prepared: Prepared,
  suite: SuiteContext,
  running: readonly Opened[],
): Promise<VariantDuets | null> {
  const name = `${planned.workload.name}/${planned.variant}`;
  const workDir = duetDir(planned, suite);
  try {
    const base = contextBase(planned, prepared, suite);
    const { duets, warning } = await planDuets(
      {
        workload: planned.workload,
        variant: planned.variant,
        settings: planned.settings,
        workloadContext: {
          variant: planned.variant,
          options: planned.options,
          settings: planned.settings,
          tempDir: prepared.tempDir,
          signal: suite.signal,
          serverCpus: base.cpus.server,
          nodeModules: prepared.nodeModules,
        },
        env: prepared.session.env,
        cpus: base.cpus,
        workDir,
        nodeModules: prepared.nodeModules,
        seed: suite.schedule.seed ?? 1,
        rounds: suite.duetRounds,
        asked: suite.pairingAsked,
        elsewhere: suite.topology !== undefined,
        signal: suite.signal,
      },
      running.filter((o) => o.runtime).map((o) => ({
        id: o.id,
        runtime: o.runtime!,
        runs: () => o.outcome.runs,
        ended: () => o.record?.endedAs ?? null,
      })),
    );
    if (warning) suite.warn(warning);
    return duets;
  } catch (error) {
    suite.signal.throwIfAborted();
    suite.warn({ code: "duet-not-measured", message: `${name}: ${(error as Error).message ?? error}; rounds used` });
    return null;
  }
}

/** Releases the session; a release that fails or hangs must not take the suite with it. */
async function release(planned: Planned, session: WorkloadSession, suite: SuiteContext): Promise<void> {
  if (!session.dispose) return;
  await withinTime("cleanup", "the workload's dispose", suite.limits.dispose, () => session.dispose!())
    .catch((error) => {
      suite.warn({
        code: "dispose-failed",
        message: `${planned.workload.name}/${planned.variant}: ${(error as Error).message ?? error}`,
      });
    });
}
