// README "What the numbers mean" and docs/method.md "Open model": the statistics and the open model's clock on fixed
// data, each expectation worked out by hand in the comment beside it (p-values and quantiles of Student's t from its
// CDF, I_x(ν/2, 1/2) with x = ν/(ν + t²), evaluated independently of rtbench to 30 digits).
import { assertAlmostEquals, assertEquals, assertThrows } from "@std/assert";
import { welchTest } from "../../runners/stats/welch.ts";
import { holmAdjust } from "../../runners/stats/holm.ts";
import { median, summarize } from "../../runners/stats/summary.ts";
import { seededRandom } from "../../runners/stats/random.ts";
import { type RatePhase, Schedule } from "../../runners/engine/_schedule.ts";

Deno.test("Welch's t-test, equal spreads: [1, 2, 3] against [4, 5, 6]", () => {
  // Means 2 and 5, both s² = ((−1)² + 0² + 1²) / 2 = 1, so s²/n = 1/3 each; se = √(2/3) = 0.816497.
  // t = 3 / 0.816497 = 3.674235; df = (2/3)² / ((1/3)²/2 + (1/3)²/2) = (4/9) / (1/9) = 4.
  // p = I_x(2, 1/2) with x = 4 / (4 + 13.5) = 0.228571: 0.0213116. t(0.975, 4) = 2.776445: CI 3 ± 2.266958.
  const w = welchTest([1, 2, 3], [4, 5, 6]);
  assertEquals([w.nBase, w.nHead, w.meanBase, w.meanHead, w.difference], [3, 3, 2, 5, 3]);
  assertAlmostEquals(w.t, 3.674235, 1e-6);
  assertAlmostEquals(w.df, 4, 1e-12);
  assertAlmostEquals(w.p, 0.0213116, 1e-6);
  assertAlmostEquals(w.ci.low, 0.733042, 1e-5);
  assertAlmostEquals(w.ci.high, 5.266958, 1e-5);
});

Deno.test("Welch's t-test, unequal spreads and sizes: [10, 12, 14] against [20, 30, 40, 50]", () => {
  // Base: mean 12, s² = (4 + 0 + 4) / 2 = 4, s²/n = 4/3. Head: mean 35, s² = (225 + 25 + 25 + 225) / 3 = 166.667,
  // s²/n = 41.6667. se = √(43) = 6.557439; t = 23 / 6.557439 = 3.507467.
  // df = 43² / ((4/3)² / 2 + 41.6667² / 3) = 1849 / (0.888889 + 578.7037) = 3.190172 (not 5: the spreads differ).
  // p = 0.0356253; t(0.975, 3.190172) = 3.077769: CI 23 ± 20.182278.
  const w = welchTest([10, 12, 14], [20, 30, 40, 50]);
  assertAlmostEquals(w.t, 3.507467, 1e-6);
  assertAlmostEquals(w.df, 3.190172, 1e-6);
  assertAlmostEquals(w.p, 0.0356253, 1e-6);
  assertAlmostEquals(w.ci.low, 2.817722, 1e-4);
  assertAlmostEquals(w.ci.high, 43.182278, 1e-4);
  // Swapped sides: the same test, the difference and its interval negated.
  const back = welchTest([20, 30, 40, 50], [10, 12, 14]);
  assertAlmostEquals(back.p, w.p, 1e-12);
  assertAlmostEquals(back.ci.low, -w.ci.high, 1e-9);
});

Deno.test("Welch's t-test on constant samples: equal means are p = 1, different ones p = 0; one run is refused", () => {
  assertEquals(welchTest([5, 5], [5, 5, 5]).p, 1);
  assertEquals(welchTest([5, 5], [6, 6]).p, 0);
  assertThrows(() => welchTest([5], [6, 7]), RangeError);
});

Deno.test("Holm's correction multiplies the k-th smallest p by (m − k + 1), never below the one before, at most 1", () => {
  // Sorted: 0.005 (× 4 = 0.02), 0.01 (× 3 = 0.03), 0.03 (× 2 = 0.06), 0.04 (× 1 = 0.04, raised to 0.06).
  assertEquals(holmAdjust([0.01, 0.04, 0.03, 0.005]).map((p) => Number(p.toFixed(12))), [0.03, 0.06, 0.06, 0.02]);
  // 0.6 × 2 = 1.2, capped at 1; 0.9 × 1 = 0.9, raised to 1.
  assertEquals(holmAdjust([0.9, 0.6]), [1, 1]);
  assertEquals(holmAdjust([0.2]), [0.2]);
});

