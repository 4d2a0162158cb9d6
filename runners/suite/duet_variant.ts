/**
 * `--pairing duet` (the default) for one workload × variant: every pair of its runtimes measured in duet at the
 * variant's fixed rate (`--cpu-rate`; see `duet.ts`). The duet rounds run one at a time, spread over the variant's own
 * rounds so that the two modes alternate, then each pair on until its own interval is narrow enough. Each record gets one
 * {@linkcode DuetRatioRecord} per other runtime: its server's CPU per request over the other's, from the windows they
 * shared. HTTP workloads only (others keep their rounds), with a fixed rate and two CPUs to give the servers and the
 * loads; a warning says why an HTTP variant with a fixed rate has none, and why one without has none where duet was
 * asked for.
 *
 * @module
 */

import type { ResolvedRuntime } from "../../adapters/mod.ts";
import { isSkip, type Workload, type WorkloadContext } from "../../workloads/mod.ts";
import type { LoadTarget } from "../drivers/mod.ts";
import { serverExited, stageServerFor, startServer } from "../kinds/mod.ts";
import { parseCpuList, yieldToPassed } from "../platform/mod.ts";
import type { CpuSets, DuetRatioRecord, RunRecord, RunSettings, Warning } from "../schema/mod.ts";
import { AT_LIMIT, type DuetRatio, type DuetWindow, median, reachableHalfWidth, runPlan } from "../stats/mod.ts";
import {
  type AloneCost,
  type DuetPairOutcome,
  type DuetRound,
  type DuetSide,
  pairRoundSec,
  startDuets,
} from "./duet.ts";

/** One record of the variant taking part: its id and runtime. */
export interface DuetEntrant {
  /** The record's id. */
  readonly id: string;
  /** Its runtime, as found. */
  readonly runtime: ResolvedRuntime;
  /** Its runs so far: their CPU per request at the rate sets its pairs' first rate (`fittedRate`). */
  readonly runs?: () => readonly Pick<RunRecord, "figures">[];
  /** How its record ended early (`errored`, `invalid`), or null while it runs or once it completed: its pairs end. */
  readonly ended?: () => string | null;
}

/** What {@linkcode planDuets} needs of the variant. */
export interface DuetVariantContext {
  /** The workload. */
  readonly workload: Workload;
  /** The variant. */
  readonly variant: string;
  /** Its settings (`cpuRate` is the rate). */
  readonly settings: RunSettings;
  /** What the workload's traffic and servers are made from. */
  readonly workloadContext: WorkloadContext;
  /** Session environment for the servers. */
  readonly env?: Readonly<Record<string, string>>;
  /** The suite's CPU sets: the duet's two CPUs are the first of each. */
  readonly cpus: CpuSets;
  /** Where servers are staged. */
  readonly workDir: string;
  /** The workload's dependencies. */
  readonly nodeModules: string | undefined;
  /** Seed of the order of pairs and placements. */
  readonly seed: number;
  /** Rounds, fixed (`--runs`); else from {@linkcode DUET_ROUNDS.min} until narrow enough. */
  readonly rounds?: number;
  /** Whether duet was asked for (`--pairing duet`) rather than the default: a variant without a fixed rate then warns. */
  readonly asked?: boolean;
  /** Whether servers or load run on other machines (`--*-host`): a duet's CPUs and counters must be this machine's. */
  readonly elsewhere?: boolean;
  /** Interrupts. */
  readonly signal: AbortSignal;
}

/**
 * A pair's round: its warm-up at the rate (see `duetWarmupSec`), then 2 windows of 500 ms. A round's fresh servers
 * have a level of their own (each round is one sample).
 */
const DUET_SHAPE = { windowMs: 500, windowsPerRound: 2 } as const;

/**
 * Rounds per variant without `--runs`: at least 4 (two with the servers on each CPU: Student's t on 3 degrees of
 * freedom), then two more at a time for each pair whose interval is wider than the variant's `--ci-target`, at most 10.
 */
export const DUET_ROUNDS: { readonly min: number; readonly max: number } = { min: 4, max: 10 };

/**
 * Seconds of duet rounds a record of an HTTP variant with a fixed rate is expected to add, its share of the variant's
 * (for progress displays): the least rounds (or `rounds`) of every pair of `runtimes`, each pair's round its warm-up,
 * its windows and half a window more, and about half a second of starting and stopping; 0 where no duet runs.
 *
 * @param kind The workload's kind.
 * @param cpuRate The variant's fixed rate (0 or absent: none).
 * @param runtimes Records of the variant.
 * @param rounds Rounds when fixed (`--runs`).
 * @returns Seconds.
 *
 * @example Three runtimes at 20,000/s: 4 rounds of 3 pairs, 3.5 s each, a third each
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { duetShareSec } from "./duet_variant.ts";
 *
 * assertEquals([duetShareSec("http", 20_000, 3), duetShareSec("http", 0, 3), duetShareSec("websocket", 20_000, 3)], [14, 0, 0]);
 * ```
 */
