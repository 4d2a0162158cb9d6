// README walk: shows claims of docs/workloads.md "Process and in-process workloads" (micro).
// The micro workload: tinybench inside every runtime, each task's sample
// verified, statistics mapped to figures that validate against the schema;
// a script whose sample is wrong is caught.
import { assert, assertEquals, assertMatch } from "@std/assert";
import { microFigures, parseMicroReport } from "../../runners/kinds/micro.ts";
import { validateResult } from "../../runners/schema/mod.ts";
import { run } from "../_suite.ts";
import { micro, TINYBENCH_VERSION } from "../../workloads/micro.ts";
import type { MicroWorkload } from "../../workloads/types.ts";
import { entries, withTmp } from "../_helpers.ts";

const TIMERS = ["hrtimeNow", "performanceNow", "bunNanoseconds"];

Deno.test("micro: every task on every runtime is verified and its statistics validate against the schema", async () => {
  await withTmp(async (tmp) => {
    const result = await run({
      workloads: [micro],
      runtimes: ["deno", "node", "bun"],
      settings: { durationSec: 0.05, warmupSec: 0.02, runs: 1 },
      tempDir: tmp,
    });
    assertEquals(validateResult(result), []);
    assertEquals(result.records.length, 12);
    for (const record of result.records) {
      assertEquals(record.status, "completed", `${record.id}: ${JSON.stringify(record.error)}`);
      assertEquals(record.kind, "micro");
      assertEquals(record.headline, { figure: "opsPerSecond", higherIsBetter: true });
      const f = record.runs[0].figures;
      assert(f.opsPerSecond > 0 && f.samples >= 1, record.id);
      assert(f.callLatencyP50Ns <= f.callLatencyP99Ns, record.id);
      const perCall = record.facts.opsPerCall as number;
      assert(
        Math.abs(f.opsPerSecond - f.callsPerSecond * perCall) <= perCall,
        "throughput per operation, not per call",
      );
      assert(TIMERS.includes(String(record.facts.timer)), String(record.facts.timer));
      assertEquals(record.facts.tinybenchTimeMs, 50);
      assertEquals(record.facts.tinybenchWarmupTimeMs, 20);
      assertMatch(String(record.facts.tinybenchRuntime), new RegExp(`^${record.runtime.name} `));
      assert(record.verification.checks.every((c) => c.passed));
      assert(record.verification.checks.some((c) => c.name === "sample"));
    }
    const bcrypt = result.records.find((r) => r.id === "micro/bcrypt/node")!;
    assertMatch(String(bcrypt.verification.checks.find((c) => c.name === "sample")!.actual), /^\$2b\$04\$/);
    assertEquals(micro.dependencies?.tinybench, TINYBENCH_VERSION);
    assertEquals(await entries(tmp), []);
  });
});

Deno.test("a micro script whose sample is wrong makes the record invalid", async () => {
  await withTmp(async (tmp) => {
    const lying: MicroWorkload = {
      ...micro,
      name: "lying-micro",
      variants: [{ name: "uuid", description: "prints a sample that is no UUID" }],
      script: () => ({ entry: new URL("../fixtures/micro_bad_sample.mjs", import.meta.url) }),
    };
    const result = await run({ workloads: [lying], runtimes: ["deno"], settings: { runs: 1 }, tempDir: tmp });
    const [record] = result.records;
    assertEquals(record.status, "invalid");
    assertEquals(record.error?.phase, "verify");
    assertMatch(record.error!.message, /sample: got "not-a-uuid", expected "a v4 UUID"/);
    assertEquals(record.runs.length, 0);
  });
});

// docs/workloads.md (micro): "opsPerSecond … operations ÷ time … not the mean of 1/latency".
Deno.test("micro throughput is operations ÷ time, not the mean of 1/latency, with a skewed latency distribution", () => {
  // 990 calls of 1 µs and 10 GC-paused calls of 1 ms: 1000 calls took 10.99 ms, so 90,992 calls/s. The mean of
  // 1/latency, tinybench's throughput.mean, is 990,010/s: eleven times too high, and a runtime with fewer but
  // longer pauses would rank differently on it.
  const latencies = [...Array(990).fill(0.001), ...Array(10).fill(1)];
  const mean = latencies.reduce((a, b) => a + b, 0) / latencies.length;
  const meanOfInverse = latencies.reduce((a, b) => a + 1000 / b, 0) / latencies.length;
  const report = {
    task: "json",
    opsPerCall: 1,
    sample: "x",
    selfCheck: true,
    sink: 1,
    timer: "hrtimeNow",
    detectedResolutionMs: null,
    runtime: "node",
    runtimeVersion: "20.0.0",
    timeMs: 100,
    warmupTimeMs: 10,
    latencyMs: { mean, p50: 0.001, p99: 1, min: 0.001, max: 1, rme: 9, samples: 1000 },
    throughput: { mean: meanOfInverse, p50: 1_000_000, p99: 1000, rme: 9 },
  };
  const figures = microFigures(report);
  assertEquals(Math.round(figures.callsPerSecond), Math.round(1000 / 10.99 * 1000));
  assertEquals(figures.opsPerSecond, figures.callsPerSecond);
  assert(figures.opsPerSecond < meanOfInverse / 10, "not the mean of 1/latency");
});

Deno.test("a micro report is parsed strictly and mapped to per-operation figures", () => {
  const report = {
    task: "uuid",
    opsPerCall: 100,
    sample: "x",
    selfCheck: true,
    sink: 1,
    timer: "hrtimeNow",
    detectedResolutionMs: null,
    runtime: "node",
    runtimeVersion: "20.0.0",
    timeMs: 100,
    warmupTimeMs: 10,
    latencyMs: { mean: 0.004, p50: 0.003, p99: 0.01, min: 0.002, max: 0.2, rme: 1.5, samples: 900 },
    throughput: { mean: 250_000, p50: 300_000, p99: 100_000, rme: 0.5 },
  };
  const figures = microFigures(parseMicroReport(`noise\n${JSON.stringify(report)}\n`));
  assertEquals(figures.opsPerSecond, 25_000_000);
  assertEquals(figures.callLatencyP50Ns, 3000);
  assertEquals(figures.samples, 900);
  assertMatch(
    (() => {
      try {
        parseMicroReport("not json");
        return "";
      } catch (e) {
        return (e as Error).message;
      }
    })(),
    /printed no JSON report/,
  );
});
