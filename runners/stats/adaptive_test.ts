import { assertEquals, assertMatch } from "@std/assert";
import { ciWarning, needsAnotherRun, runPlan } from "./adaptive.ts";
import { PROFILES } from "../suite/settings.ts";

Deno.test("fixed runs: exactly --runs", () => {
  const plan = runPlan({ ...PROFILES.quick, runs: 3 });
  assertEquals(plan.adaptive, false);
  assertEquals([0, 1, 2, 3].map((n) => needsAnotherRun(plan, Array(n).fill(100))), [true, true, true, false]);
});

Deno.test("adaptive runs stop once the 95% CI is within the target, or at the maximum", () => {
  const plan = runPlan({ ...PROFILES.quick, minRuns: 2, maxRuns: 5, ciTargetPercent: 3 });
  assertEquals(plan, { adaptive: true, min: 2, max: 5, ciTargetPercent: 3 });
  assertEquals(needsAnotherRun(plan, [100]), true, "below the minimum");
  assertEquals(needsAnotherRun(plan, [100, 100.1]), false, "tight enough after two");
  assertEquals(needsAnotherRun(plan, [100, 120, 90]), true, "too wide");
  assertEquals(needsAnotherRun(plan, [100, 120, 90, 110, 80]), false, "at the maximum");
  assertMatch(
    ciWarning(plan, [100, 120, 90, 110, 80], "requestsPerSecond")!.message,
    /still ±\d+\.\d% .* after 5 runs/,
  );
  assertEquals(ciWarning(plan, [100, 100.1], "requestsPerSecond"), null);
});

Deno.test("only --max-runs gives a minimum of three; only --min-runs a maximum of ten", () => {
  assertEquals(runPlan({ ...PROFILES.quick, maxRuns: 6 }).min, 3);
  assertEquals(runPlan({ ...PROFILES.quick, minRuns: 4 }).max, 10);
});
