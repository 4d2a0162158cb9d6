/**
 * Duet pairing (`--pairing duet`): two servers up at once, each loaded at the same fixed rate in the same seconds, and
 * each one's CPU time read from its own counter over the same short windows (Bulej et al., ICPE 2020). A window's ratio
 * of CPU per request is one paired sample: noise that hits the machine in that window (another tenant, a frequency
 * change, the host's own work) moves both sides and cancels in the ratio. The servers swap CPUs between rounds, in
 * blocks of two rounds in a random order (Abedi & Brecht, ICPE 2017: RMIT), so that whatever one CPU does to one side
 * more than to the other cancels too; each round is one sample, and the interval is Student's t over the rounds (see
 * {@linkcode duetRatio}).
 *
 * Everything here is pure: counters in, windows and ratios out, so the pairing can be tested on synthetic counters.
 *
 * @module
 */

import { ratioOnLogScale } from "./paired.ts";
import { shuffled } from "./random.ts";
import { tQuantile } from "./student_t.ts";

/** A reading of one side's CPU counter: when (epoch ms) and its value (µs). */
export interface CounterReading {
  /** When it was read, in epoch milliseconds. */
  readonly atMs: number;
  /** The counter's value there, in microseconds of CPU time. */
  readonly cpuUs: number;
}

/** One duet window: both sides' CPU time and answered requests over the same span of time. */
export interface DuetWindow {
  /** The round it belongs to, from 0. */
  readonly round: number;
  /** The placement of that round: 0 with side A on the first CPU, 1 with the sides swapped. */
  readonly placement: 0 | 1;
  /** Side A's server CPU time over the window, in µs. */
  readonly aCpuUs: number;
  /** Side B's server CPU time over the window, in µs. */
  readonly bCpuUs: number;
  /** Requests A answered in the window (at a fixed rate held: the rate × the window). */
  readonly aAnswered: number;
  /** Requests B answered in the window. */
  readonly bAnswered: number;
  /** When it began, in epoch milliseconds (side A's edge). */
  readonly startMs?: number;
}

/** The ratio of CPU per request A/B from duet windows, with its 95% interval. */
export interface DuetRatio {
  /** Always `duet`: which pairing produced the ratio. */
  readonly pairing: "duet";
  /** Rounds used (each one paired sample: its windows' mean log-ratio). */
  readonly n: number;
  /** The estimate: e^(mean of the two placements' mean log-ratios), or of all windows' with one placement. */
  readonly ratio: number;
  /** 95% confidence interval of the ratio; null with too few windows. */
  readonly ci95: { readonly low: number; readonly high: number } | null;
  /** Half-width of the interval in percent on the log scale; null without one. */
  readonly halfWidthPercent: number | null;
  /** Two-sided p-value of "the ratio is 1"; null without an interval. */
  readonly p: number | null;
  /** Standard deviation of the rounds' mean log-ratios about their placement's mean (≈ one round's CV). */
  readonly stdevLog: number | null;
  /**
   * The CPUs' bias as the ratio saw it: e^((mean₀ − mean₁)/2), the ratio with A on the first CPU over the true one
   * (1 = none; 0.93: the second CPU costs 8% more per request). Null with one placement only: the bias is then in the
   * ratio.
   */
  readonly placementBias: number | null;
}

/**
 * A counter's value at `atMs`, interpolated between the readings around it; null outside them.
 *
 * @param readings Readings in time order.
 * @param atMs The instant.
 * @returns The value in µs, or null.
 *
 * @example Halfway between two readings
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { counterValueAt } from "./duet.ts";
 *
 * assertEquals(counterValueAt([{ atMs: 0, cpuUs: 100 }, { atMs: 20, cpuUs: 300 }], 5), 150);
 * ```
 */
export function counterValueAt(readings: readonly CounterReading[], atMs: number): number | null {
  for (let i = 1; i < readings.length; i++) {
    const [a, b] = [readings[i - 1], readings[i]];
    if (a.atMs > atMs || b.atMs < atMs) continue;
    if (b.atMs === a.atMs) return a.cpuUs;
    return a.cpuUs + (b.cpuUs - a.cpuUs) * (atMs - a.atMs) / (b.atMs - a.atMs);
  }
  return null;
}

