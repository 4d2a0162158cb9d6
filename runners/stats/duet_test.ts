import { assert, assertAlmostEquals, assertEquals } from "@std/assert";
import {
  type CounterReading,
  duetPairs,
  duetPlacements,
  type DuetRatio,
  duetRatio,
  type DuetWindow,
  duetWindows,
} from "./duet.ts";
import { unpairedRatio } from "./paired.ts";
import { seededRandom } from "./random.ts";

// A synthetic duet on a noisy 2-CPU machine, both servers of a round on one CPU. Server A costs FACTOR times B's CPU
// per request. A noise injector burns both CPUs in on/off bursts: in a window where it is on, every request costs up to
// 60% more (the noise common to both, which duet cancels). CPU 1 is 8% slower than CPU 0, for both servers alike; and
// A's work fits each CPU a little differently, 2% cheaper than B's on CPU 0 and 2% costlier on CPU 1 (a bias of one
// placement, which the swaps cancel). Each side keeps 1% noise of its own, which nothing cancels.
const FACTOR = 2;
const RATE = 10_000;
const WINDOW_MS = 500;
const WINDOWS = 6;
const ROUNDS = 6;
const CPU_SPEED = [1, 1.08];
const A_ON_CPU = [0.98, 1.02];
const B_US = 8; // B's CPU per request on CPU 0, quiet

interface Synthetic {
  /** Per round: each side's counter readings, the windows' edges and the placement. */
  readonly rounds: { a: CounterReading[]; b: CounterReading[]; edges: number[]; placement: 0 | 1 }[];
}

function synthetic(seed: number, placements: readonly (0 | 1)[], processNoise = 0): Synthetic {
  const random = seededRandom(seed);
  const gauss = () => Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());
  let now = 1_000_000;
  const rounds = placements.map((placement) => {
    // Each round's two fresh server processes: each a level of its own for the whole round.
    const [levelA, levelB] = [1 + processNoise * gauss(), 1 + processNoise * gauss()];
    const a: CounterReading[] = [{ atMs: now, cpuUs: 0 }];
    const b: CounterReading[] = [{ atMs: now, cpuUs: 0 }];
    const edges = [now];
    for (let w = 0; w < WINDOWS; w++) {
      const burst = random() < 0.5 ? 1 + 0.6 * random() : 1; // the injector on or off in this window
      const requests = RATE * WINDOW_MS / 1000;
      const cpu = CPU_SPEED[placement];
      const aUs = requests * B_US * FACTOR * cpu * A_ON_CPU[placement] * levelA * burst * (1 + 0.01 * gauss());
      const bUs = requests * B_US * cpu * levelB * burst * (1 + 0.01 * gauss());
      now += WINDOW_MS;
      a.push({ atMs: now, cpuUs: a.at(-1)!.cpuUs + aUs });
      b.push({ atMs: now, cpuUs: b.at(-1)!.cpuUs + bUs });
      edges.push(now);
    }
    now += 200; // the swap between rounds
    return { a, b, edges, placement };
  });
  return { rounds };
}

const perWindow = RATE * WINDOW_MS / 1000;

/** Duet: both sides cut at the same edges. */
function paired(s: Synthetic): DuetWindow[] {
  return s.rounds.flatMap((r, i) => duetWindows(r.a, r.b, r.edges, i, r.placement, perWindow));
}

/** The assertion every mode must pass: the known factor inside a 95% interval no wider than ±3%. */
function recovers(r: { ratio: number; ci95: { low: number; high: number } | null; halfWidthPercent: number | null }) {
  return r.ci95 !== null && r.ci95.low <= FACTOR && FACTOR <= r.ci95.high && r.halfWidthPercent! <= 3;
}

const balanced = duetPlacements(ROUNDS, seededRandom(11));

Deno.test("duet: windows' ratios recover a known factor through common noise bursts and a biased CPU", () => {
  for (const seed of [1, 2, 3, 4, 5]) {
    const r = duetRatio(paired(synthetic(seed, balanced)))!;
    assertEquals(r.pairing, "duet");
    assertEquals(r.n, ROUNDS);
    assert(recovers(r), `seed ${seed}: ${JSON.stringify(r)}`);
    // The swaps measure the placements' difference: A/B reads 0.98/1.02 of itself on CPU 0 against CPU 1.
    assertAlmostEquals(r.placementBias!, Math.sqrt(0.98 / 1.02), 0.005);
  }
});

Deno.test("duet: each round's processes have a level of their own; the interval over rounds covers the factor", () => {
  // 5% per process and round (what fresh servers show), 1% per window: the rounds are the samples, not the windows.
  const covers = (r: DuetRatio | null) => r?.ci95 != null && r.ci95.low <= FACTOR && FACTOR <= r.ci95.high;
  let overRounds = 0, overWindows = 0;
  for (let seed = 0; seed < 40; seed++) {
    const windows = paired(synthetic(seed, balanced, 0.05));
    if (covers(duetRatio(windows))) overRounds++;
    // Broken: every window taken as a sample of its own (a round each), its placement kept.
    if (covers(duetRatio(windows.map((w, i) => ({ ...w, round: i }))))) overWindows++;
  }
  assert(overRounds >= 35, `the interval over rounds covered the factor in ${overRounds} of 40`);
  assert(overWindows <= 30, `the interval over windows covered it in ${overWindows} of 40`);
});

