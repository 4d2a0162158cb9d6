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

Deno.test("a record says which pairing produced its ratios: the pairing's mode and its duet ratios validate", async () => {
  const base = JSON.parse(await Deno.readTextFile(new URL("../../fixtures/results/base.json", import.meta.url)));
  const [a, b] = base.records;
  a.pairing = { id: "http-json/default t", records: [a.id, b.id], mode: "duet" };
  a.duet = [{
    pairing: "duet",
    against: b.id,
    figure: "serverCpuUsPerRequestAtRate",
    ratePerSecond: 20_000,
    windowMs: 500,
    ratio: 0.52,
    ci95: { low: 0.51, high: 0.53 },
    halfWidthPercent: 1.9,
    placementBias: 0.98,
    windows: [{ round: 0, placement: 0, ratio: 0.51 }, { round: 1, placement: 1, ratio: 0.53 }],
  }];
  assertEquals(validateResult(base), []);
  a.duet[0].pairing = "rounds";
  assertEquals(validateResult(base).length > 0, true);
  a.duet[0].pairing = "duet";
  a.pairing.mode = "alone";
  assertEquals(validateResult(base).length > 0, true);
});
