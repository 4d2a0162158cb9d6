/**
 * Duet pairing (`--pairing duet`) of servers' CPU per request at a fixed rate: two servers up at once, loaded at the
 * same rate in the same seconds by an engine process each, and each one's CPU time read from its own counter over the
 * same short windows (see `runners/stats/duet.ts` for the ratio).
 *
 * A pair's round starts a fresh server of each side, both on one CPU, with the engines and the CPU meters' helpers on
 * the other: whatever changes how that CPU spends itself on a request (how many requests a wake-up serves, a
 * neighbour, the host) comes to both servers in the same seconds. Both are loaded from their warm-up to their last
 * window without a pause: a server left idle for two seconds (Node.js's) cost up to half as much again per request for
 * the next second and a half, so servers are not kept from one pair to the next. With more than two sides every pair
 * is measured, every pair's k-th round before any pair's next and the pairs in a random order each time; between
 * rounds the CPUs swap roles, balanced in blocks of two rounds in a random order (RMIT). A round runs at a time
 * ({@linkcode startDuets}), so that a suite can alternate duet rounds with its other rounds and stop once every pair's
 * interval is narrow enough.
 *
 * @module
 */

import {
  type CpuMeter,
  engineGenerator,
  type LoadGenerator,
  type LoadMeasurement,
  type LoadTarget,
  startCpuMeter,
} from "../drivers/mod.ts";
import {
  AT_LIMIT,
  type CounterReading,
  duetPairs,
  duetPlacements,
  type DuetRatio,
  duetRatio,
  type DuetSideWindows,
  type DuetWindow,
  seededRandom,
  shuffled,
  sideWindows,
} from "../stats/mod.ts";
import { judgeHttpRun, PhaseError } from "../kinds/mod.ts";

/** One side of a duet: how to start its server on a CPU. */
export interface DuetSide {
  /** Its name (a runtime, or an arm of an A/A run). */
  readonly name: string;
  /** Starts its server pinned to `cpu`; `pid` leads the server's session (its process tree). */
  start(cpu: string): Promise<DuetServer>;
  /** Its CPU per request at the rate measured alone so far, where known: see {@linkcode fittedRate}. */
  alone?(): AloneCost | null;
  /** Why it takes no more rounds, where something outside the duet has ended it (its record failed); else null. */
  out?(): string | null;
}

/** A side's CPU per request at a fixed rate measured alone (the rounds mode's window): its server's and its load's. */
export interface AloneCost {
  /** The server's, µs. */
  readonly serverUs: number;
  /** The engine's, µs per response. */
  readonly engineUs: number;
}

/** A duet side's running server. */
export interface DuetServer {
  /** For example `http://127.0.0.1:41234`. */
  readonly baseUrl: string;
  /** The session leader of its process tree. */
  readonly pid: number;
  /** Stops it and everything it started. */
  stop(): Promise<void>;
  /** How it exited, where it has (a crash under load), with its last output; else null. */
  exited?(): string | null;
}

/** Options of {@linkcode startDuets} and {@linkcode runDuet}. */
export interface DuetOptions {
  /** The two CPUs, for example `["0", "1"]`: the servers on one, the engines on the other, swapping each round. */
  readonly cpus: readonly [string, string];
  /** Requests per second each server is loaded at. */
  readonly rate: number;
  /** Milliseconds of each paired window. @default {500} */
  readonly windowMs?: number;
  /** Windows per pair and round. @default {2} */
  readonly windowsPerRound?: number;
  /** Rounds of {@linkcode runDuet} (balanced between the two CPUs when even). @default {4} */
  readonly rounds?: number;
  /** Seconds of warm-up at the rate of a pair's fresh servers before its windows. @default {duetWarmupSec(rate)} */
  readonly warmupSec?: number;
  /** Connections per engine. @default {50} */
  readonly connections?: number;
  /** The share of a CPU its servers, or its engines, may use together in a pair's windows that count. @default {0.9} */
  readonly busyLimit?: number;
  /**
   * After a round where a pair's servers or engines used their CPU past `busyLimit` before the pair kept any window, run
   * its later rounds at a rate where the busier CPU is used at two thirds of that (see {@linkcode loweredRate}); and
   * start a pair whose sides know their cost alone at the rate they would fit at ({@linkcode fittedRate}).
   * @default {false}
   */
  readonly lowerRate?: boolean;
  /** Seed of the order of placements and pairs. @default {1} */
  readonly seed?: number;
  /** The requests, with the responses they must get. */
  readonly target: (baseUrl: string) => LoadTarget;
  /** The load generator (it must send at a fixed rate). @default {the engine} */
  readonly generator?: LoadGenerator;
  /** Stops everything when aborted. */
  readonly signal?: AbortSignal;
}

