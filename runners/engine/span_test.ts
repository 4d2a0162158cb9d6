// The counted responses' spans (docs/method.md "Slow workloads: enough responses to rank"): each connection keeps when
// its first and last valid response of the window came and how evenly they came; each engine process reports the rate
// over its connections' spans where every one came evenly, and the harness reports `countedSpanMs` from it. HTTP load
// in process with a fake clock, a fake network and a fake server, as in engine/accounting_test.ts: 1 s warm-up, 2 s
// window.
import { assert, assertAlmostEquals, assertEquals } from "@std/assert";
import { drive, JOB } from "./_fake_server.ts";
import type { EngineJob } from "./_http_load.ts";
import { countedSpanOf } from "./merge.ts";
import { CountedSpan, MAX_COUNTED_GAP_CV, rateOverSpans } from "./_span.ts";
import { countedRate } from "../samples/counted_rate.ts";
import { seededRandom } from "../stats/random.ts";

/** The server answers what was written before, but only every 70 ms (at 70, 140, … ms into the load). */
const every70 = (t: number, server: { answer(): number }) => {
  if (t % 70 === 0) server.answer();
};

Deno.test("one connection answered every 70 ms: the rate over its span, exactly the server's", async () => {
  const { counts } = await drive({ ...JOB, connections: 1 }, every70);
  // The window is 1000 … 3000 ms. Answers come at multiples of 70 ms: the first in the window at 1050 ms (70 × 15),
  // the last at 2940 ms (70 × 42); 3010 ms is after the window. 28 answers, 27 gaps of 70 ms over 1.89 s: 14.2857/s.
  assertEquals(counts.validResponses, 28);
  assertAlmostEquals(counts.countedRate!, 27 / 1.89, 1e-9);
  assertEquals(countedSpanOf([counts]), 1890);
  // The server's 1000/70 exactly; the count over the window reads 28 / 2 s = 14.
  assertEquals(countedRate(counts.validResponses, counts.durationMs, countedSpanOf([counts])).toFixed(4), "14.2857");
  assertEquals(counts.lateResponses, 1);
});

Deno.test("two connections answered together: each over its own span, the pairs' rate exactly", async () => {
  const { counts } = await drive(JOB, every70);
  // Each connection: 28 answers, 1050 … 2940 ms, 27 gaps of 70 ms: 14.2857/s; both 28.5714/s, the server's 2 every
  // 70 ms. (All 56 answers over their common span would read 55 / 1.89 s = 29.10/s, 1.9% high: 27 of their 55 gaps
  // are 0 ms.) n − 1 = 55 intervals at 28.5714/s take 1925 ms.
  assertEquals(counts.validResponses, 56);
  assertAlmostEquals(counts.countedRate!, 2 * 27 / 1.89, 1e-9);
  assertEquals(countedSpanOf([counts]), 1925);
  assertEquals(countedRate(counts.validResponses, counts.durationMs, countedSpanOf([counts])).toFixed(4), "28.5714");
});

Deno.test("one connection answered unevenly: no rate over its span, the count over the window", async () => {
  // Answers 30 ms, then 110 ms apart (at 0 and 30 ms of every 140): mean gap 70 ms, deviation 40 ms, variation 0.57.
  const { counts } = await drive({ ...JOB, connections: 1 }, (t, server) => {
    if (t % 140 === 0 || t % 140 === 30) server.answer();
  });
  // Window 1000 … 3000 ms: 1010 (7 × 140 + 30), then 1120, 1150, …, 2940, 2970 (two in each 140 ms): 29 in all.
  assertEquals([counts.validResponses, counts.countedRate], [29, undefined]);
  assertEquals(countedSpanOf([counts]), undefined);
  assertEquals(countedRate(counts.validResponses, counts.durationMs, countedSpanOf([counts])), 14.5);
});

Deno.test("two processes each counting evenly: their rates add", async () => {
  const one = { ...JOB, connections: 1 };
  const a = (await drive(one, every70)).counts;
  // Process b starts 400 ms later (moment 0 of the fake clock's epoch is 1,000,000 ms): its own window 1400 … 3400 ms,
  // answers at 1400 … 3360 ms (70 × 20 … 70 × 48): 29, 28 gaps of 70 ms.
  const late: EngineJob = { ...one, startAtEpochMs: 1_000_400 };
  const b = (await drive(late, every70)).counts;
  assertEquals([a.validResponses, b.validResponses], [28, 29]);
  // 2 × 14.2857/s; the 56 intervals of 57 responses at that rate take 1960 ms.
  assertEquals(countedSpanOf([a, b]), 1960);
  // A process that counted nothing does not matter; one that counted without a rate over spans leaves none.
  assertEquals(countedSpanOf([a, { ...b, validResponses: 0, countedRate: undefined }]), 1890);
  assertEquals(countedSpanOf([a, { ...b, countedRate: undefined }]), undefined);
});

