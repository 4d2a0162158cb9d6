// README walk: shows claims of docs/guide.md "Every phase has a time limit" and "Faults tried" (server rows).
// Faults of the code under test: a server that never opens its port, one that exits before listening, one that
// accepts connections and never answers, a workload hook that never settles. Each ends with that record errored in the
// phase the fault struck, the reason saying what happened, the next runtime measured, and nothing left running or on
// disk. A server that crashes under load: crash_faults_test.
import { assertEquals, assertMatch } from "@std/assert";
import { run } from "../_suite.ts";
import { validateResult } from "../../runners/schema/mod.ts";
import type { BenchResult } from "../../runners/schema/result.ts";
import { exitsAtStart, hangsAtStart, hookHangs, neverAnswers } from "../fixtures/faults.ts";
import { assertNothingLeft, runCli, withTmp } from "../_helpers.ts";
import { assertFault, faultRun } from "../_fault_run.ts";
import { docSection } from "../_docs.ts";
import { DEFAULT_RUN_TIMEOUT_SEC, HOOK_TIMEOUTS_SEC } from "../../runners/kinds/timeouts.ts";

// docs/guide.md "Faults tried": "server exits before listening" (errored; skipped: server_skip_test).
Deno.test("a server that exits before listening errors in start with its exit code and last words", async () => {
  const result = await faultRun(exitsAtStart, { warmupSec: 0 });
  assertFault(
    result,
    "start",
    /^Server exited with code 1 before accepting connections: exits_at_start_deno: missing configuration, giving up$/,
  );
});

// docs/guide.md "Faults tried": "server never opens its port".
Deno.test("a server that never opens its port errors in start after --start-timeout", async () => {
  const result = await faultRun(hangsAtStart, { warmupSec: 0, startTimeoutSec: 1 });
  assertFault(result, "start", /^Server did not accept connections on port \d+ within 1 s \(--start-timeout\)/);
});

// docs/guide.md "Faults tried": "server accepts connections, never answers".
Deno.test("a server that accepts connections and never answers errors in verify after --timeout", async () => {
  const result = await faultRun(neverAnswers, { warmupSec: 0, requestTimeoutSec: 1 });
  assertFault(result, "verify", /^GET \/: no response within 1 s \(--timeout\)$/);
});

// docs/reference.md "Exit codes": "`1` a record errored" (deno errored, node completed).
Deno.test("--workload-file loads a faulty workload into the CLI, which reports it and exits 1", async () => {
  await withTmp(async (tmp) => {
    const out = `${tmp}/r.json`;
    const cli = await runCli([
      "--workload-file",
      "tests/fixtures/faults.ts",
      "--workload",
      "never-answers",
      "--runtime",
      "deno,node",
      "--duration",
      "0.3",
      "--runs",
      "1",
      "--warmup",
      "0",
      "--timeout",
      "1",
      "--load-generator",
      "autocannon",
      "--out",
      out,
    ], { TMPDIR: tmp });
    assertEquals(cli.code, 1, cli.stderr);
    assertMatch(cli.stdout, /verify: GET \/: no response within 1 s \(--timeout\)/);
    const result = JSON.parse(await Deno.readTextFile(out)) as BenchResult;
    assertEquals(validateResult(result), []);
    assertEquals(result.records.map((r) => r.status), ["errored", "completed"]);
    await assertNothingLeft(tmp, ["r.json"]);
  });
});

// docs/guide.md "Faults tried": "workload `setup` or `afterRun` never settles"; "Every phase has a time limit".
Deno.test("a workload hook that never settles errors its record in the hook's phase; a hanging dispose is a warning", async () => {
  await withTmp(async (tmp) => {
    const result = await run({
      workloads: [hookHangs],
      runtimes: ["deno"],
      settings: { durationSec: 0.5, warmupSec: 0, runs: 1 },
      loadGenerator: "autocannon",
      tempDir: tmp,
      hookTimeoutsSec: { setup: 0.5, afterRun: 0.5, dispose: 0.5 },
    });
    assertEquals(validateResult(result), []);
    const [setup, afterRun, dispose] = result.records;
    assertEquals([setup.status, setup.error?.phase, setup.error?.message], [
      "errored",
      "setup",
      "the workload's setup did not finish within 0.5 s",
    ]);
    assertEquals([afterRun.status, afterRun.error?.phase, afterRun.error?.message], [
      "errored",
      "cleanup",
      "afterRun did not finish within 0.5 s",
    ]);
    assertEquals(dispose.status, "completed");
    assertEquals(
      result.warnings.find((w) => w.code === "dispose-failed")?.message,
      "hook-hangs/dispose: the workload's dispose did not finish within 0.5 s",
    );
    await assertNothingLeft(tmp);
  });
});

// docs/guide.md "Every phase has a time limit": the hook limits the table prints are `HOOK_TIMEOUTS_SEC`, and a process
// run without its own limit gets 600 s.
Deno.test("the table of hook time limits in docs/guide.md is HOOK_TIMEOUTS_SEC", () => {
  const table = docSection("docs/guide.md", "### Every phase has a time limit");
  const limit = (phase: string) => {
    const row = table.split("\n").find((l) => l.startsWith(`| ${phase}`));
    return Number(/\| (\d+) s/.exec(row ?? "")?.[1]);
  };
  assertEquals(limit("workload `setup`, process `prepare`"), HOOK_TIMEOUTS_SEC.setup);
  assertEquals(HOOK_TIMEOUTS_SEC.prepare, HOOK_TIMEOUTS_SEC.setup);
  assertEquals(limit("`beforeRun`"), HOOK_TIMEOUTS_SEC.beforeRun);
  assertEquals(limit("workload and session `verify`"), HOOK_TIMEOUTS_SEC.verify);
  assertEquals(limit("`afterRun`, a process run's `inspect`"), HOOK_TIMEOUTS_SEC.afterRun);
  assertEquals(limit("`dispose`"), HOOK_TIMEOUTS_SEC.dispose);
  assertMatch(table, new RegExp(`its plan's \`runTimeoutMs\`, ${DEFAULT_RUN_TIMEOUT_SEC} s when it sets none`));
});
