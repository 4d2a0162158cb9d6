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

Deno.test("side effects without a count of sent requests: one in-flight allowance per load, plus the timed out", () => {
  // 003's Node run under autocannon, measured again over a longer window: 310 answers (expected 310 − 1 = 309 with
  // the verification's invalid signup), 538 accounts, so 538 − 309 = 229 beyond; 200 allowed a load (100 connections,
  // with a warm-up). Two loads allow 400; one allowed 200 and failed the run.
  const run = { runtime: "node", run: 1, validResponses: 300, totalResponses: 310 };
  const signup = { what: "accounts inserted", actual: 538, offset: -1, inFlight: 200, tolerance: 0 };
  const once = sideEffectChecks(run, signup);
  assertEquals(once.map((c) => [c.expected, c.actual, c.passed]), [[309, 538, false], [200, 229, false]]);
  const twice = sideEffectChecks({ ...run, unsent: { loads: 2, timeouts: 0 } }, signup);
  assertEquals(twice.map((c) => [c.expected, c.passed]), [[309, true], [400, true]]);
  // Each timed-out request may have done its work too: 1 load and 29 timeouts allow 200 + 29 = 229.
  assertEquals(sideEffectChecks({ ...run, unsent: { loads: 1, timeouts: 29 } }, signup)[1].passed, true);
  assertEquals(sideEffectChecks({ ...run, unsent: { loads: 1, timeouts: 28 } }, signup)[1].passed, false);
});