Deno.test("fixed counts: the span n − 1 intervals take at the summed rate", () => {
  // 10 responses at 5/s: 9 intervals of 200 ms.
  assertEquals(countedSpanOf([{ validResponses: 10, countedRate: 5 }]), 1800);
  // 10 + 12 responses at 5 + 6/s: 21 intervals at 11/s = 1909.0909 ms.
  assertEquals(
    countedSpanOf([{ validResponses: 10, countedRate: 5 }, { validResponses: 12, countedRate: 6 }]),
    1909.091,
  );
  assertEquals(countedSpanOf([{ validResponses: 0 }, { validResponses: 0 }]), undefined);
});

Deno.test("a connection's gap variation: answers at 0, 10, 30 and 60 ms", () => {
  const s = new CountedSpan();
  for (const at of [100, 110, 130, 160]) s.add(at);
  // Gaps 10, 20, 30: mean 20, population deviation √(200 / 3) = 8.165, variation 0.40825.
  assertAlmostEquals(s.gapCv()!, 0.40825, 1e-5);
  const two = new CountedSpan();
  for (const at of [100, 110]) two.add(at);
  assertEquals(two.gapCv(), null);
});

Deno.test("the rate over spans: every connection that counted must have three answers, evenly, over half the window", () => {
  const span = (...at: number[]) => {
    const s = new CountedSpan();
    for (const t of at) s.add(t);
    return s;
  };
  // 2 gaps over 1.2 s: 1.6667/s; over 1.0 s: 2/s; a connection with no answer counts for nothing.
  const even = span(0, 600, 1200);
  assertAlmostEquals(rateOverSpans([even, span(500, 1000, 1500), new CountedSpan()], 2000)!, 2 / 1.2 + 2, 1e-9);
  // Two answers only; a span under half the window (a burst); gaps 300 and 900 ms (variation 0.5).
  assertEquals(rateOverSpans([even, span(0, 1500)], 2000), null);
  assertEquals(rateOverSpans([even, span(0, 400, 800)], 2000), null);
  assertEquals(rateOverSpans([even, span(0, 300, 1200)], 2000), null);
  // Gaps 800 and 1200 ms: variation 0.2.
  assertAlmostEquals(rateOverSpans([span(0, 800, 2000)], 2000)!, 1, 1e-9);
  assertEquals(rateOverSpans([], 2000), null);
});

/**
 * Over 4,000 windows of 2 s placed at random on the answers of `connections` connections (`next(random)` gives the
 * next answer time of each, ms, in turn, from 0): the mean rate over the connections' spans, over the span of all
 * answers together, and over the window, and the mean gap variation of all answers together.
 */
function windows(
  connections: number,
  next: (random: () => number, at: number[]) => number[],
): { spans: number; together: number; window: number; cv: number } {
  const random = seededRandom(27);
  let spans = 0, together = 0, window = 0, cv = 0;
  const n = 4000;
  for (let i = 0; i < n; i++) {
    const from = 1000 + 2000 * random();
    const each = Array.from({ length: connections }, () => new CountedSpan());
    const all = new CountedSpan();
    const inWindow: number[] = [];
    for (let at = next(random, []); Math.min(...at) < from + 2000; at = next(random, at)) {
      at.forEach((t, c) => {
        if (t >= from && t < from + 2000) {
          each[c].add(t);
          inWindow.push(t);
        }
      });
    }
    for (const t of inWindow.sort((a, b) => a - b)) all.add(t);
    spans += (rateOverSpans(each, 2000) ?? NaN) / n;
    together += countedRate(all.count, 2000, all.last - all.first) / n;
    window += countedRate(all.count, 2000) / n;
    cv += (all.gapCv() ?? 0) / n;
  }
  return { spans, together, window, cv };
}

Deno.test("simulated: each connection's span is unbiased, for even answers and for answers in pairs", () => {
  // 11 answers a second on one connection (a bcrypt server), each gap 1/11 s ± 20% (uniform jitter of deviation 0.2:
  // a = 0.2 × √3).
  const jitter = (r: () => number) => 1 + 0.2 * Math.sqrt(3) * (2 * r() - 1);
  const even = windows(1, (r, at) => [(at[0] ?? 0) + (1000 / 11) * jitter(r)]);
  assertAlmostEquals(even.spans / 11, 1, 0.005);
  assert(even.cv < MAX_COUNTED_GAP_CV, `${even.cv}`);
  // The same 11 a second from two connections answered in pairs (two threads of a pool finishing together, the
  // second 0–2 ms after the first) every 2/11 s ± 20%: each connection's own rate is unbiased.
  const pairs = windows(2, (r, at) => {
    const t = (at[0] ?? 0) + (2000 / 11) * jitter(r);
    return [t, t + 2 * r()];
  });
  assertAlmostEquals(pairs.spans / 11, 1, 0.005);
  // All answers over their common span read high, and unevenly enough that no span was taken from them together.
  assert(pairs.together / 11 > 1.03, `${pairs.together}`);
  assert(pairs.cv > MAX_COUNTED_GAP_CV, `${pairs.cv}`);
  // The count over the window is unbiased for both (it is only coarse).
  assertAlmostEquals(pairs.window / 11, 1, 0.01);
  assertAlmostEquals(even.window / 11, 1, 0.01);
});