export function duetShareSec(kind: string, cpuRate: number | undefined, runtimes: number, rounds?: number): number {
  if (kind !== "http" || !cpuRate || runtimes < 2) return 0;
  const pairs = runtimes * (runtimes - 1) / 2;
  return (rounds ?? DUET_ROUNDS.min) * pairs * (pairRoundSec(DUET_SHAPE, cpuRate) + 0.5) / runtimes;
}

/** A variant's duets, their rounds not yet run. */
export interface VariantDuets {
  /**
   * Runs the rounds due once `share` (0–1) of the variant's own rounds have run, so that the two modes alternate. A
   * round that fails (not an interrupt) ends the duets: the result is then a warning saying why, and no ratio.
   */
  upTo(share: number): Promise<void>;
  /** Runs the rounds left: to the least, then each pair's until it is within the target or its most have run. */
  finish(): Promise<void>;
  /** Each record's ratios against every other from the rounds run so far, or a warning naming the pairs without. */
  result(): { ratios: Map<string, DuetRatioRecord[]>; warning: Warning | null };
}

/**
 * A variant's duets, staged and ready to run a round at a time; or a warning saying why there are none.
 *
 * @param ctx The variant.
 * @param entrants Its records that run.
 * @returns The duets (none with fewer than two entrants), or why there are none.
 *
 * @example
 * ```ts ignore
 * import { planDuets } from "./duet_variant.ts";
 * const { duets } = await planDuets(ctx, [{ id: "http-json/default/deno", runtime: deno }, ...]);
 * await duets?.finish();
 * const { ratios, warning } = duets!.result();
 * ```
 */
export async function planDuets(
  ctx: DuetVariantContext,
  entrants: readonly DuetEntrant[],
): Promise<{ duets: VariantDuets | null; warning: Warning | null }> {
  const name = `${ctx.workload.name}/${ctx.variant}`;
  const none = (message: string) => ({
    duets: null,
    warning: { code: "duet-not-measured", message: `${name}: ${message}` },
  });
  const rate = ctx.settings.cpuRate;
  // Duet pairs HTTP servers' CPU per request: other kinds keep their rounds, as their records' pairing says.
  if (ctx.workload.kind !== "http") return { duets: null, warning: null };
  if (!rate) {
    // No figure at a fixed rate to pair: said only where duet was asked for.
    return ctx.asked
      ? none("duet pairing needs a fixed rate (--cpu-rate); rounds used")
      : { duets: null, warning: null };
  }
  if (entrants.length < 2) return { duets: null, warning: null };
  if (ctx.elsewhere) return none("duet pairing runs on one machine (no --*-host); rounds used");
  const cpus = [ctx.cpus.server, ctx.cpus.client].map((list) => list === null ? null : parseCpuList(list)[0]);
  if (cpus[0] === null || cpus[1] === null || cpus[0] === undefined || cpus[1] === undefined) {
    return none(
      "duet pairing needs two CPUs to pin the servers and the loads to (no taskset, or one CPU); rounds used",
    );
  }
  const traffic = ctx.workload.traffic(ctx.workloadContext);
  const target = (baseUrl: string): LoadTarget => ({ baseUrl, requests: traffic.requests });
  const sides = await duetSides(ctx, entrants);
  if (sides.length < 2) return { duets: null, warning: null };
  const fixed = ctx.rounds;
  const { min, max } = fixed === undefined ? DUET_ROUNDS : { min: fixed, max: fixed };
  const targetPercent = runPlan(ctx.settings).ciTargetPercent;
  const started = startDuets(sides, {
    ...DUET_SHAPE,
    cpus: [String(cpus[0]), String(cpus[1])],
    rate,
    lowerRate: true,
    seed: ctx.seed,
    target,
    signal: ctx.signal,
  });
  let failure: string | null = null;
  // One more round, unless an earlier one failed; a failure (not an interrupt) ends the duets.
  const step = async (wanted?: (pair: DuetPairOutcome) => boolean) => {
    if (failure !== null) return false;
    try {
      await started.next(wanted);
      return true;
    } catch (error) {
      ctx.signal.throwIfAborted();
      failure = (error as Error).message ?? String(error);
      return false;
    }
  };
  // Each pair on while its own interval is wide: a pair already narrow, or at fault, takes no more rounds.
  const wanted = ({ outcome }: DuetPairOutcome) =>
    outcome.fault === undefined && wantsRound(outcome.rounds.length, outcome.ratio, { min, max, targetPercent });
  const duets: VariantDuets = {
    async upTo(share) {
      const due = Math.ceil(min * Math.min(1, share));
      while (started.ran < due && await step());
    },
    async finish() {
      await duets.upTo(1);
      while (started.outcomes().some(wanted) && await step(wanted));
    },
    result: () =>
      failure === null
        ? ratiosOf(name, started.outcomes())
        : { ratios: new Map(), warning: { code: "duet-not-measured", message: `${name}: ${failure}; rounds used` } },
  };
  return { duets, warning: null };
}

