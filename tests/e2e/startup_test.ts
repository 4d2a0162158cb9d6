// README walk: shows claims of docs/workloads.md "Process and in-process workloads" (how processes are timed, the timer's own cost, startup).
// The startup workload and the process runner: every runtime timed from spawn
// to exit with checked output, hyperfine-style plans honoured, the timer's own
// cost recorded, and wrong exit codes or output making a record invalid.
import { assert, assertEquals, assertExists, assertMatch, assertStringIncludes } from "@std/assert";
import { formatFigure } from "../../runners/report/format.ts";
import { needs, tool } from "../_needs.ts";
import { outlierIndices } from "../../runners/samples/outliers.ts";
import { spawnTimer, wait4Timer } from "../../runners/drivers/process_timer.ts";
import { parseResult } from "../../runners/schema/mod.ts";
import { run } from "../_suite.ts";
import { HELLO_OUTPUT, SCRIPT_OUTPUT } from "../../workloads/startup.ts";
import { faultyStartup, workDirProbe } from "../fixtures/faulty_process.ts";
import { assertNothingLeft, entries, processesMatching, runCli, spawnCli, waitFor, withTmp } from "../_helpers.ts";

const PYTHON = tool("python3", "apt-get install python3");

Deno.test("bench --workload startup times every runtime, checks every run and states the timer's cost", async () => {
  await withTmp(async (tmp) => {
    const out = `${tmp}/r.json`;
    const cli = await runCli(
      [
        "--workload",
        "startup",
        "--runtime",
        "deno,node,bun",
        "--runs",
        "10",
        "--duration",
        "0.2",
        "--warmup-runs",
        "1",
        "--out",
        out,
      ],
      { TMPDIR: tmp },
    );
    assertEquals(cli.code, 0, cli.stderr + cli.stdout);
    const result = parseResult(await Deno.readTextFile(out));
    assertEquals(result.records.length, 6);
    for (const record of result.records) {
      assertEquals(record.status, "completed", JSON.stringify(record.error));
      assertEquals(record.kind, "process");
      assertEquals(record.headline, { figure: "wallMs", higherIsBetter: false });
      assert(record.runs.length >= 10, `${record.id}: at least 10 measured runs`);
      const wall = record.runs.reduce((sum, r) => sum + r.figures.wallMs, 0);
      assert(wall >= 200, `${record.id}: at least 0.2 s measured (${wall} ms)`);
      assertEquals(record.facts.warmupRuns, 1);
      assertEquals(record.facts.measuredRuns, record.runs.length);
      assert((record.facts.spawnOverheadMs as number) > 0, "the timer's own cost is measured");
      const expected = record.variant === "hello" ? HELLO_OUTPUT : SCRIPT_OUTPUT;
      assert(record.verification.checks.some((c) => c.name === "stdout" && c.passed && c.actual === expected));
      assert(record.verification.checks.some((c) => c.name === "exit code" && c.passed));
      const s = record.summary.wallMs;
      assert(s.min <= s.median && s.median <= s.max);
      if (record.facts.timer === "wait4") {
        assert(record.summary.userMs && record.summary.systemMs, "CPU time is recorded");
        assert(record.summary.maxRssBytes.median > 1024 * 1024, "peak RSS is recorded");
      } else {
        assert(record.warnings.some((w) => w.code === "no-rusage"));
      }
      assertEquals(record.command?.[0], record.runtime.binary);
    }
    const node = result.records.find((r) => r.id === "startup/script/node")!;
    assertMatch(String(node.facts.typeScript), /native|strip-types|pre-stripped/);
    // docs/workloads.md (startup): "each runtime's update-check and telemetry variables are set and recorded".
    const quiet = (name: string) => result.records.find((r) => r.id === `startup/hello/${name}`)!.facts.quietEnv;
    assertEquals([quiet("deno"), quiet("bun")], ["DENO_NO_UPDATE_CHECK=1", "DO_NOT_TRACK=1"]);
    assertEquals(quiet("node"), "none (nothing to turn off)");
    const nodeHello = result.records.find((r) => r.id === "startup/hello/node")!;
    assertEquals(nodeHello.command?.slice(1), ["-e", 'console.log("ready")']);
    assertEquals(result.records.find((r) => r.id === "startup/hello/deno")!.command?.[1], "eval");
    // One table per variant, with the timer's overhead stated under it.
    assertMatch(cli.stdout, /^startup \(hello\) · timer \w+ · ≥10 runs and ≥0\.2 s after 1 warm-up/m);
    assertMatch(cli.stdout, /^startup \(script\)/m);
    assertMatch(cli.stdout, /timer overhead per spawn/);
    assertMatch(
      cli.stdout,
      /set against update checks and telemetry: deno DENO_NO_UPDATE_CHECK=1, .*bun DO_NOT_TRACK=1/,
    );
    // docs/workloads.md (startup): "a net-of-spawn column … and the TypeScript mode per runtime".
    const scriptTable = cli.stdout.slice(cli.stdout.indexOf("startup (script) · "));
    const header = scriptTable.split("\n")[1];
    assertMatch(header, /mean ± σ\s+net of spawn .* TypeScript/);
    for (const r of result.records.filter((r) => r.variant === "script")) {
      const row = scriptTable.split("\n").find((l) => l.startsWith(`${r.runtime.name} `))!;
      const net = r.summary.wallMs.median - (r.facts.spawnOverheadMs as number);
      assertStringIncludes(row, formatFigure("wallMs", net), row);
      assertStringIncludes(row, String(r.facts.typeScript).split(":")[0]);
    }
    await assertNothingLeft(tmp, ["r.json"]);
  });
});