/** One pair's part of a round: its placement and each side's load, latency included (kept, not used to rank). */
export interface DuetRound {
  /** The round, from 0. */
  readonly round: number;
  /** 0: the servers on the first CPU; 1: on the second. */
  readonly placement: 0 | 1;
  /** Requests per second each server was loaded at. */
  readonly rate: number;
  /** Side A's load over the pair's windows. */
  readonly a: LoadMeasurement;
  /** Side B's. */
  readonly b: LoadMeasurement;
  /**
   * Whether both held the rate (at least 95% of it answered validly, no timeout) and neither was at fault
   * ({@linkcode DuetOutcome.fault}); a round that did not adds no window.
   */
  readonly held: boolean;
  /**
   * How much of each CPU the pair used over its windows: its two servers' CPU, then its two engines', where both were
   * read. A CPU at {@linkcode AT_LIMIT} or more adds no window: what runs on it competes for it, which changes a
   * server's CPU per request, so the pair is not comparable.
   */
  readonly busy: readonly [number, number] | null;
}

/** What a duet of one pair measured. */
export interface DuetOutcome {
  /** Side A's CPU per request over side B's, from the windows of the rounds that held the rate. */
  readonly ratio: DuetRatio | null;
  /** The rate of those windows: the one asked for, or lower where {@linkcode DuetOptions.lowerRate} lowered it. */
  readonly rate: number;
  /** Every paired window. */
  readonly windows: readonly DuetWindow[];
  /** Every round. */
  readonly rounds: readonly DuetRound[];
  /**
   * Why the pair took no more rounds and has no ratio, where a side was at fault: it answered wrongly or not at all in
   * a round, its server exited, or it is out ({@linkcode DuetSide.out}); the side's name first.
   */
  readonly fault?: string;
}

/** One pair of a duet's sides (named), and what its rounds so far measured. */
export interface DuetPairOutcome {
  /** Side A's name. */
  readonly a: string;
  /** Side B's. */
  readonly b: string;
  /** A's CPU per request over B's, its windows and rounds. */
  readonly outcome: DuetOutcome;
}

/** Duets of every pair of some sides, whose rounds run one at a time. */
export interface Duets {
  /** Rounds run so far. */
  readonly ran: number;
  /**
   * Runs one more round: every pair `wanted` picks (all by default) in duet, in a random order, each on two fresh
   * servers. A pair left out of a round takes no later one: its rounds stay the first ones, balanced in blocks of two.
   */
  next(wanted?: (pair: DuetPairOutcome) => boolean): Promise<void>;
  /** What the rounds run so far measured, a pair at a time. */
  outcomes(): DuetPairOutcome[];
}

/** Whether a fixed-rate load held its rate: 95% answered validly (as the rounds mode's window), none timed out. */
function heldRate(m: LoadMeasurement, rate: number): boolean {
  const phases = m.phases ?? [];
  return phases.length > 0 && Math.min(...phases.map((p) => p.achievedRate)) >= 0.95 * rate && m.timeouts === 0;
}

/**
 * Why a side's round shows its server at fault, or null: it exited, or its load broke the rules a run of the rounds
 * mode is judged by (a wrong answer, one nobody asked for, none valid): the pair's windows would count unverified work.
 */
function sideFault(server: DuetServer, load: LoadMeasurement, generator: string): string | null {
  const exited = server.exited?.() ?? null;
  if (exited !== null) return exited;
  try {
    const { invalid } = judgeHttpRun(load, [load], 0, generator);
    return invalid === null ? null : `answered wrongly in a duet round: ${invalid}`;
  } catch (error) {
    // No valid response at all: the one failure the verdict throws.
    if (!(error instanceof PhaseError)) throw error;
    return `${error.message} in a duet round`;
  }
}

/** A pair's state across rounds. */
interface PairState {
  readonly a: number;
  readonly b: number;
  rate: number;
  readonly windows: DuetWindow[];
  readonly rounds: DuetRound[];
}

