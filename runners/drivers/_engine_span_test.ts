// The counted responses' span (docs/method.md "Slow workloads: enough responses to rank"): each engine process reports
// when its first and last valid response of the window came, from its window's start, and how evenly they came; the
// harness reports `countedSpanMs` only where the rate over it is unbiased. HTTP load in process with a fake clock, a
// fake network and a fake server, as in _engine_accounting_test.ts: 1 s warm-up, 2 s window.
import { assert, assertAlmostEquals, assertEquals } from "@std/assert";
import { drive, JOB } from "./_engine_fake_server.ts";
import type { EngineJob } from "./_engine_http_load.ts";
import { countedSpanOf, MAX_COUNTED_GAP_CV } from "./_engine_merge.ts";
import { Tally, VALID, WINDOW } from "./_engine_tally.ts";
import { countedRate } from "../stats/counted_rate.ts";
import { seededRandom } from "../stats/random.ts";

/** The server answers what was written before, but only every 70 ms (at 70, 140, … ms into the load). */
const every70 = (t: number, server: { answer(): number }) => {
  if (t % 70 === 0) server.answer();
};

Deno.test("one connection answered every 70 ms: the span from the first to the last counted answer, and its rate", async () => {
  const { counts } = await drive({ ...JOB, connections: 1 }, every70);
  // The window is 1000 … 3000 ms. Answers come at multiples of 70 ms: the first in the window at 1050 ms (70 × 15),
  // the last at 2940 ms (70 × 42); 3010 ms is after the window. 28 answers, every gap 70 ms (variation 0).
  assertEquals([counts.validResponses, counts.countedMs, counts.countedGapCv], [28, [50, 1940], 0]);
  assertEquals(countedSpanOf([counts]), 1890);
  // 27 gaps over 1.89 s = 14.2857/s, the server's 1000/70 exactly; the count over the window reads 28 / 2 s = 14.
  assertEquals(countedRate(counts.validResponses, counts.durationMs, countedSpanOf([counts])).toFixed(4), "14.2857");
  assertEquals(counts.lateResponses, 1);
});

Deno.test("two connections answered together: answers in pairs give no span, the rate is the count over the window", async () => {
  const { counts } = await drive(JOB, every70);
  // 28 steps × 2 = 56 answers, 1050 … 2940 ms: 55 gaps, 27 of 70 ms and 28 of 0 ms. Mean 1890 / 55 = 34.364 ms, mean
  // square 27 × 4900 / 55 = 2405.45 ms², variance 2405.45 − 34.364² = 1224.59, deviation 34.994: variation 1.0183.
  assertEquals([counts.validResponses, counts.countedMs], [56, [50, 1940]]);
  assertAlmostEquals(counts.countedGapCv!, 1.0183, 1e-4);
  // Over the span it would read 55 / 1.89 s = 29.10/s, 1.9% above the server's 56 every 1.96 s = 28.57/s.
  assertEquals(countedSpanOf([counts]), undefined);
  assertEquals(countedRate(counts.validResponses, counts.durationMs, countedSpanOf([counts])), 28);
});

Deno.test("two processes each counting evenly: no span, their answers interleave", async () => {
  const one = { ...JOB, connections: 1 };
  const a = (await drive(one, every70)).counts;
  // Process b starts 400 ms later (moment 0 of the fake clock's epoch is 1,000,000 ms): its own window 1400 … 3400 ms.
  const late: EngineJob = { ...one, startAtEpochMs: 1_000_400 };
  const b = (await drive(late, every70)).counts;
  assertEquals([a.countedGapCv, b.countedGapCv], [0, 0]);
  assertEquals(countedSpanOf([a, b]), undefined);
  assertEquals(countedSpanOf([a, { ...b, validResponses: 0 }]), 1890);
});

Deno.test("fixed counts: a span where one process counted three or more answers that came evenly enough", () => {
  const even = { validResponses: 10, countedMs: [12.5, 1980] as [number, number], countedGapCv: MAX_COUNTED_GAP_CV };
  assertEquals(countedSpanOf([even]), 1967.5);
  assertEquals(countedSpanOf([{ ...even, countedGapCv: 0.31 }]), undefined);
  assertEquals(countedSpanOf([{ validResponses: 2, countedMs: [5, 100] }]), undefined);
  assertEquals(countedSpanOf([{ validResponses: 0 }, { validResponses: 0 }]), undefined);
});

Deno.test("the tally's gap variation: answers at 0, 10, 30 and 60 ms", () => {
  const t = new Tally([]);
  for (const at of [100, 110, 130, 160]) t.answer(WINDOW, VALID, 10, 5, 0, 0, at);
  // Gaps 10, 20, 30: mean 20, population deviation √(200 / 3) = 8.165, variation 0.40825.
  assertAlmostEquals(t.validGapCv()!, 0.40825, 1e-5);
  const two = new Tally([]);
  for (const at of [100, 110]) two.answer(WINDOW, VALID, 10, 5, 0, 0, at);
  assertEquals(two.validGapCv(), null);
});

/**
 * The mean rate over the span and over the window, and the mean gap variation, of 4,000 windows of 2 s placed at
 * random on a stream whose n-th gap `gap(random)` gives, ms; each window's answers through a Tally.
 */
function windows(gap: (random: () => number) => number): { span: number; window: number; cv: number } {
  const random = seededRandom(27);
  let span = 0, window = 0, cv = 0;
  const n = 4000;
  for (let i = 0; i < n; i++) {
    const from = 1000 + 2000 * random();
    const tally = new Tally([]);
    for (let at = gap(random); at < from + 2000; at += gap(random)) {
      if (at >= from) tally.answer(WINDOW, VALID, 10, 5, 0, 0, at);
    }
    span += countedRate(tally.validResponses, 2000, tally.lastValidAt - tally.firstValidAt) / n;
    window += countedRate(tally.validResponses, 2000) / n;
    cv += (tally.validGapCv() ?? 0) / n;
  }
  return { span, window, cv };
}

Deno.test("simulated: the span's rate is unbiased for even answers, high for answers in pairs, which the gate refuses", () => {
  // 11 answers a second (a bcrypt server), each gap 1/11 s ± 20% (uniform jitter of deviation 0.2: a = 0.2 × √3).
  const even = windows((r) => (1000 / 11) * (1 + 0.2 * Math.sqrt(3) * (2 * r() - 1)));
  assertAlmostEquals(even.span / 11, 1, 0.005);
  assert(even.cv < MAX_COUNTED_GAP_CV, `${even.cv}`);
  // The same 11 a second as pairs 1 ms apart every 2/11 s (two threads of a pool finishing together).
  let k = 0;
  const pairs = windows(() => k++ % 2 === 0 ? 1 : 2000 / 11 - 1);
  assert(pairs.span / 11 > 1.03, `${pairs.span}`);
  assert(pairs.cv > MAX_COUNTED_GAP_CV, `${pairs.cv}`);
  // The count over the window is unbiased for both (it is only coarse).
  assertAlmostEquals(pairs.window / 11, 1, 0.01);
  assertAlmostEquals(even.window / 11, 1, 0.01);
});