Deno.test("a wrong exit code or a wrong line of output makes the record invalid, and nothing is measured", async () => {
  await withTmp(async (tmp) => {
    const result = await run({
      workloads: [faultyStartup],
      runtimes: ["deno"],
      settings: { runs: 2, durationSec: 0.01 },
      tempDir: tmp,
    });
    const [exit3, wrongOutput] = result.records;
    assertEquals(exit3.status, "invalid");
    assertEquals(exit3.error?.phase, "verify", "the first warm-up run already fails");
    assertMatch(exit3.error!.message, /warm-up run 1: exit code: got 3, expected 0/);
    assertEquals(exit3.runs.length, 0);
    assert(!exit3.verification.passed);
    assertEquals(wrongOutput.status, "invalid");
    assertMatch(wrongOutput.error!.message, /stdout: got "steady\\n", expected "ready\\n"/);
    assertEquals(wrongOutput.runs.length, 0);
    assertEquals(await entries(tmp), []);
  });
});

Deno.test("SIGINT while processes are being timed stops the timer and the runtime, and keeps the result file", async () => {
  await withTmp(async (tmp) => {
    const out = `${tmp}/r.json`;
    const child = spawnCli(
      ["--workload", "startup", "--variant", "script", "--runtime", "node", "--duration", "60", "--out", out],
      { TMPDIR: tmp },
    );
    // The staged script lives in this test's TMPDIR, so its runs are easy to find.
    const timing = await waitFor(async () => (await processesMatching(`${tmp}/rtbench-`)).length > 0, 60_000);
    assert(timing, "a timed run started");
    child.kill("SIGINT");
    const status = await child.output();
    assertEquals(status.code, 130, new TextDecoder().decode(status.stderr));
    assertEquals(await processesMatching(tmp), [], "no timer or runtime left");
    // The file says the suite was interrupted, and by which signal.
    assertEquals(parseResult(await Deno.readTextFile(out)).interrupted?.signal, "SIGINT");
    assertEquals(await entries(tmp), ["r.json"]);
  });
});

Deno.test("every record gets its own empty working directory", async () => {
  await withTmp(async (tmp) => {
    const seen: { dir: string; entries: number }[] = [];
    const result = await run({
      workloads: [workDirProbe(seen)],
      runtimes: ["deno", "node"],
      settings: { runs: 1, durationSec: 0.01 },
      options: { "warmup-runs": 0 },
      tempDir: tmp,
    });
    assertEquals(result.records.map((r) => r.status), ["completed", "completed"]);
    assertEquals(seen.length, 2);
    assert(seen[0].dir !== seen[1].dir, `${seen[0].dir} is not reused`);
    assertEquals(seen.map((s) => s.entries), [0, 0]);
  });
});