Deno.test("duet broken: pairing the wrong windows fails the same assertion", () => {
  // B's counters read one window late: each of A's windows is paired with B's next one, whose bursts differ.
  for (const seed of [1, 2, 3]) {
    const s = synthetic(seed, balanced);
    const wrong = s.rounds.flatMap((r, i) => {
      const shifted = r.b.map((x, k) => ({ atMs: r.b[Math.max(0, k - 1)].atMs, cpuUs: x.cpuUs })).slice(1);
      return duetWindows(
        r.a,
        [{ atMs: r.b[0].atMs - WINDOW_MS, cpuUs: 0 }, ...shifted],
        r.edges,
        i,
        r.placement,
        perWindow,
      );
    });
    const r = duetRatio(wrong)!;
    assert(!recovers(r), `seed ${seed}: ${JSON.stringify(r)}`);
  }
});

Deno.test("duet broken: no pairing (the windows as two independent samples) fails the same assertion", () => {
  for (const seed of [1, 2, 3]) {
    const w = paired(synthetic(seed, balanced));
    const r = unpairedRatio(w.map((x) => x.aCpuUs / x.aAnswered), w.map((x) => x.bCpuUs / x.bAnswered))!;
    assert(!recovers(r), `seed ${seed}: ${JSON.stringify(r)}`);
  }
});

Deno.test("duet broken: servers that never swap CPUs keep the CPUs' bias and fail the same assertion", () => {
  for (const seed of [1, 2, 3]) {
    const r: DuetRatio = duetRatio(paired(synthetic(seed, new Array(ROUNDS).fill(0))))!;
    assertEquals(r.placementBias, null);
    assert(!recovers(r), `seed ${seed}: ${JSON.stringify(r)}`);
  }
});

Deno.test("duet: placements are balanced at every even round and shuffled; every pair of runtimes once", () => {
  const seen = new Set<string>();
  for (let seed = 0; seed < 20; seed++) {
    const p = duetPlacements(6, seededRandom(seed));
    for (const n of [2, 4, 6]) assertEquals(p.slice(0, n).filter((x) => x === 0).length, n / 2);
    seen.add(p.join(""));
  }
  assert(seen.size > 5, "the order of placements is random");
  const pairs = duetPairs(["deno", "node", "bun", "go"], seededRandom(5));
  assertEquals(pairs.length, 6);
  assertEquals(new Set(pairs.map((p) => p.toSorted().join("/"))).size, 6);
});

Deno.test("duet: windows outside either side's readings are left out; too few give no interval", () => {
  const a = [{ atMs: 0, cpuUs: 0 }, { atMs: 1000, cpuUs: 100 }];
  const b = [{ atMs: 500, cpuUs: 0 }, { atMs: 1000, cpuUs: 50 }];
  assertEquals(duetWindows(a, b, [0, 500, 1000], 0, 0, 10).length, 1);
  const one = duetRatio(duetWindows(a, b, [0, 500, 1000], 0, 0, 10))!;
  assertEquals(one.ci95, null);
  assertAlmostEquals(one.ratio, 1, 1e-9);
  assertEquals(duetRatio([]), null);
});

Deno.test("duet: as many rounds of each placement give t on n − 1 over the rounds; uneven ones t on n − 2", () => {
  // Rounds' log-ratios log 2 ± 0.01 in both placements, no bias between them.
  const round = (i: number, placement: 0 | 1, x: number) => ({
    round: i,
    placement,
    aCpuUs: 2000 * Math.exp(x),
    bCpuUs: 1000,
    aAnswered: 100,
    bAnswered: 100,
  });
  const offsets = [0.01, -0.01, -0.01, 0.01];
  const even = duetRatio(offsets.map((x, i) => round(i, (i % 2) as 0 | 1, x)))!;
  // Plain spread of the four: 0.011547; t(3) = 3.182; se = spread / 2.
  assertAlmostEquals(Math.log(1 + even.halfWidthPercent! / 100), 3.182446 * 0.011547 / 2, 1e-5);
  const uneven = duetRatio([...offsets, 0].map((x, i) => round(i, i < 3 ? 0 : 1, x)))!;
  assertEquals(uneven.n, 5);
  // Residuals about each placement's mean, 5 − 2 = 3 degrees of freedom.
  const [m0, m1] = [(0.01 - 0.01 - 0.01) / 3, (0.01 + 0) / 2];
  const ss = [0.01, -0.01, -0.01].reduce((t, x) => t + (x - m0) ** 2, 0) +
    [0.01, 0].reduce((t, x) => t + (x - m1) ** 2, 0);
  const se = Math.sqrt(ss / 3) / 2 * Math.sqrt(1 / 3 + 1 / 2);
  assertAlmostEquals(Math.log(1 + uneven.halfWidthPercent! / 100), 3.182446 * se, 1e-5);
});
