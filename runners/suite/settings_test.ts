import { assertEquals, assertThrows } from "@std/assert";
import { httpJson } from "../../workloads/http_json.ts";
import { micro } from "../../workloads/micro.ts";
import { startup } from "../../workloads/startup.ts";
import type { Workload } from "../../workloads/types.ts";
import { RequestError } from "../base/mod.ts";
import { effectiveSettings, PROFILES, resolveOptions, validateSettings } from "./settings.ts";
import { planGroups } from "./plan.ts";
import { chosenCpuRate } from "../kinds/cpu_rate.ts";

const short: Workload = { ...httpJson, defaults: { durationSec: 1, runs: 1, connections: 4 } };

Deno.test("a workload's budget shortens the quick profile only; its shape applies to both", () => {
  const quick = effectiveSettings("quick", short, {});
  assertEquals([quick.durationSec, quick.runs, quick.connections], [1, 1, 4]);
  const full = effectiveSettings("full", short, {});
  assertEquals([full.durationSec, full.runs, full.connections], [PROFILES.full.durationSec, PROFILES.full.runs, 4]);
});

Deno.test("explicit settings win over profile and workload", () => {
  const s = effectiveSettings("full", short, { runs: 7, connections: undefined });
  assertEquals([s.runs, s.connections], [7, 4]);
});

Deno.test("settings are validated with the field named", () => {
  const error = assertThrows(() => validateSettings({ connections: 0 }), RequestError, "must be a whole number ≥ 1");
  assertEquals([error.field, error.message.split(" ")[0]], ["settings.connections", "settings.connections"]);
  assertThrows(
    () => validateSettings({ durationSec: Number.NaN }),
    RequestError,
    "settings.durationSec must be a number > 0",
  );
  assertThrows(
    () => validateSettings({ minRuns: 5, maxRuns: 3 }),
    RequestError,
    "settings.maxRuns must be ≥ settings.minRuns (5), got 3",
  );
});

Deno.test("workload options: given, then environment, then default; bad numbers name the option", () => {
  const w: Workload = {
    ...httpJson,
    options: [{ name: "cost", description: "c", type: "number", default: 10, min: 4, max: 31, integer: true }],
  };
  assertEquals(resolveOptions(w, {}).cost, 10);
  assertEquals(resolveOptions(w, { cost: "12" }).cost, 12);
  assertThrows(
    () => resolveOptions(w, { cost: "3" }),
    RequestError,
    "options.cost must be a whole number ≥ 4 and ≤ 31",
  );
});

Deno.test("keep-alive off reaches the workloads that open connections only", () => {
  assertEquals(effectiveSettings("quick", httpJson, { keepAlive: false }).keepAlive, false);
  for (const w of [startup, micro]) {
    assertEquals(effectiveSettings("quick", w, { keepAlive: false }).keepAlive, true, w.kind);
  }
});

// docs/method.md "CPU per request and memory per connection": under --keep-alive off without --cpu-rate, the fixed rate
// is half the slowest runtime's closed-model rate in the first round, rounded down to two significant digits.
Deno.test("keep-alive off without --cpu-rate: the variant chooses its fixed rate from its first round", () => {
  const [off] = planGroups([httpJson], "quick", { keepAlive: false }, {});
  assertEquals([off.settings.cpuRate, off.cpuRateFromFirstRound], [20_000, true]);
  // An explicit rate, 0 included, is the user's; with keep-alive on the workload's default serves.
  for (const overrides of [{ keepAlive: false, cpuRate: 5_000 }, { keepAlive: false, cpuRate: 0 }, {}]) {
    assertEquals(planGroups([httpJson], "quick", overrides, {})[0].cpuRateFromFirstRound, undefined);
  }
  // By hand: min(3,940, 1,878, 2,507) = 1,878; half is 939; two significant digits, down: 930.
  assertEquals(chosenCpuRate([3_940, 1_878, 2_507]), 930);
  assertEquals(chosenCpuRate([250_000]), 120_000);
  assertEquals(chosenCpuRate([19]), 9);
  assertEquals(chosenCpuRate([0, -1]), null);
});
