import { assert, assertAlmostEquals, assertEquals } from "@std/assert";
import { detectableChangePercent, pairedRatio, ratioOf, roundPairs, unpairedRatio } from "./paired.ts";

// Student's t quantiles from a printed table (two-sided 95%): df 2 → 4.302653, df 4 → 2.776445; one-sided 80%,
// df 4 → 0.940965.
const T2 = 4.302653;
const T4 = 2.776445;
const T4_80 = 0.940965;

const run = (round: number, rps: number) => ({ round, figures: { requestsPerSecond: rps } });

// README "What the numbers mean", relative: per-round ratios of runs interleaved in the same round, a 95% interval on
// the mean log-ratio (Student's t), exponentiated back.
Deno.test("paired ratio: Student's t on the rounds' log-ratios, exponentiated back", () => {
  // Five rounds on a shared 2-core machine: each runtime moves ±8% from round to round, their ratio by ±1.3%.
  const deno = [148_000, 176_000, 160_000, 170_000, 152_000];
  const node = [78_000, 90_000, 84_000, 88_000, 80_000];
  const r = pairedRatio(deno.map((d, i) => [d, node[i]]))!;
  // By hand: ln ratios 0.640483, 0.670605, 0.644357, 0.658462, 0.641854 → mean m = 0.651170, s = 0.0130439;
  // half = 2.776445 · 0.0130439 / √5 = 0.0161963; e^m = 1.917783, e^(m − half) = 1.886973, e^(m + half) = 1.949097.
  assertEquals(r.method, "paired");
  assertEquals(r.n, 5);
  assertAlmostEquals(r.ratio, 1.917783, 1e-6);
  assertAlmostEquals(r.stdevLog!, 0.0130439, 1e-7);
  assertAlmostEquals(r.ci95!.low, 1.886973, 1e-6);
  assertAlmostEquals(r.ci95!.high, 1.949097, 1e-6);
  assertAlmostEquals(r.halfWidthPercent!, (Math.exp(T4 * 0.0130439 / Math.sqrt(5)) - 1) * 100, 1e-4);
  // The same runs as two independent samples: each side's 8% spread makes the interval several times wider.
  const u = unpairedRatio(deno, node)!;
  assertAlmostEquals(u.ratio, 1.917783, 1e-6, "the ratio of geometric means is the same estimate");
  assert(u.halfWidthPercent! > 4 * r.halfWidthPercent!, `${u.halfWidthPercent} vs ${r.halfWidthPercent}`);
});

Deno.test("paired ratio: t exactly at the 5% point gives p = 0.05 and an interval ending at 1", () => {
  // Logs m + (−0.2, −0.1, 0, 0.1, 0.2): s = 0.158114, se = s/√5 = 0.0707107; m = 2.776445 · se = 0.196325.
  const m = T4 * 0.158113883 / Math.sqrt(5);
  const r = pairedRatio([-0.2, -0.1, 0, 0.1, 0.2].map((d) => [Math.exp(m + d), 1]))!;
  assertAlmostEquals(r.p!, 0.05, 1e-6);
  assertAlmostEquals(r.ci95!.low, 1, 1e-6);
  assertAlmostEquals(r.ci95!.high, Math.exp(2 * m), 1e-6);
});

Deno.test("a ratio's interval is on the log scale: never at or below 0, and b/a's is the reciprocal of a/b's", () => {
  // Wild rounds: on the linear scale mean ± t·s/√n of these ratios (0.1, 3, 0.2) would go far below 0.
  const pairs: [number, number][] = [[10, 100], [300, 100], [20, 100]];
  const ab = pairedRatio(pairs)!;
  const ba = pairedRatio(pairs.map(([a, b]) => [b, a]))!;
  assert(ab.ci95!.low > 0);
  assertAlmostEquals(ab.ci95!.low, 1 / ba.ci95!.high, 1e-12);
  assertAlmostEquals(ab.ci95!.high, 1 / ba.ci95!.low, 1e-12);
  assertAlmostEquals(ab.p!, ba.p!, 1e-12);
});

Deno.test("unpaired ratio: Welch's t-test on the logs", () => {
  // By hand: logs (1, 1.2) and (0.5, 0.7): difference 0.5, variances 0.02 each, se = √(0.01 + 0.01) = 0.141421,
  // Welch–Satterthwaite df = 0.02² / (0.01²/1 + 0.01²/1) = 2; half = 4.302653 · 0.141421 = 0.608490.
  const u = unpairedRatio([Math.exp(1), Math.exp(1.2)], [Math.exp(0.5), Math.exp(0.7)])!;
  assertEquals(u.method, "unpaired");
  assertAlmostEquals(u.ratio, Math.exp(0.5), 1e-9);
  assertAlmostEquals(u.ci95!.low, Math.exp(0.5 - T2 * Math.SQRT2 / 10), 1e-6);
  assertAlmostEquals(u.ci95!.high, Math.exp(0.5 + 0.608490), 1e-5);
});

Deno.test("rounds pair runs by their round; a run without a partner or a positive figure is left out", () => {
  const a = [run(0, 100), run(1, 0), run(2, 120), run(3, 90)];
  const b = [run(0, 50), run(1, 40), run(3, 45), run(4, 60)];
  assertEquals(roundPairs(a, b, "requestsPerSecond"), [[100, 50], [90, 45]]);
  // Two rounds of exactly 2×: no spread, the interval is the point, and 2× is certain.
  const r = ratioOf(a, b, "requestsPerSecond", true)!;
  assertEquals([r.n, r.ci95, r.p], [2, { low: 2, high: 2 }, 0]);
  // One pair: a ratio, no interval.
  assertEquals(pairedRatio([[3, 1]])!.ci95, null);
  assertEquals(pairedRatio([]), null);
  // Runs of older files carry no round: nothing pairs.
  assertEquals(roundPairs([{ figures: { x: 1 } }], [{ figures: { x: 2 } }], "x"), []);
});

Deno.test("the smallest change a paired comparison detects, from the A/A spread", () => {
  // e^((2.776445 + 0.940965) · 0.02 / √5) − 1 = e^0.0332495 − 1 = 3.381%.
  assertAlmostEquals(detectableChangePercent(0.02, 5)!, (Math.exp((T4 + T4_80) * 0.02 / Math.sqrt(5)) - 1) * 100, 1e-4);
  assertAlmostEquals(detectableChangePercent(0.02, 5)!, 3.381, 1e-3);
  assertEquals(detectableChangePercent(0.02, 1), null);
  // More rounds, a smaller floor.
  assert(detectableChangePercent(0.02, 10)! < detectableChangePercent(0.02, 5)!);
});
