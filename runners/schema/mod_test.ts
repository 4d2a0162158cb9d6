import { assertEquals, assertThrows } from "@std/assert";
import { parseResult, SchemaError, validateResult } from "./mod.ts";

const minimal = {
  schemaVersion: 1,
  suite: { name: "rtbench", version: "0.1.0" },
  startedAt: "2026-11-21T10:00:00.000Z",
  finishedAt: null,
  settings: { profile: "quick", workloads: [], runtimes: [], loadGenerator: "autocannon", overrides: {} },
  environment: {
    os: "linux",
    osName: null,
    kernel: "6.1",
    arch: "x86_64",
    cpuModel: null,
    logicalCores: 2,
    allowedCpus: "0-1",
    memoryBytes: 1024,
    cpuGovernor: null,
    cpuTurbo: null,
    harness: { deno: "2.9.6", v8: "15.0", typescript: "6.0" },
    gitCommit: null,
  },
  warnings: [],
  records: [],
};

Deno.test("a minimal empty result is valid", () => {
  assertEquals(validateResult(minimal), []);
});

Deno.test("parseResult names the path of the first bad field", () => {
  const bad = structuredClone(minimal) as Record<string, unknown>;
  (bad.environment as Record<string, unknown>).logicalCores = 0;
  const error = assertThrows(() => parseResult(bad), SchemaError);
  assertEquals(error.message, "Invalid result at /environment/logicalCores: must be >= 1");
});

Deno.test("missing and unknown fields are reported at their own path", () => {
  const { suite: _, ...noSuite } = minimal;
  assertEquals(validateResult(noSuite)[0], { path: "/suite", message: "is required" });
  assertEquals(validateResult({ ...minimal, extra: 1 })[0], {
    path: "/extra",
    message: "is not a field of the schema",
  });
});

Deno.test("text that is not JSON is a SchemaError, not a crash", () => {
  assertThrows(() => parseResult("{nope"), SchemaError, "Invalid result at /: not JSON");
});