/** One side of a round: its counter readings, its windows' edges and the requests answered in each window. */
export interface DuetSideWindows {
  /** Its server's counter readings over the round. */
  readonly readings: readonly CounterReading[];
  /** Its windows' edges (epoch ms), ascending: window i runs from `edgesMs[i]` to `edgesMs[i + 1]`. */
  readonly edgesMs: readonly number[];
  /** Requests answered in each window (one fewer than the edges). */
  readonly answered: readonly number[];
}

/**
 * Cuts one round of both sides' counters into paired windows: window i of A beside window i of B. Each side is cut at
 * its own load's window edges and divided by the requests its load had answered there, so that an engine that falls
 * behind its schedule for a moment does not pass for a server that did less; the two loads' windows are the same
 * seconds but for the few milliseconds between the engines' starts. A window whose edge falls outside its side's
 * readings is left out.
 *
 * @param a Side A over the round.
 * @param b Side B over the same round.
 * @param round The round.
 * @param placement Its placement.
 * @returns The round's windows.
 *
 * @example Two windows of one second, A twice as costly per request
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { sideWindows } from "./duet.ts";
 *
 * const a = { readings: [{ atMs: 0, cpuUs: 0 }, { atMs: 2000, cpuUs: 400_000 }], edgesMs: [0, 1000, 2000], answered: [100, 100] };
 * const b = { readings: [{ atMs: 0, cpuUs: 0 }, { atMs: 2000, cpuUs: 200_000 }], edgesMs: [0, 1000, 2000], answered: [100, 100] };
 * assertEquals(sideWindows(a, b, 0, 0).map((w) => w.aCpuUs / w.bCpuUs), [2, 2]);
 * ```
 */
export function sideWindows(a: DuetSideWindows, b: DuetSideWindows, round: number, placement: 0 | 1): DuetWindow[] {
  const windows: DuetWindow[] = [];
  const n = Math.min(a.edgesMs.length, b.edgesMs.length) - 1;
  const cpuOf = (side: DuetSideWindows, i: number) => {
    const [from, to] = [
      counterValueAt(side.readings, side.edgesMs[i]),
      counterValueAt(side.readings, side.edgesMs[i + 1]),
    ];
    return from === null || to === null ? null : to - from;
  };
  for (let i = 0; i < n; i++) {
    const [aCpuUs, bCpuUs] = [cpuOf(a, i), cpuOf(b, i)];
    if (aCpuUs === null || bCpuUs === null) continue;
    const [aAnswered, bAnswered] = [a.answered[i] ?? 0, b.answered[i] ?? 0];
    windows.push({ round, placement, aCpuUs, bCpuUs, aAnswered, bAnswered, startMs: a.edgesMs[i] });
  }
  return windows;
}

/**
 * Cuts one round of both sides' counters into windows at the same instants, each side answering the same number of
 * requests per window (a fixed rate held): {@linkcode sideWindows} with both sides' edges alike.
 *
 * @param a Side A's readings over the round.
 * @param b Side B's readings over the same round.
 * @param edgesMs The windows' edges (epoch ms), ascending.
 * @param round The round.
 * @param placement Its placement.
 * @param answeredPerWindow Requests each side answered per window (the fixed rate × the window).
 * @returns The round's windows.
 *
 * @example Two windows of one second
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { duetWindows } from "./duet.ts";
 *
 * const a = [{ atMs: 0, cpuUs: 0 }, { atMs: 2000, cpuUs: 400_000 }];
 * const b = [{ atMs: 0, cpuUs: 0 }, { atMs: 2000, cpuUs: 200_000 }];
 * const w = duetWindows(a, b, [0, 1000, 2000], 0, 0, 10_000);
 * assertEquals(w.map((x) => x.aCpuUs / x.bCpuUs), [2, 2]);
 * ```
 */
