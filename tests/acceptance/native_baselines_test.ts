// docs/guide.md "Native baselines: go and rust": each of its sentences is shown here (reports: server_cpus_test).
// The native baselines: Go and Rust servers built with the machine's toolchains into rtbench's cache, measured
// and verified like the JavaScript runtimes, byte for byte the same responses, and skipped with how to get the
// toolchain when it is missing.
import { assert, assertEquals, assertInstanceOf, assertMatch, assertRejects } from "@std/assert";
import { go, MissingToolchainError, resolveRuntime, rust } from "../../adapters/mod.ts";
import { run } from "../_suite.ts";
import { parseResult } from "../../runners/schema/mod.ts";
import { httpJson } from "../../workloads/http_json.ts";
import { startup } from "../../workloads/startup.ts";
import { assertNothingLeft, runCli, withTmp } from "../_helpers.ts";
import { needs, runtime } from "../_needs.ts";

const SHORT = ["--duration", "0.3", "--warmup", "0.1", "--runs", "1", "--cpu-rate", "0", "--idle-connections", "0"];

// Each toolchain has its own tests, so that a machine with one of them still shows it (the other is listed as
// skipped); the toolchains found serve in one run per workload set, which each toolchain's test reads its records of.
const FOUND = await Promise.all([go, rust].map(async (adapter) => ({ adapter, need: await runtime(adapter) })));
const NATIVES = FOUND.filter((f) => f.need.missing === null).map((f) => f.adapter.name);

/** `bench` with `args` on the toolchains found (and `also`), in a directory of its own: the result and stdout. */
function benchNatives(args: string[], also: string[], database: boolean) {
  return withTmp(async (tmp) => {
    const out = `${tmp}/r.json`;
    const cli = await runCli([...args, "--runtime", [...also, ...NATIVES].join(","), ...SHORT, "--out", out], {
      TMPDIR: tmp,
    });
    assertEquals(cli.code, 0, cli.stderr + cli.stdout);
    const result = parseResult(await Deno.readTextFile(out));
    await assertNothingLeft(tmp, ["r.json"]);
    return { result, stdout: cli.stdout };
  }, { database });
}

let served: ReturnType<typeof benchNatives> | undefined;
let queried: ReturnType<typeof benchNatives> | undefined;

for (const { adapter } of FOUND) {
  const native = adapter.name;
  Deno.test(needs(await runtime(adapter), {
    name:
      `bench --runtime deno,${native} on http-json, uuid-file and ws: ${native}'s servers verified, same bytes as deno`,
    async fn() {
      served ??= benchNatives(["--workload", "http-json,uuid-file,ws", "--variant", "default"], ["deno"], false);
      const { result, stdout } = await served;
      const runtimes = ["deno", ...NATIVES];
      assertEquals(result.records.map((r) => r.runtime.name), [...runtimes, ...runtimes, ...runtimes]);
      const records = result.records.filter((r) => r.runtime.name === "deno" || r.runtime.name === native);
      for (const record of records) {
        assertEquals(record.status, "completed", `${record.id}: ${JSON.stringify(record.error)}`);
        assert(record.verification.passed, record.id);
        if (record.runtime.name === "deno") continue;
        // The record names the toolchain and the locked dependencies it was built with, and runs the built program.
        assertMatch(String(record.facts.toolchain), native === "go" ? /^go1\.\d+/ : /^cargo 1\.\d+/);
        assertMatch(String(record.facts.build), /^(built|cached)$/);
        assertMatch(
          String(record.facts.dependencies),
          native === "go" ? /github\.com\/jackc\/pgx\/v5 v5\./ : /hyper 1\..*tokio 1\./,
        );
        assertMatch(record.command![0], new RegExp(`/native/${native}-[0-9a-f]{16}/server$`));
        const headline = record.kind === "websocket" ? "messagesPerSecond" : "requestsPerSecond";
        assert(record.summary[headline].median > 0, record.id);
        assertEquals(record.runs[0].counts.mismatches, 0);
      }
      // HTTP parity: every runtime's status, content-type, content-length and body agreed with the others'.
      for (const record of records.filter((r) => r.kind === "http")) {
        const parity = record.verification.checks.filter((c) => c.name.startsWith("parity "));
        assert(parity.length > 0 && parity.every((c) => c.passed), `${record.id}: ${JSON.stringify(parity)}`);
      }
      assertMatch(stdout, new RegExp(`^${native} \\d`, "m"));
    },
  }));
}

for (const { adapter } of FOUND) {
  const native = adapter.name;
  Deno.test(needs(await runtime(adapter), {
    name:
      `bench --runtime ${native} on postgres: both variants verified against the seed, the build reused from the cache`,
    async fn() {
      // The server was built by the test above (or an earlier run): this suite takes it from the cache.
      queried ??= benchNatives(["--workload", "postgres"], [], true);
      const { result } = await queried;
      assertEquals(
        result.records.map((r) => `${r.variant}/${r.runtime.name}`),
        ["db", "queries"].flatMap((v) => NATIVES.map((n) => `${v}/${n}`)),
      );
      for (const record of result.records.filter((r) => r.runtime.name === native)) {
        assertEquals(record.status, "completed", `${record.id}: ${JSON.stringify(record.error)}`);
        const checks = record.verification.checks;
        assert(checks.some((c) => c.name === "rows match the seeded world table" && c.passed), record.id);
        assert(checks.some((c) => /queries counted vs expected/.test(c.name) && c.passed), record.id);
        assertEquals(record.facts.driver, native === "go" ? "pgx (pgxpool)" : "tokio-postgres");
        assertEquals(record.facts.build, "cached", record.id);
      }
    },
  }));
}

Deno.test("a missing native toolchain: the record is skipped and says how to get it; the others still run", async () => {
  const noGo = { ...go, detect: () => Promise.resolve(undefined) };
  const error = await assertRejects(() => resolveRuntime({ name: "go", requested: "go" }, { adapters: [noGo] }));
  assertInstanceOf(error, MissingToolchainError);
  const result = await run({
    workloads: [httpJson],
    runtimes: ["deno", "go"],
    adapters: [(await import("../../adapters/mod.ts")).deno, noGo, rust],
    settings: { durationSec: 0.5, warmupSec: 0, runs: 1 },
  });
  const [deno, missing] = result.records;
  assertEquals(deno.status, "completed");
  assertEquals(missing.status, "skipped");
  assertMatch(missing.skipReason!, /go is not installed on this machine \(install Go .* put go on PATH\)/);
});

Deno.test("--runtime go@1.22: exit 2, one line naming the flag (rtbench builds with this machine's toolchain)", async () => {
  const cli = await runCli(["--workload", "http-json", "--runtime", "go@1.22"]);
  assertEquals(cli.code, 2);
  assertEquals(cli.stderr.trim().split("\n").length, 1, cli.stderr);
  assertMatch(cli.stderr, /--runtime: go@1\.22: rtbench builds go servers with this machine's toolchain/);
});

Deno.test("a native baseline skips the workloads that run scripts rather than servers", async () => {
  const result = await run({ workloads: [startup], runtimes: ["go"], settings: { runs: 1 } });
  assertEquals(result.records.length, startup.variants.length);
  for (const record of result.records) {
    assertEquals(record.status, "skipped");
    assertMatch(record.skipReason!, /go is a native baseline: it runs servers only/);
  }
});
