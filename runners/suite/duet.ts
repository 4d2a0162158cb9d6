/**
 * Duet pairing (`--pairing duet`) of two servers' CPU per request at a fixed rate: both up at once, each loaded at the
 * same rate in the same seconds by an engine process of its own, and each one's CPU time read from its own counter over
 * the same short windows (see `runners/stats/duet.ts` for the ratio). Between rounds the servers are started afresh
 * and the CPUs swap roles, in a balanced random order of placements. A round runs at a time ({@linkcode startDuet}), so
 * that a suite can alternate duet rounds with its other rounds.
 *
 * Placement on two CPUs: `split` (the default) pins both servers to one CPU and both engines to the other, so that
 * whatever changes how a server's CPU spends itself (wake-ups, batching, a neighbour) comes to both servers at once;
 * `same` runs each side's engine beside its own server; `cross` each side's engine on the other side's CPU. With `same`
 * each server settles for seconds into a regime of its own with its engine (a wake-up a request or batches), which
 * pairing cannot cancel (docs/results.md, "Paired rounds and the noise floor", has the A/A floors of both). `cross` is not symmetric between two runtimes: the engine loading the costlier server
 * costs more and lands on the other server's CPU.
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
  duetPlacements,
  type DuetRatio,
  duetRatio,
  type DuetSideWindows,
  type DuetWindow,
  seededRandom,
  sideWindows,
} from "../stats/mod.ts";

/** One side of a duet: how to start its server on a CPU. */
export interface DuetSide {
  /** Its name (a runtime, or an arm of an A/A run). */
  readonly name: string;
  /** Starts its server pinned to `cpu`; `pid` leads the server's session (its process tree). */
  start(cpu: string): Promise<DuetServer>;
}

/** A duet side's running server. */
export interface DuetServer {
  /** For example `http://127.0.0.1:41234`. */
  readonly baseUrl: string;
  /** The session leader of its process tree. */
  readonly pid: number;
  /** Stops it and everything it started. */
  stop(): Promise<void>;
}

/** Options of {@linkcode runDuet}. */
export interface DuetOptions {
  /** The two CPUs, for example `["0", "1"]`. */
  readonly cpus: readonly [string, string];
  /** Requests per second each server is loaded at. */
  readonly rate: number;
  /** Milliseconds of each paired window. @default {500} */
  readonly windowMs?: number;
  /** Windows per round. @default {4} */
  readonly windowsPerRound?: number;
  /** Rounds; the servers swap CPUs between them (balanced: an even number is best). @default {4} */
  readonly rounds?: number;
  /** Seconds of warm-up at the rate before each round's windows. @default {0.5} */
  readonly warmupSec?: number;
  /** Connections per engine. @default {50} */
  readonly connections?: number;
  /**
   * Where servers and engines run: both servers on one CPU and both engines on the other (`split`), each side's engine
   * beside its own server (`same`), or on the other side's CPU (`cross`). @default {"split"}
   */
  readonly placement?: DuetPlacement;
  /** The share of a CPU its servers and engines may use together in a round that adds windows. @default {0.9} */
  readonly busyLimit?: number;
  /**
   * After a round where what runs on a CPU used it past `busyLimit`, run the later rounds at a rate where
   * the busiest CPU is used at two thirds of that, and keep only their windows. @default {false}
   */
  readonly lowerRate?: boolean;
  /** Seed of the order of placements. @default {1} */
  readonly seed?: number;
  /** The requests, with the responses they must get. */
  readonly target: (baseUrl: string) => LoadTarget;
  /** The load generator (it must send at a fixed rate). @default {the engine} */
  readonly generator?: LoadGenerator;
  /** Stops everything when aborted. */
  readonly signal?: AbortSignal;
}

/** Where a duet's servers and engines run on its two CPUs (see the module documentation). */
export type DuetPlacement = "split" | "same" | "cross";

/** One round of a duet: its placement and each side's load, latency included (kept, not used to rank). */
export interface DuetRound {
  /** 0: side A on the first CPU; 1: swapped. */
  readonly placement: 0 | 1;
  /** Requests per second each server was loaded at. */
  readonly rate: number;
  /** Side A's load over the round. */
  readonly a: LoadMeasurement;
  /** Side B's. */
  readonly b: LoadMeasurement;
  /** Whether both held the rate (at least 95% of it answered validly, no timeout); a round that did not adds no window. */
  readonly held: boolean;
  /**
   * How much of each of the two CPUs the servers and engines on it used together over the round's windows (the CPU of
   * A's server first), where both were read. A CPU at {@linkcode AT_LIMIT} or more adds no window: what runs on it
   * competes for it, which changes a server's CPU per request, so the pair is not comparable.
   */
  readonly busy: readonly [number, number] | null;
}

