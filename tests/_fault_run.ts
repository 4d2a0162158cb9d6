// The fault runs of faults_test and crash_faults_test: deno with the fault, then node, which must still be measured.
import { assert, assertEquals, assertMatch } from "@std/assert";
import { run } from "./_suite.ts";
import { validateResult } from "../runners/schema/mod.ts";
import type { BenchResult, Phase } from "../runners/schema/result.ts";
import type { RunSettings, Workload } from "../workloads/types.ts";
import { assertNothingLeft, withTmp } from "./_helpers.ts";

/** Runs `workload` (deno, the fault) then node under autocannon; the result valid, nothing left in its TMPDIR. */
export async function faultRun(workload: Workload, settings: Partial<RunSettings>): Promise<BenchResult> {
  return await withTmp(async (tmp) => {
    const result = await run({
      workloads: [workload],
      runtimes: ["deno", "node"],
      settings: { durationSec: 0.3, runs: 1, ...settings },
      // The autocannon generator is always there, so the test does not depend on what is installed.
      loadGenerator: "autocannon",
      tempDir: tmp,
    });
    assertEquals(validateResult(result), []);
    await assertNothingLeft(tmp);
    return result;
  });
}

/** deno errored in `phase` with `reason`; node, the next runtime, measured. */
export function assertFault(result: BenchResult, phase: Phase, reason: RegExp): void {
  const [deno, node] = result.records;
  assertEquals(deno.runtime.name, "deno");
  assertEquals(deno.status, "errored", JSON.stringify(deno.error));
  assertEquals(deno.error?.phase, phase, deno.error?.message);
  assertMatch(deno.error!.message, reason);
  assertEquals(node.status, "completed", `the next runtime is measured: ${JSON.stringify(node.error)}`);
  assert(node.summary.requestsPerSecond.median > 0);
}
