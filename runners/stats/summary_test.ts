import { assertAlmostEquals, assertEquals, assertThrows } from "@std/assert";
import { median, summarize } from "./summary.ts";
import { tQuantile } from "./student_t.ts";

// README "What the numbers mean": "the median over runs and the 95% confidence interval of the mean (Student's t)".
Deno.test("summarize gives median, sample stdev and a t-based 95% CI", () => {
  const s = summarize([10, 12, 14]);
  assertEquals(s.median, 12);
  assertEquals(s.mean, 12);
  assertEquals(s.stdev, 2);
  // mean ± t(0.975, 2) · s / √n = 12 ± 4.303 · 2 / √3
  assertAlmostEquals(s.ci95!.low, 12 - 4.303 * 2 / Math.sqrt(3), 1e-3);
  assertAlmostEquals(s.ci95!.high, 12 + 4.303 * 2 / Math.sqrt(3), 1e-3);
});

// README "What the numbers mean": "truncated at 0 (no figure can be negative)"; Student's t for two runs is 12.7.
Deno.test("a lower bound below zero is truncated at zero; the upper bound is not", () => {
  const s = summarize([1000, 9000]);
  assertEquals(s.ci95!.low, 0);
  assertAlmostEquals(s.ci95!.high, 5000 + 12.7062047 * Math.sqrt(32_000_000) / Math.sqrt(2), 1e-2);
});

// README "What the numbers mean": "One run has no interval".
Deno.test("one run has no confidence interval", () => {
  assertEquals(summarize([5]).ci95, null);
  assertThrows(() => summarize([]), RangeError);
});

Deno.test("median of an even count averages the middle pair", () => {
  assertEquals(median([4, 1, 3, 2]), 2.5);
});

Deno.test("t quantiles match the published table and approach 1.96", () => {
  assertAlmostEquals(tQuantile(1), 12.706, 1e-3);
  assertAlmostEquals(tQuantile(30), 2.042, 1e-3);
  assertAlmostEquals(tQuantile(60), 2.000, 2e-3);
  assertAlmostEquals(tQuantile(10_000), 1.960, 1e-3);
});