/**
 * Duets of every pair of `sides`, their rounds not yet run; see the module documentation.
 *
 * @param sides Two sides or more (every pair is measured).
 * @param options Rate, windows, CPUs and load.
 * @returns The duets: {@linkcode Duets.next} runs a round, {@linkcode Duets.outcomes} reads each pair's ratio so far.
 *
 * @example Three servers at 2,000/s each, a round at a time
 * ```ts ignore
 * import { startDuets } from "./duet.ts";
 * const duets = startDuets([deno, node, bun], { cpus: ["0", "1"], rate: 2_000, target: (baseUrl) => ({ baseUrl, requests }) });
 * for (let i = 0; i < 6; i++) await duets.next();
 * for (const { a, b, outcome } of duets.outcomes()) console.log(a, b, outcome.ratio?.ratio);
 * ```
 */
export function startDuets(sides: readonly DuetSide[], options: DuetOptions): Duets {
  if (sides.length < 2) throw new RangeError(`Cannot run a duet: ${sides.length} side given, two at least`);
  const random = seededRandom(options.seed ?? 1);
  const pairs: PairState[] = duetPairs(sides.map((_, i) => i), random).map(([a, b]) => ({
    a,
    b,
    rate: options.rate,
    windows: [],
    rounds: [],
  }));
  const placements: (0 | 1)[] = [];
  // Each side at fault, by index: the first reason stays.
  const faults = new Map<number, string>();
  const blame = (side: number, why: string | null) => {
    if (why !== null && !faults.has(side)) faults.set(side, `${sides[side].name}: ${why}`);
  };
  const faultOf = (side: number): string | undefined => {
    blame(side, sides[side].out?.() ?? null);
    return faults.get(side);
  };
  let ran = 0;
  const outcomeOf = (p: PairState): DuetPairOutcome => {
    const fault = faultOf(p.a) ?? faultOf(p.b);
    const ratio = fault === undefined ? duetRatio(p.windows) : null;
    const outcome = { ratio, rate: p.rate, windows: [...p.windows], rounds: [...p.rounds] };
    return { a: sides[p.a].name, b: sides[p.b].name, outcome: fault === undefined ? outcome : { ...outcome, fault } };
  };
  return {
    get ran() {
      return ran;
    },
    async next(wanted) {
      options.signal?.throwIfAborted();
      const round = ran++;
      // Balanced in blocks of two, so that a duet stopped after any even number of rounds has as many of each.
      if (placements.length <= round) placements.push(...duetPlacements(2, random));
      // A pair that missed a round has stopped: one round fewer than the rounds before this one.
      const going = pairs.filter((p) => {
        const outcome = outcomeOf(p);
        return p.rounds.length === round && outcome.outcome.fault === undefined && (!wanted || wanted(outcome));
      });
      // The pairs in a random order each round (RMIT over pairs), each with fresh servers.
      for (const pair of shuffled(pairs, random).filter((p) => going.includes(p))) {
        options.signal?.throwIfAborted();
        // A side found at fault earlier in this round takes no more of it.
        if (faults.has(pair.a) || faults.has(pair.b)) continue;
        if (round === 0 && options.lowerRate) {
          pair.rate = fittedRate(pair.rate, sides[pair.a].alone?.() ?? null, sides[pair.b].alone?.() ?? null, options);
        }
        const ran = await runPair([sides[pair.a], sides[pair.b]], pair.rate, placements[round], options).catch((e) => {
          if (!(e instanceof NotStarted)) throw e;
          blame(e.side === 0 ? pair.a : pair.b, e.message);
          return null;
        });
        if (ran === null) continue;
        blame(pair.a, ran.a.fault);
        blame(pair.b, ran.b.fault);
        judgePair(pair, round, placements[round], ran.a, ran.b, options);
      }
    },
    outcomes: () => pairs.map(outcomeOf),
  };
}

/** A side of a pair whose server did not start for its round: a fault of that side, not of the duet. */
class NotStarted extends Error {
  constructor(readonly side: 0 | 1, message: string) {
    super(message);
  }
}

/** One side's part of a pair's round: its load, its server's counter readings and why it is at fault, if it is. */
interface SideRun {
  readonly load: LoadMeasurement;
  readonly readings: readonly CounterReading[];
  readonly fault: string | null;
}