export function duetWindows(
  a: readonly CounterReading[],
  b: readonly CounterReading[],
  edgesMs: readonly number[],
  round: number,
  placement: 0 | 1,
  answeredPerWindow: number,
): DuetWindow[] {
  const answered = edgesMs.slice(1).map(() => answeredPerWindow);
  return sideWindows({ readings: a, edgesMs, answered }, { readings: b, edgesMs, answered }, round, placement);
}

/**
 * The ratio of CPU per request A/B over duet windows. Each round is one paired sample: the mean log-ratio of its
 * windows. Its windows share one pair of server processes, and each process has a level of its own (measured: rounds of
 * deno and bun at 20,000/s sat 10% apart, their windows a few percent), so windows are not independent samples and an
 * interval over them would be too narrow. The estimate is the mean of the two placements' means of the rounds (a
 * placement's bias cancels). With as many rounds of each placement (or one placement only), the interval is Student's t
 * on the rounds' plain spread (n − 1 degrees of freedom), which a placement's bias can only widen; otherwise t on the
 * residuals about the two means (n − 2). Windows with a non-positive figure are left out. Null when none is left.
 *
 * @param windows The windows of every round.
 * @param alpha Significance level. @default {0.05}
 * @returns The ratio with its interval.
 *
 * @example A twice as costly as B, whatever the noise common to both in a window
 * ```ts
 * import { assertAlmostEquals } from "@std/assert";
 * import { duetRatio } from "./duet.ts";
 *
 * const w = (round: number, placement: 0 | 1, noise: number) =>
 *   ({ round, placement, aCpuUs: 2000 * noise, bCpuUs: 1000 * noise, aAnswered: 100, bAnswered: 100 });
 * const r = duetRatio([w(0, 0, 1), w(0, 0, 1.5), w(1, 1, 1.2), w(1, 1, 0.9)])!;
 * assertAlmostEquals(r.ratio, 2, 1e-9);
 * ```
 */
export function duetRatio(windows: readonly DuetWindow[], alpha = 0.05): DuetRatio | null {
  const used = windows.filter((w) =>
    [w.aCpuUs, w.bCpuUs, w.aAnswered, w.bAnswered].every((v) => Number.isFinite(v) && v > 0)
  );
  if (used.length === 0) return null;
  const mean = (xs: readonly number[]) => xs.reduce((s, x) => s + x, 0) / xs.length;
  const byRound = new Map<number, { placement: 0 | 1; logs: number[] }>();
  for (const w of used) {
    const round = byRound.get(w.round) ?? { placement: w.placement, logs: [] };
    round.logs.push(Math.log((w.aCpuUs / w.aAnswered) / (w.bCpuUs / w.bAnswered)));
    byRound.set(w.round, round);
  }
  const rounds = [...byRound.values()].map((r) => ({ placement: r.placement, log: mean(r.logs) }));
  const groups = [0, 1].map((p) => rounds.filter((r) => r.placement === p).map((r) => r.log));
  const n = rounds.length;
  const both = groups[0].length > 0 && groups[1].length > 0;
  let m: number, se: number, df: number, sd: number;
  if (both && groups[0].length !== groups[1].length) {
    const [m0, m1] = groups.map(mean);
    m = (m0 + m1) / 2;
    df = n - 2;
    const ss = groups[0].reduce((s, x) => s + (x - m0) ** 2, 0) + groups[1].reduce((s, x) => s + (x - m1) ** 2, 0);
    sd = df > 0 ? Math.sqrt(ss / df) : NaN;
    se = sd / 2 * Math.sqrt(1 / groups[0].length + 1 / groups[1].length);
  } else {
    // One placement, or as many rounds of each: then the plain mean is the two placements' mean, and the plain spread
    // holds any bias a placement has on top of the noise, which widens the interval (t on n − 1) and never narrows it.
    const logs = rounds.map((r) => r.log);
    m = mean(logs);
    df = n - 1;
    sd = df > 0 ? Math.sqrt(logs.reduce((s, x) => s + (x - m) ** 2, 0) / df) : NaN;
    se = sd / Math.sqrt(n);
  }
  const placementBias = both ? Math.exp((mean(groups[0]) - mean(groups[1])) / 2) : null;
  if (!(df > 0) || !Number.isFinite(se)) {
    return {
      pairing: "duet",
      n,
      ratio: Math.exp(m),
      ci95: null,
      halfWidthPercent: null,
      p: null,
      stdevLog: null,
      placementBias,
    };
  }
  const { method: _, ...interval } = ratioOnLogScale("paired", n, m, se, df, alpha, sd);
  return { pairing: "duet", ...interval, placementBias };
}

