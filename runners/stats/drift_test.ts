import { assertAlmostEquals, assertEquals, assertThrows } from "@std/assert";
import { kendallTrend } from "./drift.ts";

// docs/workloads.md "uuid-file": consecutive runs of one runtime show no monotone trend beyond noise (Mann–Kendall).
Deno.test("Mann–Kendall: S, τ and the exact p from every ordering", () => {
  // By hand, 4 runs [3, 1, 4, 2]: pairs (3,1) −, (3,4) +, (3,2) −, (1,4) +, (1,2) +, (4,2) − → S = 0, τ = 0, p = 1.
  assertEquals(kendallTrend([3, 1, 4, 2]), { n: 4, s: 0, tau: 0, p: 1 });
  // 4 runs, one swap from falling steadily [4, 3, 1, 2]: S = −6 + 2 = −4, τ = −4/6. Of the 24 orderings, S = ±6 for
  // 1 each and S = ±4 for 3 each (one adjacent swap away): P(|S| ≥ 4) = 8/24.
  const t = kendallTrend([4, 3, 1, 2]);
  assertEquals([t.s, t.n], [-4, 4]);
  assertAlmostEquals(t.tau, -4 / 6, 1e-12);
  assertAlmostEquals(t.p, 8 / 24, 1e-12);
  // The drift seen on ext4 (deno, per-run requests/s of one default suite): 3 runs can never be significant (2/6).
  assertAlmostEquals(kendallTrend([9_596, 4_738, 3_450]).p, 2 / 6, 1e-12);
  // 6 runs falling steadily: 2 of 720 orderings are as extreme.
  assertAlmostEquals(kendallTrend([6, 5, 4, 3, 2, 1]).p, 2 / 720, 1e-12);
  assertThrows(() => kendallTrend([1]), RangeError);
});

Deno.test("Mann–Kendall beyond 9 runs: the normal approximation with continuity correction", () => {
  // 10 runs rising steadily: S = 45, Var(S) = 10·9·25/18 = 125, z = (45 − 1)/√125 = 3.9355, two-sided p = 8.3e-5.
  const t = kendallTrend([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
  assertEquals([t.s, t.tau], [45, 1]);
  assertAlmostEquals(t.p, 8.3e-5, 1e-5);
});