/**
 * The engine's settings for a pair's round: the warm-up, one phase per window (so that the engine counts what it
 * answered in each), then half a window not counted: the two engines start a few ms apart, and each counted window
 * ends with both loads still running.
 */
function pairLoad(
  options: Pick<DuetOptions, "windowMs" | "windowsPerRound" | "warmupSec" | "connections">,
  rate: number,
) {
  const windowMs = options.windowMs ?? 500;
  const perRound = options.windowsPerRound ?? 2;
  const guardMs = Math.round(windowMs / 2);
  return {
    rate,
    phases: [...Array.from({ length: perRound }, () => `${windowMs}ms@${rate}`), `${guardMs}ms@${rate}`].join(","),
    durationSec: (windowMs * perRound + guardMs) / 1000,
    warmupSec: options.warmupSec ?? duetWarmupSec(rate),
    connections: options.connections ?? 50,
    pipelining: 1,
    requestTimeoutSec: 2,
  };
}

/**
 * Requests a fresh server answers in its warm-up before it is measured: Node.js 26 spent 1.85–2.3 times its settled CPU
 * per request in one window after about 17,000–19,000 requests, at 5,000, 9,500 and 14,000/s alike, so the warm-up is
 * a count of requests, not a time.
 */
export const DUET_WARMUP_REQUESTS = 20_000;

/**
 * Seconds of a pair's warm-up at `rate`: {@linkcode DUET_WARMUP_REQUESTS} at the rate, then 0.75 s to settle (at every
 * rate measured, Node.js's windows were within ±5% of its last from 0.5–0.75 s after that stretch), at most 10 s.
 *
 * @param rate Requests per second each server is loaded at.
 * @returns Seconds.
 *
 * @example 2.86 s at 9,500/s; 4.75 s at 5,000/s, where a fixed 3 s would count Node.js's costly window
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { duetWarmupSec } from "./duet.ts";
 *
 * assertEquals([duetWarmupSec(9_500), duetWarmupSec(5_000), duetWarmupSec(40_000), duetWarmupSec(500)], [2.86, 4.75, 1.25, 10]);
 * ```
 */
export function duetWarmupSec(rate: number): number {
  return Math.min(10, Math.round((0.75 + DUET_WARMUP_REQUESTS / rate) * 100) / 100);
}

/**
 * Seconds of load in a pair's round at `rate`: its warm-up, its windows and the half window not counted.
 *
 * @param options The round's shape (the defaults of {@linkcode DuetOptions} where absent).
 * @param rate Requests per second each server is loaded at.
 * @returns Seconds.
 *
 * @example The defaults at 10,000/s: 2.75 s of warm-up, 2 windows of 500 ms and 250 ms more
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { pairRoundSec } from "./duet.ts";
 *
 * assertEquals(pairRoundSec({}, 10_000), 4);
 * ```
 */
export function pairRoundSec(
  options: Pick<DuetOptions, "windowMs" | "windowsPerRound" | "warmupSec">,
  rate: number,
): number {
  const load = pairLoad(options, rate);
  return load.warmupSec + load.durationSec;
}

/**
 * One pair's round: both servers started on one CPU, both loads and meters on the other, loaded together from the
 * warm-up to the last window (a server left idle for seconds, Node.js's at least, costs more per request after).
 */
async function runPair(
  sides: readonly [DuetSide, DuetSide],
  rate: number,
  placement: 0 | 1,
  options: DuetOptions,
): Promise<{ a: SideRun; b: SideRun }> {
  const [serverCpu, engineCpu] = [options.cpus[placement], options.cpus[1 - placement]];
  const generator = options.generator ?? engineGenerator;
  const servers: DuetServer[] = [];
  const meters: (CpuMeter | null)[] = [];
  try {
    for (const [i, side] of sides.entries()) {
      try {
        servers.push(await side.start(serverCpu));
      } catch (error) {
        options.signal?.throwIfAborted();
        throw new NotStarted(i as 0 | 1, `did not start for a duet round: ${(error as Error).message ?? error}`);
      }
    }
    // Each meter's helper beside the engines: the same for both sides.
    for (const s of servers) meters.push(await startCpuMeter({ server: s.pid, cpus: engineCpu }));
    const load = pairLoad(options, rate);
    const [la, lb] = await Promise.all(
      servers.map((s) => generator.run(options.target(s.baseUrl), load, { cpus: engineCpu, signal: options.signal })),
    );
    await Promise.all(meters.map((m) => m?.stop(undefined)));
    const [ra, rb] = meters.splice(0).map((m) => m?.serverReadings ?? []);
    const [fa, fb] = [sideFault(servers[0], la, generator.name), sideFault(servers[1], lb, generator.name)];
    return { a: { load: la, readings: ra, fault: fa }, b: { load: lb, readings: rb, fault: fb } };
  } finally {
    await Promise.all(meters.map((m) => m?.stop(undefined).catch(() => {})));
    await Promise.all(servers.map((s) => s.stop()));
  }
}