/**
 * The placements of `rounds` duet rounds in a random order (RMIT), balanced in blocks of two (each block one of each
 * placement, in a random order), so that every even number of rounds from the start is balanced; from `random` (a
 * seeded generator, so that the order can be repeated from the seed the result records).
 *
 * @param rounds How many rounds.
 * @param random Numbers in [0, 1).
 * @returns One placement per round.
 *
 * @example Four rounds: two of each, in some order
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { duetPlacements } from "./duet.ts";
 * import { seededRandom } from "./random.ts";
 *
 * assertEquals(duetPlacements(4, seededRandom(1)).toSorted(), [0, 0, 1, 1]);
 * ```
 */
export function duetPlacements(rounds: number, random: () => number): (0 | 1)[] {
  const placements: (0 | 1)[] = [];
  while (placements.length < rounds) placements.push(...(random() < 0.5 ? [0, 1] as const : [1, 0] as const));
  return placements.slice(0, rounds);
}

/**
 * Every pair of `names` once, in a random order, each with a random side first (RMIT over pairs).
 *
 * @param names Runtimes (more than two: every pair).
 * @param random Numbers in [0, 1).
 * @returns The pairs.
 *
 * @example Three runtimes: three pairs
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { duetPairs } from "./duet.ts";
 * import { seededRandom } from "./random.ts";
 *
 * assertEquals(duetPairs(["deno", "node", "bun"], seededRandom(3)).length, 3);
 * ```
 */
export function duetPairs<T>(names: readonly T[], random: () => number): [T, T][] {
  const pairs: [T, T][] = [];
  for (let i = 0; i < names.length; i++) {
    for (let j = i + 1; j < names.length; j++) pairs.push(random() < 0.5 ? [names[i], names[j]] : [names[j], names[i]]);
  }
  return shuffled(pairs, random);
}

/**
 * z of the one-sided 90% bound under which a spread's estimate from few rounds is taken as the least the pair's spread
 * may be (see {@linkcode reachableHalfWidth}).
 */
const SPREAD_BOUND_Z = 1.2816;

/**
 * The narrowest half-width (percent, as {@linkcode DuetRatio.halfWidthPercent}) a ratio could likely reach after
 * `rounds` rounds: Student's t on one degree of freedom fewer than the rounds, over √rounds, with the spread at the low
 * end of what its `n` rounds so far allow (one-sided 90%, χ² on n − 1 by Wilson–Hilferty). Four rounds estimate a
 * spread to within a factor of about 1.5 either way, so a pair that looks wide after four may not be.
 *
 * @param halfWidthPercent The half-width over `n` rounds.
 * @param n Rounds so far (two at least).
 * @param rounds Rounds it would have.
 * @returns The half-width, percent.
 *
 * @example ±6% over 4 rounds: about ±2.7% over 10 at the same spread, and ±1.9% at the least spread 4 rounds allow
 * ```ts
 * import { assertAlmostEquals } from "@std/assert";
 * import { reachableHalfWidth } from "./duet.ts";
 *
 * assertAlmostEquals(reachableHalfWidth(6, 4, 10), 1.9, 0.05);
 * ```
 */
export function reachableHalfWidth(halfWidthPercent: number, n: number, rounds: number): number {
  const df = n - 1;
  const c = 2 / (9 * df);
  const chiSquare90 = df * (1 - c + SPREAD_BOUND_Z * Math.sqrt(c)) ** 3;
  const leastSpread = Math.sqrt(df / chiSquare90);
  return halfWidthPercent * leastSpread * (tQuantile(rounds - 1) / tQuantile(df)) * Math.sqrt(n / rounds);
}
