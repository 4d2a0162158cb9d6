// --min-runs/--max-runs: runs are added while the 95% CI is wider than the
// target; at the maximum the record says the interval stayed wide.
import { assert, assertEquals } from "@std/assert";
import { run } from "../runners/suite/run.ts";
import { httpJson } from "../workloads/http_json.ts";
import { privateTmp } from "./_helpers.ts";

Deno.test("an unreachable CI target runs up to --max-runs and warns", async () => {
  const tmp = await privateTmp();
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
  await Deno.remove(tmp, { recursive: true });
});
