// README walk: shows claims of docs/workloads.md "Process and in-process workloads" (fs).
// The fs workload: every runtime writes and reads back its files with its own
// API and with node:fs/promises, rtbench checks each file on disk, and no
// directory is left behind; a script that writes the wrong bytes is caught.
import { assert, assertEquals, assertMatch } from "@std/assert";
import { parseResult } from "../../runners/schema/mod.ts";
import { run } from "../_suite.ts";
import { faultyFs } from "../fixtures/faulty_process.ts";
import { assertNothingLeft, entries, runCli, withTmp } from "../_helpers.ts";

Deno.test("bench --workload fs: both variants on every runtime, files checked on disk, no directory left", async () => {
  await withTmp(async (tmp) => {
    const out = `${tmp}/r.json`;
    const cli = await runCli(
      ["--workload", "fs", "--runtime", "deno,node,bun", "--fs-files", "300", "--runs", "1", "--out", out],
      { TMPDIR: tmp },
    );
    assertEquals(cli.code, 0, cli.stderr + cli.stdout);
    const result = parseResult(await Deno.readTextFile(out));
    assertEquals(result.records.map((r) => r.id), [
      "fs/idiomatic/deno",
      "fs/idiomatic/node",
      "fs/idiomatic/bun",
      "fs/node-compat/deno",
      "fs/node-compat/node",
      "fs/node-compat/bun",
    ]);
    for (const record of result.records) {
      assertEquals(record.status, "completed", JSON.stringify(record.error));
      assertEquals(record.headline.figure, "writeReadMs");
      assertEquals(record.facts.files, 300);
      assertEquals(record.facts.warmupRuns, 0);
      const [measured] = record.runs;
      assert(measured.figures.writeMs > 0 && measured.figures.readMs > 0);
      const sum = measured.figures.writeMs + measured.figures.readMs;
      assert(Math.abs(measured.figures.writeReadMs - sum) < 0.01, "the headline is write plus read time");
      for (const name of ["report", "files on disk", "file contents", "directory removed"]) {
        assert(record.verification.checks.some((c) => c.name === name && c.passed), `${record.id}: ${name}`);
      }
    }
    const script = (id: string) => result.records.find((r) => r.id === id)!.command!.at(-1)!;
    assertMatch(script("fs/idiomatic/bun"), /fs\.ts$/);
    assertMatch(script("fs/node-compat/bun"), /fs\.mjs$/);
    assertMatch(cli.stdout, /^fs \(node-compat\) · timer \w+ · ≥1 runs after 0 warm-ups/m);
    await assertNothingLeft(tmp, ["r.json"]);
  });
});

Deno.test("files with the wrong contents make the record invalid, and their directory is still removed", async () => {
  await withTmp(async (tmp) => {
    const result = await run({
      workloads: [faultyFs],
      runtimes: ["node"],
      settings: { runs: 1 },
      options: { "fs-files": 50, "warmup-runs": 0 },
      tempDir: tmp,
    });
    const [record] = result.records;
    assertEquals(record.status, "invalid");
    assertEquals(record.error?.phase, "measure");
    assertMatch(record.error!.message, /file contents: got "50 wrong, 0 missing \(first: f\d+\.txt\)"/);
    assertEquals(record.runs.length, 0);
    assertEquals(await entries(tmp), []);
  });
});
