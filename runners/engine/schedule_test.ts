import { assert, assertAlmostEquals, assertEquals } from "@std/assert";
import { type RatePhase, Schedule } from "./_schedule.ts";

function all(phases: RatePhase[], arrival: "uniform" | "poisson", seed = 1): { t: number; phase: number }[] {
  const s = new Schedule(phases, arrival, seed);
  const out: { t: number; phase: number }[] = [];
  for (let t = s.next(); t !== null; t = s.next()) out.push({ t, phase: s.phase });
  return out;
}

// docs/method.md "Open model": "`--rate <n>` sends requests on a fixed schedule, n per second (evenly spaced …)".
Deno.test("a constant rate is evenly spaced and holds its count", () => {
  const got = all([{ durationMs: 1000, fromRate: 2000, toRate: 2000, measured: true }], "uniform");
  assertEquals(got.length, 2000);
  assertAlmostEquals(got[1].t - got[0].t, 0.5, 1e-9);
});

Deno.test("a ramp sends the area under its rate, faster towards the higher end", () => {
  const got = all([{ durationMs: 2000, fromRate: 1000, toRate: 3000, measured: true }], "uniform");
  assertAlmostEquals(got.length, (1000 + 3000) / 2 * 2, 1);
  const first = got.filter((g) => g.t < 1000).length;
  const second = got.length - first;
  assertAlmostEquals(first, 1500, 2);
  assertAlmostEquals(second, 2500, 2);
});

// docs/method.md "Open model": "`--arrival poisson` for a Poisson process from a seeded generator"; phases one after
// another.
Deno.test("phases follow each other, numbered; Poisson arrivals are seeded and keep the mean rate", () => {
  const phases: RatePhase[] = [
    { durationMs: 500, fromRate: 1000, toRate: 1000, measured: false },
    { durationMs: 1000, fromRate: 0, toRate: 2000, measured: true },
  ];
  const got = all(phases, "uniform");
  assertEquals(got.filter((g) => g.phase === 0).length, 500);
  assert(got.filter((g) => g.phase === 1).every((g) => g.t >= 500 && g.t < 1500));
  const poisson = all([{ durationMs: 10_000, fromRate: 1000, toRate: 1000, measured: true }], "poisson", 7);
  assertAlmostEquals(poisson.length, 10_000, 400);
  assertEquals(poisson, all([{ durationMs: 10_000, fromRate: 1000, toRate: 1000, measured: true }], "poisson", 7));
  const ramp = all([{ durationMs: 2000, fromRate: 0, toRate: 2000, measured: true }], "poisson", 3);
  assertAlmostEquals(ramp.length, 2000, 200);
});