/** What a duet measured. */
export interface DuetOutcome {
  /** Side A's CPU per request over side B's, from the windows of the rounds that held the rate. */
  readonly ratio: DuetRatio | null;
  /** The rate of those windows: the one asked for, or lower where {@linkcode DuetOptions.lowerRate} lowered it. */
  readonly rate: number;
  /** Every paired window. */
  readonly windows: readonly DuetWindow[];
  /** Every round. */
  readonly rounds: readonly DuetRound[];
}

/** The CPU of each side's server and engine (A, then B) in a round whose first CPU is `first`. */
function placed(layout: DuetPlacement, first: string, second: string): Record<"serverCpu" | "engineCpu", string[]> {
  if (layout === "split") return { serverCpu: [first, first], engineCpu: [second, second] };
  return { serverCpu: [first, second], engineCpu: layout === "same" ? [first, second] : [second, first] };
}

/** Whether a fixed-rate load held its rate: 95% answered validly (as the rounds mode's window), none timed out. */
function heldRate(m: LoadMeasurement, rate: number): boolean {
  const phases = m.phases ?? [];
  return phases.length > 0 && Math.min(...phases.map((p) => p.achievedRate)) >= 0.95 * rate && m.timeouts === 0 &&
    m.mismatches === 0;
}

/** A duet whose rounds run one at a time, so that a suite can alternate them with its other rounds. */
export interface Duet {
  /** How many rounds it has. */
  readonly rounds: number;
  /** Runs the next round; false when every round has run. */
  next(): Promise<boolean>;
  /** What the rounds run so far measured. */
  outcome(): DuetOutcome;
}

/**
 * One duet of `a` and `b`, its rounds not yet run; see the module documentation.
 *
 * @param a One side.
 * @param b The other.
 * @param options Rate, windows, rounds, CPUs and load.
 * @returns The duet: {@linkcode Duet.next} runs a round, {@linkcode Duet.outcome} reads the ratio so far.
 *
 * @example Two servers at 2,000/s each, a round at a time
 * ```ts ignore
 * import { startDuet } from "./duet.ts";
 * const duet = startDuet(deno, node, { cpus: ["0", "1"], rate: 2_000, target: (baseUrl) => ({ baseUrl, requests }) });
 * while (await duet.next()) console.log(duet.outcome().windows.length);
 * ```
 */
export function startDuet(a: DuetSide, b: DuetSide, options: DuetOptions): Duet {
  const windowMs = options.windowMs ?? 500;
  const perRound = options.windowsPerRound ?? 4;
  const placements = duetPlacements(options.rounds ?? 4, seededRandom(options.seed ?? 1));
  const generator = options.generator ?? engineGenerator;
  const windows: DuetWindow[] = [];
  const rounds: DuetRound[] = [];
  // One phase per window, so that the engine counts what it answered in each, then half a window not counted: the two
  // engines start a few ms apart, and each counted window ends with both loads still running.
  const guardMs = Math.round(windowMs / 2);
  let rate = options.rate;
  // The round's load at the duet's current rate (lowerRate may lower it between rounds).
  const settings = () => ({
    rate,
    phases: [...Array.from({ length: perRound }, () => `${windowMs}ms@${rate}`), `${guardMs}ms@${rate}`].join(","),
    durationSec: (windowMs * perRound + guardMs) / 1000,
    warmupSec: options.warmupSec ?? 0.5,
    connections: options.connections ?? 50,
    pipelining: 1,
    requestTimeoutSec: 2,
  });
  const limit = options.busyLimit ?? AT_LIMIT;
  const layout = options.placement ?? "split";
  const runRound = async (round: number, placement: 0 | 1) => {
    const { serverCpu, engineCpu } = placed(layout, options.cpus[placement], options.cpus[1 - placement]);
    const servers: DuetServer[] = [];
    const meters: (CpuMeter | null)[] = [];
    try {
      servers.push(await a.start(serverCpu[0]), await b.start(serverCpu[1]));
      // Each meter's helper beside its side's engine: the same on both sides.
      meters.push(
        await startCpuMeter({ server: servers[0].pid, cpus: engineCpu[0] }),
        await startCpuMeter({ server: servers[1].pid, cpus: engineCpu[1] }),
      );
      const [ma, mb] = await Promise.all(
        servers.map((s, i) =>
          generator.run(options.target(s.baseUrl), settings(), { cpus: engineCpu[i], signal: options.signal })
        ),
      );
      await Promise.all(meters.map((m) => m?.stop(undefined)));
      const readings = meters.map((m) => m?.serverReadings ?? []);
      meters.length = 0;
      const held = heldRate(ma, rate) && heldRate(mb, rate);
      // Each side cut at its own load's phases (the same seconds but for the engines' start), over what it answered.
      const paired = readings.some((r) => r.length === 0)
        ? []
        : sideWindows(sideOf(readings[0], ma, perRound), sideOf(readings[1], mb, perRound), round, placement);
      const busy = cpusBusy(paired, windowMs, ma, mb, layout);
      rounds.push({ placement, rate, a: ma, b: mb, held, busy });
      const busiest = busy === null ? 0 : Math.max(...busy);
      if (busiest >= limit && options.lowerRate) {
        // What runs on a CPU does not fit it at this rate: the later rounds run where the busiest CPU is two thirds
        // used, and the ratio is theirs alone (one rate for every window).
        const lower = Math.floor(rate * (2 / 3) * limit / busiest / 100) * 100;
        if (lower >= 100 && lower < rate) {
          rate = lower;
          windows.length = 0;
        }
      }
      if (!held || busy === null || busiest >= limit) return;
      windows.push(...paired);
    } finally {
      await Promise.all(meters.map((m) => m?.stop(undefined).catch(() => {})));
      await Promise.all(servers.map((s) => s.stop()));
    }
  };
  let ran = 0;
  return {
    rounds: placements.length,
    async next() {
      if (ran >= placements.length) return false;
      options.signal?.throwIfAborted();
      const round = ran++;
      await runRound(round, placements[round]);
      return true;
    },
    outcome: () => ({ ratio: duetRatio(windows), rate, windows: [...windows], rounds: [...rounds] }),
  };
}

