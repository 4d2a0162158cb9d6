// README walk: shows claims of docs/method.md "Runs and confidence intervals".
// --min-runs/--max-runs: runs are added while the 95% CI is wider than the
// target; at the maximum the record says the interval stayed wide.
import { assert, assertAlmostEquals, assertEquals } from "@std/assert";
import { run } from "../_suite.ts";
import { summarize } from "../../runners/stats/summary.ts";
import { httpJson } from "../../workloads/http_json.ts";
import { micro } from "../../workloads/micro.ts";
import { startup } from "../../workloads/startup.ts";
import { wsEcho } from "../../workloads/ws_echo.ts";
import { withTmp } from "../_helpers.ts";
import type { MicroWorkload } from "../../workloads/types.ts";
import { unsteadyStartup } from "../fixtures/faulty_process.ts";
import { PROFILES } from "../../runners/suite/settings.ts";

Deno.test("an unreachable CI target runs up to --max-runs and warns", async () => {
  await withTmp(async (tmp) => {
    const result = await run({
      workloads: [httpJson],
      runtimes: ["deno"],
      // No two runs on a real machine agree to within a billionth.
      settings: { durationSec: 0.5, warmupSec: 0, minRuns: 2, maxRuns: 3, ciTargetPercent: 1e-9 },
      tempDir: tmp,
    });
    const [record] = result.records;
    assertEquals(record.status, "completed", JSON.stringify(record.error));
    assertEquals(record.runs.length, 3);
    assertEquals(record.summary.requestsPerSecond.n, 3);
    assert(record.warnings.some((w) => w.code === "ci-wide"));
    assertEquals(record.settings.maxRuns, 3);
  });
});

// The same rule holds for every kind: the run loop is shared, not each kind's own.
const ADAPTIVE = { minRuns: 3, maxRuns: 5, ciTargetPercent: 1e-9 };
for (
  const [workload, variant, settings] of [
    [wsEcho, "default", { durationSec: 0.3, warmupSec: 0, connections: 4 }],
    [micro, "uuid", { durationSec: 0.05, warmupSec: 0 }],
    [startup, "hello", { durationSec: 0.001 }],
  ] as const
) {
  Deno.test(`--min-runs 3 --max-runs 5 adds runs on ${workload.kind} (${workload.name}) as on HTTP`, async () => {
    await withTmp(async (tmp) => {
      const result = await run({
        workloads: [workload],
        runtimes: ["deno"],
        variants: [variant],
        settings: { ...settings, ...ADAPTIVE },
        options: workload === startup ? { "warmup-runs": 0 } : {},
        tempDir: tmp,
      });
      const [record] = result.records;
      assertEquals(record.status, "completed", JSON.stringify(record.error));
      assertEquals(record.runs.length, 5, "added runs up to --max-runs");
      assertEquals(record.summary[record.headline.figure].n, 5);
      assert(record.warnings.some((w) => w.code === "ci-wide"), JSON.stringify(record.warnings));
    });
  });
}

// A micro script that reports the same figure on every run (fixtures/micro_steady.mjs): 1,000,000 ops/s each time, so
// after three runs the interval is 1,000,000 ± 4.303 × 0 / √3 = ± 0: within a 1% target. Exactly --min-runs.
Deno.test("with a target its runs meet, a record stops at --min-runs, without a ci-wide warning", async () => {
  await withTmp(async (tmp) => {
    const steady: MicroWorkload = {
      ...micro,
      name: "steady-micro",
      variants: [{ name: "uuid", description: "the same figures every run" }],
      script: () => ({ entry: new URL("../fixtures/micro_steady.mjs", import.meta.url) }),
    };
    const result = await run({
      workloads: [steady],
      runtimes: ["deno"],
      settings: { minRuns: 3, maxRuns: 5, ciTargetPercent: 1 },
      tempDir: tmp,
    });
    const [record] = result.records;
    assertEquals(record.status, "completed", JSON.stringify(record.error));
    assertEquals(record.runs.map((r) => r.figures.opsPerSecond), [1e6, 1e6, 1e6]);
    assertEquals(record.warnings.filter((w) => w.code === "ci-wide"), []);
  });
});

// docs/method.md (Runs and confidence intervals): "a fixed number of runs whose interval is wider than ±10% of the mean
// carries `ci-wide`, on every kind".
Deno.test("a fixed number of runs too spread to rank by is ci-wide on a process workload too, not only HTTP", async () => {
  await withTmp(async (tmp) => {
    const result = await run({
      workloads: [unsteadyStartup],
      runtimes: ["deno"],
      settings: { runs: 4, durationSec: 0.001 },
      options: { "warmup-runs": 0 },
      tempDir: tmp,
    });
    const [record] = result.records;
    assertEquals(record.status, "completed", JSON.stringify(record.error));
    const wide = record.warnings.find((w) => w.code === "ci-wide");
    assert(wide, JSON.stringify(record.runs.map((r) => r.figures.wallMs)));
    assert(/after 4 runs: too wide to rank/.test(wide!.message), wide!.message);
  });
});

// docs/reference.md (Flags): the quick profile's 3 runs. README "What you get": "the quick profile measures 1 s per run
// after 0.5 s of warm-up".
Deno.test("the quick profile runs three times: an interval from two runs (t = 12.7) cannot rank anything", () => {
  assertEquals([PROFILES.quick.runs, PROFILES.quick.durationSec, PROFILES.quick.warmupSec], [3, 1, 0.5]);
  // Two runs 1% apart give ±64% at 95%; three runs spread the same give a usable interval. By hand: [100, 101] has
  // mean 100.5, s = 0.7071, half-width t(0.975, 1) × s / √2 = 12.706 × 0.5 = 6.353; [100, 101, 100.5] has s = 0.5,
  // half-width t(0.975, 2) × s / √3 = 4.303 × 0.2887 = 1.242.
  const two = summarize([100, 101]);
  const three = summarize([100, 101, 100.5]);
  assertAlmostEquals(two.ci95!.high - two.mean, 6.353, 1e-3);
  assertAlmostEquals(three.ci95!.high - three.mean, 1.242, 1e-3);
});
