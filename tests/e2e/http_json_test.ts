// README walk: shows claims of README intro and "What the numbers mean": every response verified before it counts, server and client pinned apart, runs repeated with a 95% CI, exact versions, settings and CPU sets in a result file that validates.
// The README's main job, on the http-json workload: all three runtimes measured,
// the result file valid with raw runs, CI bounds, exact versions and CPU sets,
// and nothing left running or lying around afterwards.
import { assert, assertEquals, assertExists, assertMatch } from "@std/assert";
import { parseResult } from "../../runners/schema/mod.ts";
import { assertNothingLeft, runCli, withTmp } from "../_helpers.ts";

Deno.test("bench --workload http-json on deno,node,bun writes a valid, complete result", async () => {
  await withTmp(async (tmp) => {
    const out = `${tmp}/r.json`;
    const run = await runCli(
      [
        "--workload",
        "http-json",
        "--runtime",
        "deno,node,bun",
        // Two runs for the interval; short windows, without http-json's fixed-rate and idle phases (their figures are
        // tests/e2e/efficiency_test.ts's).
        "--duration",
        "0.5",
        "--warmup",
        "0.1",
        "--runs",
        "2",
        "--cpu-rate",
        "0",
        "--idle-connections",
        "0",
        "--out",
        out,
      ],
      // The default split, not a lane's (tests/_lanes.ts), which the placement below asserts.
      { TMPDIR: tmp, RTBENCH_CPUS: "" },
    );
    assertEquals(run.code, 0, run.stderr + run.stdout);
    const result = parseResult(await Deno.readTextFile(out));
    assertEquals(result.records.length, 3);
    assertExists(result.finishedAt);
    for (const record of result.records) {
      assertEquals(record.status, "completed", JSON.stringify(record.error));
      assertMatch(record.runtime.version!, /^\d+\.\d+\.\d+/);
      assertEquals(record.runtime.engine, record.runtime.name === "bun" ? "JavaScriptCore" : "V8");
      assertEquals(record.runs.length, 2);
      for (const r of record.runs) {
        assert(r.figures.requestsPerSecond > 0);
        assertEquals(r.counts.mismatches, 0);
        assertExists(r.latencyHistogram);
      }
      const rps = record.summary.requestsPerSecond;
      assertEquals(rps.n, 2);
      assertExists(rps.ci95);
      assert(rps.ci95!.low <= rps.mean && rps.mean <= rps.ci95!.high);
      assertExists(record.latencyUs);
      assert(record.latencyUs!.p50 <= record.latencyUs!.p99);
      // auto: the first installed generator, fastest first.
      const fastest = Object.entries(result.environment.loadGenerators!).find(([, version]) => version !== null)![0];
      assertEquals(record.loadGenerator?.name, fastest);
      assert(record.verification.passed);
      assert(record.verification.checks.some((c) => c.name === "GET / body" && c.passed));
      if (result.environment.allowedCpus === "0-1") assertEquals(record.cpus, { server: "0", client: "1" });
    }
    // The table shows every runtime with a relative speed.
    for (const name of ["deno", "node", "bun"]) assertMatch(run.stdout, new RegExp(`^${name} \\d`, "m"));
    assertMatch(run.stdout, /1\.0× \(slowest\)/);
    assert(run.stderr.includes(`Result written to ${out}`));
    // Nothing survives: no server process, no temporary directory but the result.
    await assertNothingLeft(tmp, ["r.json"]);
  });
});
