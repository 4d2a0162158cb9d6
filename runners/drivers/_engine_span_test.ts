// The counted responses' span (docs/method.md "Slow workloads: enough responses to rank"): each engine process reports
// when its first and last valid response of the window came, from its window's start; the harness merges them into
// `countedSpanMs`. HTTP load in process with a fake clock, a fake network and a fake server, as in
// _engine_accounting_test.ts: 2 connections, 1 in flight each, 1 s warm-up, 2 s window.
import { assertEquals } from "@std/assert";
import { drive, JOB } from "./_engine_fake_server.ts";
import type { EngineJob } from "./_engine_http_load.ts";
import { countedSpanOf } from "./_engine_merge.ts";
import { countedRate } from "../stats/counted_rate.ts";

/** The server answers what was written before, but only every 70 ms (at 70, 140, … ms into the load). */
const every70 = (t: number, server: { answer(): number }) => {
  if (t % 70 === 0) server.answer();
};

Deno.test("a server answering at known times: the first and last counted response, from the window's start", async () => {
  const { counts } = await drive(JOB, every70);
  // The window is 1000 … 3000 ms. Answers come at multiples of 70 ms, both connections at once: the first in the
  // window at 1050 ms (70 × 15), the last at 2940 ms (70 × 42); 3010 ms is after the window. 28 steps × 2 = 56.
  assertEquals(counts.validResponses, 56);
  assertEquals(counts.countedMs, [50, 1940]);
  assertEquals(countedSpanOf([counts]), 1890);
  // 55 intervals over 1.89 s = 29.10/s; over the window it would be the whole count 56 / 2 s = 28.
  assertEquals(countedRate(counts.validResponses, counts.durationMs, countedSpanOf([counts])).toFixed(2), "29.10");
  assertEquals(counts.lateResponses, 2);
});

Deno.test("two processes whose windows opened 400 ms apart: the span runs window on window, not over both", async () => {
  const a = (await drive(JOB, every70)).counts;
  // Process b starts its load 400 ms later (its shared start, on the fake clock's epoch: moment 0 is 1,000,000 ms):
  // its window is 1400 … 3400 ms; answers at 1400 (70 × 20) … 3360 ms (70 × 48): 29 steps × 2 = 58, at 0 … 1960 ms.
  const late: EngineJob = { ...JOB, startAtEpochMs: 1_000_400 };
  const b = (await drive(late, every70)).counts;
  assertEquals([b.validResponses, b.countedMs], [58, [0, 1960]]);
  assertEquals(b.windowStartMs - a.windowStartMs, 400);
  // a: 50 … 1940 ms; b: 0 … 1960 ms. Merged: 0 … 1960 = 1960 ms (on one clock, 1050 … 3360 ms = 2310 ms, which would
  // put 113 responses of two 2 s windows over 2.3 s: 16% low).
  assertEquals(countedSpanOf([a, b]), 1960);
});

Deno.test("merging fixed counts: earliest first to latest last; none below two responses", () => {
  // 12.5 … 1980 ms and 3 … 1990.25 ms: 3 … 1990.25 = 1987.25 ms.
  assertEquals(
    countedSpanOf([{ validResponses: 10, countedMs: [12.5, 1980] }, { validResponses: 12, countedMs: [3, 1990.25] }]),
    1987.25,
  );
  // One response each: two in all, 5 … 100 ms = 95 ms.
  assertEquals(
    countedSpanOf([{ validResponses: 1, countedMs: [5, 5] }, { validResponses: 1, countedMs: [100, 100] }]),
    95,
  );
  // One response in all, or none: no span (no interval to measure).
  assertEquals(countedSpanOf([{ validResponses: 1, countedMs: [5, 5] }, { validResponses: 0 }]), undefined);
  assertEquals(countedSpanOf([{ validResponses: 0 }, { validResponses: 0 }]), undefined);
});

Deno.test("the open model reports no span: it counts an answer by when its request was due", async () => {
  const open: EngineJob = {
    ...JOB,
    open: { phases: [{ durationMs: 1000, fromRate: 100, toRate: 100, measured: true }], arrival: "uniform", seed: 1 },
  };
  const { counts } = await drive(open);
  // 100/s for 1 s, all answered: counted, yet no span.
  assertEquals([counts.validResponses, counts.countedMs], [100, undefined]);
});