Deno.test(needs(PYTHON, {
  name: "the wait4 timer reads CPU time and peak RSS, stops after a wrong exit code and kills a run that overruns",
  async fn() {
    await withTmp(async (tmp) => {
      const timer = wait4Timer(PYTHON.path!);
      const runs = await timer.time({
        command: { argv: ["sh", "-c", "echo hi"], cwd: tmp },
        plan: { warmupRuns: 2, minRuns: 3, minDurationMs: 0 },
        cpus: null,
        scratchDir: tmp,
      });
      assertEquals(runs.map((r) => r.warmup), [true, true, false, false, false]);
      for (const r of runs) {
        assertEquals([r.exitCode, r.stdout, r.timedOut], [0, "hi\n", false]);
        assert(r.wallMs > 0 && r.userMs !== null && r.maxRssBytes! > 0);
      }
      const failing = await timer.time({
        command: { argv: ["sh", "-c", "exit 3"], cwd: tmp },
        plan: { warmupRuns: 0, minRuns: 5, minDurationMs: 0 },
        cpus: null,
        scratchDir: tmp,
      });
      assertEquals(failing.map((r) => r.exitCode), [3], "no run after the first failure");
      const slow = await timer.time({
        command: { argv: ["sleep", "30"], cwd: tmp },
        plan: { warmupRuns: 0, minRuns: 1, minDurationMs: 0, runTimeoutMs: 200 },
        cpus: null,
        scratchDir: tmp,
      });
      assertEquals([slow[0].timedOut, slow[0].exitCode, slow[0].signal], [true, null, 9]);
      assert(slow[0].wallMs < 10_000);
      assertEquals(await entries(tmp), [], "scratch files removed");
    });
  },
}));

Deno.test("the spawn timer runs at least the minimum time and reports no rusage", async () => {
  await withTmp(async (tmp) => {
    const runs = await spawnTimer.time({
      command: { argv: ["sh", "-c", "echo hi"], cwd: tmp },
      plan: { warmupRuns: 1, minRuns: 2, minDurationMs: 50, maxRuns: 500 },
      cpus: null,
      scratchDir: tmp,
    });
    const measured = runs.filter((r) => !r.warmup);
    assert(measured.length >= 2);
    assert(measured.reduce((a, r) => a + r.wallMs, 0) >= 50 || measured.length === 500);
    assertEquals(measured[0].stdout, "hi\n");
    assertEquals([measured[0].userMs, measured[0].maxRssBytes], [null, null]);
    assertExists(runs.find((r) => r.warmup));
  });
});

Deno.test("outliers are found by modified Z-score and none without spread", () => {
  assertEquals(outlierIndices([10, 11, 10, 12, 11, 90, 10]), [5]);
  assertEquals(outlierIndices([5, 5, 5, 5]), []);
  assertEquals(outlierIndices([1, 100]), []);
});

// docs/workloads.md (How processes are timed): "Without it the `spawn` timer (Deno alone) records wall time only, and
// CPU time and peak RSS are absent with a `no-rusage` warning. `RTBENCH_TIMER=spawn` forces the latter."
Deno.test("RTBENCH_TIMER=spawn forces the spawn timer: wall time only, with a no-rusage warning", async () => {
  await withTmp(async (tmp) => {
    const cli = await runCli(
      ["--workload", "startup", "--variant", "hello", "--runtime", "deno", "--runs", "2", "--duration", "0.1"]
        .concat(["--warmup-runs", "0", "--quiet", "--out", `${tmp}/r.json`]),
      { TMPDIR: tmp, RTBENCH_TIMER: "spawn" },
    );
    assertEquals(cli.code, 0, cli.stderr);
    const [record] = parseResult(await Deno.readTextFile(`${tmp}/r.json`)).records;
    assertEquals(record.status, "completed", JSON.stringify(record.error));
    assertEquals(record.facts.timer, "spawn");
    assert(record.warnings.some((w) => w.code === "no-rusage"), JSON.stringify(record.warnings));
    assert(record.summary.wallMs.median > 0);
    assertEquals([record.summary.userMs, record.summary.maxRssBytes], [undefined, undefined]);
  });
});
