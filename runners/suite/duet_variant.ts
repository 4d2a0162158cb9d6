/**
 * `--pairing duet` for one workload × variant: every pair of its runtimes measured in duet at the variant's fixed rate
 * (`--cpu-rate`; see `duet.ts`). The duet rounds run one at a time, every pair's k-th round before any pair's next, the
 * pairs in a random order each time, so that the variant can alternate them with its own rounds. Each record gets one
 * {@linkcode DuetRatioRecord} per other runtime: its server's CPU per request over the other's, from the windows they
 * shared. HTTP workloads only (others keep their rounds), with a fixed rate and two CPUs to give the two servers; a
 * warning says why an HTTP variant has none.
 *
 * @module
 */

import type { ResolvedRuntime } from "../../adapters/mod.ts";
import { isSkip, type Workload, type WorkloadContext } from "../../workloads/mod.ts";
import type { LoadTarget } from "../drivers/mod.ts";
import { stageServerFor, startServer } from "../kinds/mod.ts";
import { parseCpuList, yieldToPassed } from "../platform/mod.ts";
import type { CpuSets, DuetRatioRecord, RunSettings, Warning } from "../schema/mod.ts";
import { AT_LIMIT, duetPairs, type DuetRatio, type DuetWindow, seededRandom, shuffled } from "../stats/mod.ts";
import { type Duet, type DuetRound, type DuetSide, startDuet } from "./duet.ts";

/** One record of the variant taking part: its id and runtime. */
export interface DuetEntrant {
  /** The record's id. */
  readonly id: string;
  /** Its runtime, as found. */
  readonly runtime: ResolvedRuntime;
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
  /** Rounds per pair. @default {DUET_SHAPE.rounds} */
  readonly rounds?: number;
  /** Interrupts. */
  readonly signal: AbortSignal;
}

/**
 * Rounds of 2 windows of 500 ms after a 3 s warm-up, 10 rounds: a round's fresh servers have a level of their own
 * (each round is one sample). After 1.5 s at 12,000/s Node.js still spent 1.3–1.6× per request in the first window
 * what it spent in the second, which took deno/node from 0.51 to 0.43–0.45; after 3 s the two windows agree. About 50 s
 * a pair with the servers' starts.
 */
const DUET_SHAPE = { windowMs: 500, windowsPerRound: 2, rounds: 10, warmupSec: 3 } as const;

/** A variant's duets, their rounds not yet run. */
export interface VariantDuets {
  /** Duet rounds in all, every pair's. */
  readonly rounds: number;
  /**
   * Runs the next duet round; false when every one has run. A round that fails (not an interrupt) ends the duets: the
   * result is then a warning saying why, and no ratio.
   */
  next(): Promise<boolean>;
  /** Runs the rounds due once `share` (0–1) of the variant's own rounds have run, so that the two modes alternate. */
  upTo(share: number): Promise<void>;
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
 * while (await duets?.next());
 * const { ratios, warning } = duets!.result();
 * ```
 */
export async function planDuets(
  ctx: DuetVariantContext,
  entrants: readonly DuetEntrant[],
): Promise<{ duets: VariantDuets | null; warning: Warning | null }> {
  const name = `${ctx.workload.name}/${ctx.variant}`;
  const why = (message: string) => ({
    duets: null,
    warning: { code: "duet-not-measured", message: `${name}: ${message}` },
  });
  const rate = ctx.settings.cpuRate;
  // Duet pairs HTTP servers' CPU per request: other kinds keep their rounds, as their records' pairing says.
  if (ctx.workload.kind !== "http") return { duets: null, warning: null };
  if (!rate) return why("duet pairing needs a fixed rate (--cpu-rate); rounds used");
  if (entrants.length < 2) return { duets: null, warning: null };
  const cpus = [ctx.cpus.server, ctx.cpus.client].map((list) => list === null ? null : parseCpuList(list)[0]);
  if (cpus[0] === null || cpus[1] === null || cpus[0] === undefined || cpus[1] === undefined) {
    return why("duet pairing needs two CPUs to pin the two servers to (no taskset, or one CPU); rounds used");
  }
  const traffic = ctx.workload.traffic(ctx.workloadContext);
  const target = (baseUrl: string): LoadTarget => ({ baseUrl, requests: traffic.requests });
  const sides = await duetSides(ctx, entrants);
  const random = seededRandom(ctx.seed);
  const rounds = ctx.rounds ?? DUET_SHAPE.rounds;
  const pairs = duetPairs([...sides.keys()], random).map(([a, b]) => ({
    a,
    b,
    duet: startDuet(sides.get(a)!, sides.get(b)!, {
      ...DUET_SHAPE,
      rounds,
      cpus: [String(cpus[0]), String(cpus[1])],
      rate,
      lowerRate: true,
      seed: Math.floor(random() * 2 ** 31),
      target,
      signal: ctx.signal,
    }),
  }));
  // Every pair's k-th round before any pair's next, the pairs in a random order each time (RMIT).
  const queue = Array.from({ length: rounds }, () => shuffled(pairs, random)).flat();
  const total = queue.length;
  let failure: string | null = null;
  const duets: VariantDuets = {
    rounds: total,
    async next() {
      const pair = queue.shift();
      if (!pair) return false;
      try {
        await pair.duet.next();
        return true;
      } catch (error) {
        ctx.signal.throwIfAborted();
        failure = (error as Error).message ?? String(error);
        queue.length = 0;
        return false;
      }
    },
    async upTo(share) {
      const due = Math.ceil(total * Math.min(1, share));
      while (total - queue.length < due && await duets.next());
    },
    result: () =>
      failure === null ? ratiosOf(name, pairs) : { ratios: new Map(), warning: why(`${failure}; rounds used`).warning },
  };
  return { duets, warning: null };
}

/** Each entrant's side of a duet, its server staged: how to start it on a CPU. Entrants without a server are left out. */
async function duetSides(ctx: DuetVariantContext, entrants: readonly DuetEntrant[]): Promise<Map<string, DuetSide>> {
  const sides = new Map<string, DuetSide>();
  const workload = ctx.workload;
  if (workload.kind !== "http") return sides;
  for (const e of entrants) {
    const source = workload.server(e.runtime.name, ctx.variant);
    if (isSkip(source)) continue;
    const dir = `${ctx.workDir}/${sides.size}`;
    await Deno.mkdir(dir, { recursive: true });
    const staged = await stageServerFor(e.runtime, source, dir, ctx.nodeModules, ctx.signal);
    sides.set(e.id, {
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
        return { baseUrl: server.baseUrl, pid: server.group.pid, stop: () => server.stop() };
      },
    });
  }
  return sides;
}

/** Each record's duet ratios from its pairs' rounds so far, and a warning naming the pairs that have none. */
function ratiosOf(
  name: string,
  pairs: readonly { a: string; b: string; duet: Duet }[],
): { ratios: Map<string, DuetRatioRecord[]>; warning: Warning | null } {
  const ratios = new Map<string, DuetRatioRecord[]>();
  const unmeasured: string[] = [];
  for (const { a, b, duet } of pairs) {
    const outcome = duet.outcome();
    if (!outcome.ratio) {
      unmeasured.push(`${a} and ${b} (${whyNoRatio(outcome.rounds)})`);
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

/** One side's record of a duet ratio: A's as measured, B's the reciprocal, with the placements turned round. */
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
        placement: (reciprocal ? 1 - w.placement : w.placement) as 0 | 1,
        ratio: round6(flip(ratio)),
        ...(w.startMs !== undefined ? { startedAt: new Date(w.startMs).toISOString() } : {}),
      };
    }),
  };
}