/**
 * Runs one duet of `a` and `b`, every round in turn; see the module documentation.
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
  const duet = startDuet(a, b, options);
  while (await duet.next());
  return duet.outcome();
}

/**
 * Each CPU's share used over `windows` by the servers and engines the placement put on it: the CPU of A's server
 * first, or null where an engine's CPU is unknown.
 *
 * @param windows A round's paired windows.
 * @param windowMs Each window's length.
 * @param a Side A's load over the round (its engine's own CPU).
 * @param b Side B's.
 * @param placement Where the servers and engines ran.
 * @returns The first CPU's share, then the second's (1 is the whole CPU).
 *
 * @example 28 µs a request in one server, 14.5 in the other, at 20,000/s: `split` fits where `same` does not
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { cpusBusy } from "./duet.ts";
 *
 * const window = { round: 0, placement: 0 as const, aCpuUs: 280_000, bCpuUs: 145_000, aAnswered: 10_000, bAnswered: 10_000 };
 * const load = (clientCpuPercent: number) => ({ clientCpuPercent }) as never;
 * assertEquals(cpusBusy([window, window], 500, load(56), load(26), "same"), [1.12, 0.55]);
 * assertEquals(cpusBusy([window, window], 500, load(52), load(26), "split")?.map((x) => x.toFixed(2)), ["0.85", "0.78"]);
 * ```
 */
export function cpusBusy(
  windows: readonly DuetWindow[],
  windowMs: number,
  a: LoadMeasurement,
  b: LoadMeasurement,
  placement: DuetPlacement,
): readonly [number, number] | null {
  if (windows.length === 0 || a.clientCpuPercent === null || b.clientCpuPercent === null) return null;
  const spanUs = windows.length * windowMs * 1000;
  const server = (cpu: (w: DuetWindow) => number) => windows.reduce((t, w) => t + cpu(w), 0) / spanUs;
  // What each CPU holds, from the one place that decides it: the first CPU's label is "0".
  const { serverCpu, engineCpu } = placed(placement, "0", "1");
  const shares = [server((w) => w.aCpuUs), server((w) => w.bCpuUs), a.clientCpuPercent / 100, b.clientCpuPercent / 100];
  const used: [number, number] = [0, 0];
  [...serverCpu, ...engineCpu].forEach((cpu, i) => used[Number(cpu)] += shares[i]);
  return used;
}

/** A side's windows: its load's first `counted` phases, from the start of its measured window, with what each answered. */
function sideOf(readings: readonly CounterReading[], m: LoadMeasurement, counted: number): DuetSideWindows {
  const start = m.windowStartMs ?? Date.now() - m.durationMs;
  const phases = (m.phases ?? []).slice(0, counted);
  const edgesMs = [start];
  for (const p of phases) edgesMs.push(edgesMs.at(-1)! + p.durationMs);
  return { readings, edgesMs, answered: phases.map((p) => p.responses) };
}
