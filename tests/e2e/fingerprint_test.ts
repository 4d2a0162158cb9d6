// README walk: shows claims of docs/method.md "Environment fingerprint".
// The environment fingerprint of this machine validates against the result
// schema, names the load generators with their versions, and warns about
// frequency scaling, boost and a busy machine.
import { assert, assertEquals, assertMatch } from "@std/assert";
import { environmentWarnings, fingerprint } from "../../runners/suite/environment.ts";
import { builtinLoadGenerators } from "../../runners/drivers/generators.ts";
import { SCHEMA_VERSION } from "../../runners/schema/result.ts";
import { validateResult } from "../../runners/schema/mod.ts";

Deno.test("the fingerprint of this machine validates against the schema", async () => {
  const environment = await fingerprint();
  const doc = {
    schemaVersion: SCHEMA_VERSION,
    suite: { name: "rtbench", version: "0.0.0" },
    startedAt: new Date().toISOString(),
    finishedAt: null,
    settings: { profile: "quick", workloads: [], runtimes: [], loadGenerator: "auto", overrides: {} },
    environment,
    warnings: environmentWarnings(environment),
    records: [],
  };
  assertEquals(validateResult(doc), []);
  assert(environment.logicalCores >= 1);
  assertMatch(environment.kernel, /\d/);
  assertEquals(Object.keys(environment.loadGenerators!), builtinLoadGenerators.map((g) => g.name));
  assertMatch(environment.loadGenerators!.autocannon!, /^\d+\.\d+\.\d+$/);
  if (environment.gitCommit !== null) assertEquals(typeof environment.gitDirty, "boolean");
  if (Deno.build.os === "linux") assertEquals(environment.loadAverage?.length, 3);
});

Deno.test("a powersave governor, boost and a busy machine are warned about", async () => {
  const environment = {
    ...(await fingerprint({ loadGenerators: [] })),
    cpuGovernor: "powersave",
    cpuTurbo: true,
    allowedCpus: "0-1",
    loadAverage: [3, 2, 1],
  };
  assertEquals(environmentWarnings(environment).map((w) => w.code), ["cpu-governor", "cpu-turbo", "busy-machine"]);
  const quiet = { ...environment, cpuGovernor: "performance", cpuTurbo: false, loadAverage: [0.1, 0.1, 0.1] };
  assertEquals(environmentWarnings(quiet), []);
});