/**
 * A duet ratio's p-value under which its ranking stands even corrected for 50 tests at once (0.05 / 50): more rounds
 * would then narrow its interval, not change which side is leaner.
 */
export const SETTLED_P = 0.001;

/**
 * The fewest rounds after which a settled pair may stop short of the target: among four rounds one outlying round (a
 * noise one side did not share) sets the spread and moves the mean, and more rounds would dilute both.
 */
export const SETTLED_ROUNDS = 6;

/**
 * Whether a pair of a variant's duets wants another round after `ran`: until the least, then while its interval is
 * wider than the target (or it has none), up to the most; never stopping after an odd number, so that its servers have
 * been on each CPU as often. A pair whose ranking is settled ({@linkcode SETTLED_P}) after
 * {@linkcode SETTLED_ROUNDS} rounds stops early where even the most rounds would likely leave it wider than the target
 * ({@linkcode reachableHalfWidth}): those rounds would buy no ranking.
 *
 * @param ran The pair's rounds so far.
 * @param ratio Its ratio so far: the rounds it is over, its half-width in percent and p (null: none yet).
 * @param plan The least and most rounds, and the target half-width in percent.
 * @returns True when another round is due.
 *
 * @example Four rounds at least; then on while wider than ±3%, unless settled and out of reach
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { wantsRound } from "./duet_variant.ts";
 *
 * const plan = { min: 4, max: 10, targetPercent: 3 };
 * const ratio = (n: number, halfWidthPercent: number, p: number) => ({ n, halfWidthPercent, p });
 * assertEquals([wantsRound(2, ratio(2, 1, 0.01), plan), wantsRound(4, ratio(4, 2.9, 0.01), plan)], [true, false]);
 * assertEquals([wantsRound(4, ratio(4, 4, 0.01), plan), wantsRound(4, ratio(4, 4, 0.0001), plan)], [true, true]);
 * // ±8% after 6 rounds could at best be ±4% after 10: settled, it stops; a possible tie goes on.
 * assertEquals([wantsRound(6, ratio(6, 8, 0.0001), plan), wantsRound(6, ratio(6, 8, 0.01), plan)], [false, true]);
 * // ±5% after 6 could still reach ±2.5%: on; so does ±20% after 4, which may be one outlying round.
 * assertEquals([wantsRound(6, ratio(6, 5, 0.0001), plan), wantsRound(4, ratio(4, 20, 0.0001), plan)], [true, true]);
 * ```
 */
export function wantsRound(
  ran: number,
  ratio: Pick<DuetRatio, "n" | "halfWidthPercent" | "p"> | null,
  plan: { readonly min: number; readonly max: number; readonly targetPercent: number },
): boolean {
  if (ran < plan.min) return true;
  if (ran >= plan.max) return false;
  const halfWidth = ratio?.halfWidthPercent ?? null;
  if (ran % 2 === 1 || ratio === null || halfWidth === null) return true;
  if (halfWidth <= plan.targetPercent) return false;
  const settled = ratio.p !== null && ratio.p < SETTLED_P && ratio.n >= SETTLED_ROUNDS;
  return !settled || reachableHalfWidth(halfWidth, ratio.n, ratio.n + plan.max - ran) <= plan.targetPercent;
}

/** Each entrant's side of a duet, its server staged: how to start it on a CPU. Entrants without a server are left out. */
async function duetSides(ctx: DuetVariantContext, entrants: readonly DuetEntrant[]): Promise<DuetSide[]> {
  const sides: DuetSide[] = [];
  const workload = ctx.workload;
  if (workload.kind !== "http") return sides;
  for (const e of entrants) {
    const source = workload.server(e.runtime.name, ctx.variant);
    if (isSkip(source)) continue;
    const dir = `${ctx.workDir}/${sides.length}`;
    await Deno.mkdir(dir, { recursive: true });
    const staged = await stageServerFor(e.runtime, source, dir, ctx.nodeModules, ctx.signal);
    sides.push({
      name: e.id,
      async start(cpu) {
        const server = await startServer({
          runtime: e.runtime,
          file: staged.file,
          args: staged.args,
          cwd: dir,
          env: yieldToPassed(ctx.env),
          cpus: cpu,
          timeoutMs: ctx.settings.startTimeoutSec * 1000,
          signal: ctx.signal,
        });
        return {
          baseUrl: server.baseUrl,
          pid: server.group.pid,
          stop: () => server.stop(),
          exited: () => server.group.status ? serverExited(server, "measure", "a duet round").message : null,
        };
      },
      alone: () => aloneCost(e.runs?.() ?? []),
      out: () => {
        const status = e.ended?.() ?? null;
        return status === null ? null : `its record is ${status}`;
      },
    });
  }
  return sides;
}

