// README walk: shows claims of README "What the numbers mean" (status `skipped`) and docs/guide.md "Faults tried" (server exits before listening).
// A server that reports its runtime cannot do the variant (the
// `rtbench: skip: <reason>` line) makes its record skipped with that reason.
import { assertEquals } from "@std/assert";
import { run } from "../_suite.ts";
import { cannotRun } from "../fixtures/cannot_run.ts";
import { assertNothingLeft, processesMatching, runCli, withTmp } from "../_helpers.ts";
import { parseResult } from "../../runners/schema/mod.ts";

// docs/guide.md "Faults tried": "server exits before listening … `skipped` if it printed `rtbench: skip:`".
Deno.test("a server that says it cannot run is skipped with its reason; the next runtime runs", async () => {
  await withTmp(async (tmp) => {
    const result = await run({
      workloads: [cannotRun],
      runtimes: ["deno", "node"],
      settings: { durationSec: 0.5, warmupSec: 0, runs: 1 },
      tempDir: tmp,
    });
    const [deno, node] = result.records;
    assertEquals(deno.status, "skipped");
    assertEquals(deno.skipReason, "the frobnicator addon is not built for this platform");
    assertEquals(deno.error, null);
    assertEquals(node.status, "completed");
    await assertNothingLeft(tmp);
  });
});

// docs/reference.md "Exit codes": "`0` every record completed or was skipped".
Deno.test("a suite whose only record is skipped exits 0", async () => {
  await withTmp(async (tmp) => {
    const cli = await runCli(
      ["--workload-file", "tests/fixtures/cannot_run.ts", "--workload", "cannot-run", "--runtime", "deno"]
        .concat(["--duration", "0.5", "--warmup", "0", "--runs", "1", "--quiet", "--out", `${tmp}/r.json`]),
      { TMPDIR: tmp },
    );
    assertEquals(cli.code, 0, cli.stderr);
    const [record] = parseResult(await Deno.readTextFile(`${tmp}/r.json`)).records;
    assertEquals(record.status, "skipped");
    assertEquals(await processesMatching(tmp), []);
  });
});
