import { assertEquals, assertRejects, assertThrows } from "@std/assert";
import { UsageError } from "../runners/base/mod.ts";
import { httpJson } from "./http_json.ts";
import { loadWorkloadModule, validateWorkload } from "./validate.ts";

const fixtures = new URL("../tests/fixtures/", import.meta.url);

Deno.test("a built-in workload is valid", () => {
  assertEquals(validateWorkload(httpJson, "http_json.ts"), httpJson);
});

Deno.test("each malformed field is named", () => {
  const cases: [unknown, string][] = [
    [null, "expected an object"],
    [{ ...httpJson, name: "Bad Name" }, `"name" must be kebab-case`],
    [{ ...httpJson, kind: "carrier-pigeon" }, `"kind" must be one of http, websocket, process, micro`],
    [{ ...httpJson, variants: [] }, `"variants" must be a non-empty array`],
    [
      { ...httpJson, variants: [{ name: "a", description: "" }, { name: "a", description: "" }] },
      `variant "a" appears twice`,
    ],
    [{ ...httpJson, traffic: undefined }, `a http workload needs a "traffic" function`],
    [{ ...httpJson, kind: "process" }, `a process workload needs a "prepare" function`],
    [{ ...httpJson, kind: "process", prepare: () => {} }, `a process workload needs a "headline"`],
    [{ ...httpJson, kind: "micro" }, `a micro workload needs a "script" function`],
    [{ ...httpJson, options: [{ name: "Cost", type: "number" }] }, `"options[0].name" must be a kebab-case flag name`],
    [{ ...httpJson, dependencies: { ws: 8 } }, `"dependencies" must map npm package names to version strings`],
  ];
  for (const [value, message] of cases) assertThrows(() => validateWorkload(value, "m.ts"), UsageError, message);
});

Deno.test("a module that throws on import is a one-line usage error", async () => {
  await assertRejects(
    () => loadWorkloadModule(new URL("modules/throws_on_import.ts", fixtures).href),
    UsageError,
    "cannot import (database password missing)",
  );
});

Deno.test("a module exporting a malformed workload or none is rejected", async () => {
  await assertRejects(
    () => loadWorkloadModule(new URL("modules/not_a_workload.ts", fixtures).href),
    UsageError,
    `(export default): not a workload: "variants" must be a non-empty array`,
  );
  await assertRejects(
    () => loadWorkloadModule(new URL("modules/no_workload.ts", fixtures).href),
    UsageError,
    "exports no workload",
  );
});

Deno.test("a module's exported workloads are loaded and validated", async () => {
  const loaded = await loadWorkloadModule(new URL("wrong_body.ts", fixtures).href);
  assertEquals(loaded.map((w) => w.name), ["wrong-body"]);
});

Deno.test("run() refuses a malformed workload before measuring anything", async () => {
  const { run } = await import("../runners/suite/run.ts");
  const broken = { ...httpJson, name: "broken", traffic: undefined } as unknown as typeof httpJson;
  await assertRejects(
    () => run({ workloads: [broken], runtimes: ["deno"] }),
    UsageError,
    `workload broken: not a workload: a http workload needs a "traffic" function`,
  );
});
