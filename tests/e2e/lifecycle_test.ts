// README walk: shows claims of docs/method.md "Measurement" (servers in their own process group, stopped on Ctrl-C) and README "What the numbers mean" (invalid).
// Server lifecycle: a server that fails verification is marked invalid with
// what differed and is not measured; Ctrl-C mid-run leaves no process behind
// and a valid result file.
import { assert, assertEquals, assertMatch } from "@std/assert";
import { run } from "../_suite.ts";
import { parseResult } from "../../runners/schema/mod.ts";
import { wrongBody } from "../fixtures/wrong_body.ts";
import {
  assertNothingLeft,
  BENCH_PERMISSIONS,
  entries,
  processesMatching,
  ROOT,
  runCli,
  spawnCli,
  waitFor,
  withTmp,
} from "../_helpers.ts";
import { needs, tool } from "../_needs.ts";

const TASKSET = tool("taskset", "apt-get install util-linux");

// docs/guide.md "Faults tried": "server answers wrongly" — `invalid` in `verify`, not measured.
Deno.test("a server that fails verification is invalid, not measured, and stopped", async () => {
  await withTmp(async (tmp) => {
    const result = await run({
      workloads: [wrongBody],
      runtimes: ["deno", "node"],
      settings: { durationSec: 0.5, warmupSec: 0, runs: 1 },
      tempDir: tmp,
    });
    const [deno, node] = result.records;
    assertEquals(deno.status, "invalid");
    assertEquals(deno.error?.phase, "verify");
    assertMatch(deno.error!.message, /GET \/ body: got "\{\\"message\\":\\"Hello, World\?\\"\}"/);
    assertEquals(deno.runs.length, 0, "an invalid server is not measured");
    assert(!deno.verification.passed);
    assertEquals(node.status, "completed", "the next runtime still runs");
    await assertNothingLeft(tmp);
  });
});

Deno.test("SIGINT mid-run stops every server and leaves a valid result file", async () => {
  await withTmp(async (tmp) => {
    const out = `${tmp}/r.json`;
    const child = spawnCli(
      [
        "--workload",
        "http-json",
        "--runtime",
        "node,deno",
        "--duration",
        "20",
        "--runs",
        "1",
        "--warmup",
        "0",
        "--out",
        out,
      ],
      { TMPDIR: tmp },
    );
    // Wait until a server from this run is up, then interrupt.
    const serverUp = await waitFor(async () => (await processesMatching(`${tmp}/rtbench-`)).length > 0, 60_000);
    assert(serverUp, "a server started");
    child.kill("SIGINT");
    const status = await child.output();
    assertEquals(status.code, 130, new TextDecoder().decode(status.stderr));
    assertEquals(await processesMatching(tmp), [], "no server or load generator left");
    const result = parseResult(await Deno.readTextFile(out));
    assertEquals(result.interrupted?.signal, "SIGINT", "the file says the suite was interrupted");
    assertEquals(result.finishedAt, result.interrupted!.at);
    assertEquals(result.interrupted!.remaining, ["http-json/default/node", "http-json/default/deno"]);
    assertEquals(await entries(tmp), ["r.json"], "temporary files removed");
  });
});

// docs/method.md "Measurement": "Without two CPUs the result carries a `not-pinned` warning" (and no CPU set is
// recorded).
Deno.test(needs(TASKSET, {
  name: "on one CPU nothing is pinned apart and the result says not-pinned",
  async fn() {
    await withTmp(async (tmp) => {
      const out = await new Deno.Command("taskset", {
        args: ["-c", "0", Deno.execPath(), "run", ...BENCH_PERMISSIONS, `${ROOT}runners/cli/bench.ts`]
          .concat(["--workload", "micro", "--variant", "json", "--runtime", "deno", "--runs", "1"])
          .concat(["--duration", "0.1", "--warmup", "0", "--quiet", "--out", `${tmp}/r.json`]),
        cwd: ROOT,
        env: { NO_COLOR: "1", TMPDIR: tmp },
        stdout: "piped",
        stderr: "piped",
        stdin: "null",
      }).output();
      const stderr = new TextDecoder().decode(out.stderr);
      assertEquals(out.code, 0, stderr);
      const result = parseResult(await Deno.readTextFile(`${tmp}/r.json`));
      assert(result.warnings.some((w) => w.code === "not-pinned"), JSON.stringify(result.warnings));
      assertEquals(result.records[0].cpus, { server: null, client: null });
      // The report (on stdout here, the result going to --out) says it too.
      assertMatch(new TextDecoder().decode(out.stdout), /server and load generator share CPUs/);
      assertEquals(await processesMatching(tmp), []);
    });
  },
}));

// docs/reference.md "Exit codes": "`1` a record errored or is invalid" — here invalid, from the command line.
Deno.test("a suite with an invalid record exits 1", async () => {
  await withTmp(async (tmp) => {
    const cli = await runCli(
      ["--workload-file", "tests/fixtures/wrong_body.ts", "--workload", "wrong-body", "--runtime", "deno"]
        .concat(["--duration", "0.5", "--warmup", "0", "--runs", "1", "--quiet", "--out", `${tmp}/r.json`]),
      { TMPDIR: tmp },
    );
    assertEquals(cli.code, 1, cli.stderr);
    const [record] = parseResult(await Deno.readTextFile(`${tmp}/r.json`)).records;
    assertEquals(record.status, "invalid");
    assertEquals(await processesMatching(tmp), []);
  });
});