Deno.test("summaries: median, sample standard deviation and the t-based interval on fixed values", () => {
  // [3, 1, 4, 1, 5]: sorted 1, 1, 3, 4, 5, median 3; mean 14/5 = 2.8; squared deviations 3.24, 3.24, 0.04, 1.44,
  // 4.84 sum to 12.8, s² = 12.8 / 4 = 3.2, s = 1.788854. t(0.975, 4) = 2.776445: 2.8 ± 2.776445 × 1.788854 / √5 =
  // 2.8 ± 2.221156 = 0.578844 to 5.021156. Summaries keep three decimals.
  const s = summarize([3, 1, 4, 1, 5]);
  assertEquals([s.median, s.mean, s.n, s.min, s.max], [3, 2.8, 5, 1, 5]);
  assertEquals([s.stdev, s.ci95!.low, s.ci95!.high], [1.789, 0.579, 5.021]);
  assertEquals(median([10, 40, 20, 30]), 25);
});

/** Every due time of a schedule, with its phase. */
function dueTimes(phases: RatePhase[], arrival: "uniform" | "poisson", seed: number): { t: number; phase: number }[] {
  const s = new Schedule(phases, arrival, seed);
  const out: { t: number; phase: number }[] = [];
  for (let t = s.next(); t !== null; t = s.next()) out.push({ t, phase: s.phase });
  return out;
}

Deno.test("the open model's clock: a ramp sends the k-th request when the area under its rate reaches k", () => {
  // 1,000 → 3,000 requests/s over 2 s: N(t) = 1000 t + 500 t² requests by t seconds. N(1) = 1500, so the request
  // numbered 1500 is due at exactly 1,000 ms; N(2) = 4000 requests in all (numbered 0 to 3999); request 4 is due
  // when 500 t² + 1000 t = 4, t = (−1000 + √(1,000,000 + 8,000)) / 1000 s = 3.992032 ms.
  const ramp = dueTimes([{ durationMs: 2000, fromRate: 1000, toRate: 3000, measured: true }], "uniform", 1);
  assertEquals(ramp.length, 4000);
  assertEquals(ramp[0].t, 0);
  assertAlmostEquals(ramp[4].t, 3.992032, 1e-6);
  assertAlmostEquals(ramp[1500].t, 1000, 1e-9);
  // A constant 2,000/s is one request every 0.5 ms: request 7 at 3.5 ms, the last (1999) at 999.5 ms.
  const flat = dueTimes([{ durationMs: 1000, fromRate: 2000, toRate: 2000, measured: true }], "uniform", 1);
  assertEquals([flat.length, flat[7].t, flat.at(-1)!.t], [2000, 3.5, 999.5]);
  // Phases follow each other: 500 ms at 1,000/s (500 requests, 0 to 499 ms), then 0 → 2,000/s over 1 s, where
  // N(t) = 1000 t²: its request 250 is due at √0.25 s = 500 ms into it, 1,000 ms from the start; 1000 requests.
  const two = dueTimes(
    [
      { durationMs: 500, fromRate: 1000, toRate: 1000, measured: false },
      { durationMs: 1000, fromRate: 0, toRate: 2000, measured: true },
    ],
    "uniform",
    1,
  );
  assertEquals(two.filter((d) => d.phase === 0).length, 500);
  const second = two.filter((d) => d.phase === 1);
  assertEquals(second.length, 1000);
  assertAlmostEquals(second[250].t, 1000, 1e-9);
});

Deno.test("Poisson arrivals are seeded: the same seed gives the same times, another seed others, at the mean rate", () => {
  const phases: RatePhase[] = [{ durationMs: 10_000, fromRate: 1000, toRate: 1000, measured: true }];
  const a = dueTimes(phases, "poisson", 7);
  assertEquals(a, dueTimes(phases, "poisson", 7));
  const b = dueTimes(phases, "poisson", 8);
  assertEquals(a.length === b.length && a.every((d, i) => d.t === b[i].t), false);
  // 10 s at 1,000/s: a Poisson count with mean 10,000 and standard deviation √10,000 = 100; the seeds' counts are
  // within five of those. The first gap is −ln(1 − u) / 1000 s for the generator's first draw u.
  for (const run of [a, b]) assertAlmostEquals(run.length, 10_000, 500);
  assertAlmostEquals(a[0].t, -Math.log(1 - seededRandom(7)()) * 1000 / 1000, 1e-9);
});