/** A pair's round judged: its windows kept where both sides held the rate and neither CPU was at its limit. */
function judgePair(pair: PairState, round: number, placement: 0 | 1, a: SideRun, b: SideRun, options: DuetOptions) {
  const perRound = options.windowsPerRound ?? 2;
  const limit = options.busyLimit ?? AT_LIMIT;
  const rate = pair.rate;
  const held = heldRate(a.load, rate) && heldRate(b.load, rate) && a.fault === null && b.fault === null;
  // Each side cut at its own load's phases (the same seconds but for the engines' start), over what it answered.
  const paired = a.readings.length === 0 || b.readings.length === 0
    ? []
    : sideWindows(sideOf(a.readings, a.load, perRound), sideOf(b.readings, b.load, perRound), round, placement);
  const busy = cpusBusy(paired, options.windowMs ?? 500, a.load, b.load);
  pair.rounds.push({ round, placement, rate, a: a.load, b: b.load, held, busy });
  const busiest = busy === null ? 0 : Math.max(...busy);
  const lower = options.lowerRate ? loweredRate(rate, busiest, limit, pair.windows.length) : null;
  if (lower !== null) pair.rate = lower;
  if (held && busy !== null && busiest < limit) pair.windows.push(...paired);
}

/**
 * The rate a pair goes on at after a round whose busier CPU was used `busiest` (0–1), past `limit`: where that CPU is
 * used at two thirds of the limit, in hundreds. Null where the round was under the limit, no lower rate is left, or the
 * pair has kept windows already: on a noisy machine a crowded round comes now and then, and lowering then would throw
 * the rounds before it away (one rate for every window of a ratio).
 *
 * @param rate The round's rate.
 * @param busiest Its busier CPU's share.
 * @param limit The share where what runs on a CPU competes for it.
 * @param kept Windows the pair has kept so far.
 * @returns The lower rate, or null.
 *
 * @example Servers at 95% of their CPU at 20,000/s: on at 12,600/s, where they use 60%; not once windows are kept
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { loweredRate } from "./duet.ts";
 *
 * assertEquals([loweredRate(20_000, 0.95, 0.9, 0), loweredRate(20_000, 0.85, 0.9, 0)], [12_600, null]);
 * assertEquals(loweredRate(20_000, 0.95, 0.9, 4), null);
 * ```
 */
export function loweredRate(rate: number, busiest: number, limit: number, kept: number): number | null {
  if (busiest < limit || kept > 0) return null;
  const lower = Math.floor(rate * (2 / 3) * limit / busiest / 100) * 100;
  return lower >= 100 && lower < rate ? lower : null;
}

/**
 * The rate a pair's first round runs at: `rate`, or lower where, at the CPU per request each side measured alone, its
 * two servers or its two engines would use their CPU together past the limit ({@linkcode loweredRate}). Without it a
 * 2-core machine's first round at the default rate comes out crowded and is thrown away, and the pair's kept rounds then
 * start on one CPU: one round of each pair lost, and its placements uneven.
 *
 * @param rate The rate asked for.
 * @param a Side A alone (null: not known, the rate asked for).
 * @param b Side B alone.
 * @param options The limit ({@linkcode DuetOptions.busyLimit}).
 * @returns Requests per second.
 *
 * @example Servers of 28 and 46 µs a request, engines of 39 and 36 µs: at 20,000/s the engines would need 1.5 CPUs
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { fittedRate } from "./duet.ts";
 *
 * const [deno, node] = [{ serverUs: 28, engineUs: 39 }, { serverUs: 46, engineUs: 36 }];
 * assertEquals([fittedRate(20_000, deno, node, {}), fittedRate(5_000, deno, node, {}), fittedRate(20_000, deno, null, {})], [8_000, 5_000, 20_000]);
 * ```
 */
