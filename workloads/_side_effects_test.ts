import { assertEquals } from "@std/assert";
import { sideEffectChecks } from "./_side_effects.ts";

const rule = { what: "files created", inFlight: 2, tolerance: 0 };

Deno.test("side effects: between the answered and the sent requests passes, whatever the in-flight allowance", () => {
  const run = { runtime: "deno", run: 0, validResponses: 700, totalResponses: 733, sentRequests: 916 };
  const checks = sideEffectChecks(run, { ...rule, actual: 916 });
  assertEquals(checks.map((c) => c.passed), [true, true]);
  assertEquals(checks[1].expected, 183, "the unanswered requests are the allowance");
  // The old allowance, one request per connection and phase, would have failed this run.
  const without = sideEffectChecks({ ...run, sentRequests: undefined }, { ...rule, actual: 916 });
  assertEquals(without.map((c) => c.passed), [false, false]);
});

Deno.test("side effects: more than the sent requests explain, or fewer than the answered, fail", () => {
  const run = { runtime: "deno", run: 1, validResponses: 90, totalResponses: 100, sentRequests: 110 };
  const above = sideEffectChecks(run, { ...rule, actual: 111 });
  assertEquals(above.map((c) => [c.name, c.passed]), [
    ["run 2: files created vs expected", false],
    ["run 2: files created for requests sent but not answered (at most)", false],
  ]);
  assertEquals(sideEffectChecks(run, { ...rule, actual: 99 }).map((c) => c.passed), [false, true]);
  // Several effects per request and an offset for probes that do other work.
  const queries = sideEffectChecks(run, { ...rule, actual: 2000 + 5, perRequest: 20, offset: 5 });
  assertEquals([queries[0].expected, queries[0].passed], [2005, true]);
  assertEquals(sideEffectChecks(run, { ...rule, actual: 2206, perRequest: 20, offset: 5 })[1].passed, false);
});