/**
 * A record's CPU per request at the fixed rate from its runs so far, its server's and its load's (the medians); null
 * where no run measured both.
 *
 * @param runs The record's runs.
 * @returns The cost alone, or null.
 *
 * @example
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { aloneCost } from "./duet_variant.ts";
 *
 * const run = (serverUs: number) => ({ figures: { serverCpuUsPerRequestAtRate: serverUs, clientCpuUsPerResponseAtRate: 39 } });
 * assertEquals(aloneCost([run(28), run(30), run(27)]), { serverUs: 28, engineUs: 39 });
 * assertEquals(aloneCost([{ figures: { requestsPerSecond: 9 } }]), null);
 * ```
 */
export function aloneCost(runs: readonly Pick<RunRecord, "figures">[]): AloneCost | null {
  const measured = runs.filter((r) =>
    r.figures.serverCpuUsPerRequestAtRate !== undefined && r.figures.clientCpuUsPerResponseAtRate !== undefined
  );
  if (measured.length === 0) return null;
  return {
    serverUs: median(measured.map((r) => r.figures.serverCpuUsPerRequestAtRate)),
    engineUs: median(measured.map((r) => r.figures.clientCpuUsPerResponseAtRate)),
  };
}

/** Each record's duet ratios from its pairs' rounds so far, and a warning naming the pairs that have none. */
function ratiosOf(
  name: string,
  pairs: readonly DuetPairOutcome[],
): { ratios: Map<string, DuetRatioRecord[]>; warning: Warning | null } {
  const ratios = new Map<string, DuetRatioRecord[]>();
  const unmeasured: string[] = [];
  for (const { a, b, outcome } of pairs) {
    if (!outcome.ratio) {
      unmeasured.push(`${a} and ${b} (${outcome.fault ?? whyNoRatio(outcome.rounds)})`);
      continue;
    }
    const figure = "serverCpuUsPerRequestAtRate";
    const rate = outcome.rate;
    ratios.set(a, [...ratios.get(a) ?? [], duetRecord(b, figure, rate, outcome.ratio, outcome.windows, false)]);
    ratios.set(b, [...ratios.get(b) ?? [], duetRecord(a, figure, rate, outcome.ratio, outcome.windows, true)]);
  }
  if (unmeasured.length === 0) return { ratios, warning: null };
  return {
    ratios,
    warning: {
      code: "duet-not-measured",
      message: `${name}: no duet ratio for ${unmeasured.join("; ")}: their rounds used`,
    },
  };
}

/** Why no round of a duet added a window, in words. */
function whyNoRatio(rounds: readonly DuetRound[]): string {
  const busiest = Math.max(...rounds.flatMap((r) => r.busy ?? []));
  if (rounds.some((r) => r.busy?.some((b) => b >= AT_LIMIT))) {
    return `the servers or the loads used up to ${Math.round(busiest * 100)}% of their CPU at this rate, over the ` +
      `${Math.round(AT_LIMIT * 100)}% where they compete; a lower --cpu-rate fits`;
  }
  return rounds.some((r) => !r.held) ? "a side did not hold the rate" : "no CPU counter was read";
}

/** One side's record of a duet ratio: A's as measured, B's the reciprocal (both servers shared each placement). */
function duetRecord(
  against: string,
  figure: string,
  rate: number,
  r: DuetRatio,
  windows: readonly DuetWindow[],
  reciprocal: boolean,
): DuetRatioRecord {
  const flip = (x: number) => reciprocal ? 1 / x : x;
  const round6 = (x: number) => Math.round(x * 1e6) / 1e6;
  return {
    pairing: "duet",
    against,
    figure,
    ratePerSecond: rate,
    windowMs: DUET_SHAPE.windowMs,
    ratio: round6(flip(r.ratio)),
    ci95: r.ci95
      ? {
        low: round6(reciprocal ? 1 / r.ci95.high : r.ci95.low),
        high: round6(reciprocal ? 1 / r.ci95.low : r.ci95.high),
      }
      : null,
    halfWidthPercent: r.halfWidthPercent === null ? null : round6(r.halfWidthPercent),
    placementBias: r.placementBias === null ? null : round6(flip(r.placementBias)),
    windows: windows.map((w) => {
      const ratio = (w.aCpuUs / w.aAnswered) / (w.bCpuUs / w.bAnswered);
      return {
        round: w.round,
        placement: w.placement,
        ratio: round6(flip(ratio)),
        ...(w.startMs !== undefined ? { startedAt: new Date(w.startMs).toISOString() } : {}),
      };
    }),
  };
}