export function fittedRate(
  rate: number,
  a: AloneCost | null,
  b: AloneCost | null,
  options: Pick<DuetOptions, "busyLimit">,
): number {
  if (!a || !b) return rate;
  const busiest = rate / 1e6 * Math.max(a.serverUs + b.serverUs, a.engineUs + b.engineUs);
  return loweredRate(rate, busiest, options.busyLimit ?? AT_LIMIT, 0) ?? rate;
}

/**
 * Runs a duet of `a` and `b` over {@linkcode DuetOptions.rounds} rounds; see the module documentation.
 *
 * @param a One side.
 * @param b The other.
 * @param options Rate, windows, rounds, CPUs and load.
 * @returns The ratio of A's CPU per request over B's, the windows and the rounds.
 *
 * @example Two servers at 2,000/s each
 * ```ts ignore
 * import { runDuet } from "./duet.ts";
 * const outcome = await runDuet(deno, node, { cpus: ["0", "1"], rate: 2_000, target: (baseUrl) => ({ baseUrl, requests }) });
 * console.log(outcome.ratio?.ratio, outcome.ratio?.halfWidthPercent);
 * ```
 */
export async function runDuet(a: DuetSide, b: DuetSide, options: DuetOptions): Promise<DuetOutcome> {
  const duets = startDuets([a, b], options);
  for (let i = 0; i < (options.rounds ?? 4); i++) await duets.next();
  const [only] = duets.outcomes();
  // The pair's sides may come out in either order: A's ratio over B's is asked for.
  return only.a === a.name ? only.outcome : reversed(only.outcome);
}

/** A pair's outcome with its sides the other way round. */
function reversed(o: DuetOutcome): DuetOutcome {
  const windows = o.windows.map((w) => ({
    ...w,
    aCpuUs: w.bCpuUs,
    bCpuUs: w.aCpuUs,
    aAnswered: w.bAnswered,
    bAnswered: w.aAnswered,
  }));
  // A pair without a ratio (at fault) has none either way round.
  const ratio = o.ratio && duetRatio(windows);
  return { ...o, ratio, windows, rounds: o.rounds.map((r) => ({ ...r, a: r.b, b: r.a })) };
}

/**
 * The share of their CPU a pair's two servers used over `windows`, then the share of theirs its two engines used; null
 * where an engine's CPU is unknown.
 *
 * @param windows A pair's windows of one round.
 * @param windowMs Each window's length.
 * @param a Side A's load over the round (its engine's own CPU).
 * @param b Side B's.
 * @returns The servers' CPU share, then the engines' (1 is the whole CPU).
 *
 * @example 28 µs a request in one server, 14.5 in the other, at 20,000/s
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { cpusBusy } from "./duet.ts";
 *
 * const window = { round: 0, placement: 0 as const, aCpuUs: 280_000, bCpuUs: 145_000, aAnswered: 10_000, bAnswered: 10_000 };
 * const load = (clientCpuPercent: number) => ({ clientCpuPercent }) as never;
 * assertEquals(cpusBusy([window, window], 500, load(52), load(26))?.map((x) => x.toFixed(2)), ["0.85", "0.78"]);
 * ```
 */
export function cpusBusy(
  windows: readonly DuetWindow[],
  windowMs: number,
  a: LoadMeasurement,
  b: LoadMeasurement,
): readonly [number, number] | null {
  if (windows.length === 0 || a.clientCpuPercent === null || b.clientCpuPercent === null) return null;
  const spanUs = windows.length * windowMs * 1000;
  const servers = windows.reduce((t, w) => t + w.aCpuUs + w.bCpuUs, 0) / spanUs;
  return [servers, (a.clientCpuPercent + b.clientCpuPercent) / 100];
}

/** A side's windows: its load's first `counted` phases, from the start of its measured window, with what each answered. */
function sideOf(readings: readonly CounterReading[], m: LoadMeasurement, counted: number): DuetSideWindows {
  const start = m.windowStartMs ?? Date.now() - m.durationMs;
  const phases = (m.phases ?? []).slice(0, counted);
  const edgesMs = [start];
  for (const p of phases) edgesMs.push(edgesMs.at(-1)! + p.durationMs);
  return { readings, edgesMs, answered: phases.map((p) => p.responses) };
}
