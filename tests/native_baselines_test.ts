// README "Native baselines: go and rust": each of its sentences is shown here (reports: server_cpus_test).
// The native baselines: Go and Rust servers built with the machine's toolchains into rtbench's cache, measured
// and verified like the JavaScript runtimes, byte for byte the same responses, and skipped with how to get the
// toolchain when it is missing.
import { assert, assertEquals, assertInstanceOf, assertMatch, assertRejects } from "@std/assert";
import { go, MissingToolchainError, resolveRuntime, rust } from "../adapters/mod.ts";
import { run } from "../runners/suite/run.ts";
import { parseResult } from "../runners/schema/mod.ts";
import { httpJson } from "../workloads/http_json.ts";
import { startup } from "../workloads/startup.ts";
import { privateTmp, processesMatching, runCli } from "./_helpers.ts";

const SHORT = ["--duration", "1", "--warmup", "0.5", "--runs", "1"];

Deno.test("bench --runtime deno,go,rust on http-json, uuid-file and ws: native servers verified, same bytes as deno", async () => {
  const tmp = await privateTmp();
  const out = `${tmp}/r.json`;
  const cli = await runCli(
    ["--workload", "http-json,uuid-file,ws", "--runtime", "deno,go,rust", ...SHORT, "--out", out],
    { TMPDIR: tmp },
  );
  assertEquals(cli.code, 0, cli.stderr + cli.stdout);
  const result = parseResult(await Deno.readTextFile(out));
  assertEquals(result.records.length, 9);
  for (const record of result.records) {
    assertEquals(record.status, "completed", `${record.id}: ${JSON.stringify(record.error)}`);
    assert(record.verification.passed, record.id);
    const native = record.runtime.name !== "deno";
    if (!native) continue;
    // The record names the toolchain and the locked dependencies it was built with, and runs the built program.
    assertMatch(String(record.facts.toolchain), record.runtime.name === "go" ? /^go1\.\d+/ : /^cargo 1\.\d+/);
    assertMatch(String(record.facts.build), /^(built|cached)$/);
    assertMatch(
      String(record.facts.dependencies),
      record.runtime.name === "go" ? /github\.com\/jackc\/pgx\/v5 v5\./ : /hyper 1\..*tokio 1\./,
    );
    assertMatch(record.command![0], /\/native\/(go|rust)-[0-9a-f]{16}\/server$/);
    const headline = record.kind === "websocket" ? "messagesPerSecond" : "requestsPerSecond";
    assert(record.summary[headline].median > 0, record.id);
    assertEquals(record.runs[0].counts.mismatches, 0);
  }
  // HTTP parity: every runtime's status, content-type, content-length and body agreed with the others'.
  const http = result.records.filter((r) => r.kind === "http");
  for (const record of http) {
    const parity = record.verification.checks.filter((c) => c.name.startsWith("parity "));
    assert(parity.length > 0 && parity.every((c) => c.passed), `${record.id}: ${JSON.stringify(parity)}`);
  }
  for (const name of ["go", "rust"]) assertMatch(cli.stdout, new RegExp(`^${name} \\d`, "m"));
  assertEquals(await processesMatching(tmp), []);
  await Deno.remove(tmp, { recursive: true });
});

Deno.test("bench --runtime go,rust on postgres: both variants verified against the seed, builds reused from the cache", async () => {
  const tmp = await privateTmp();
  // As root, the embedded PostgreSQL runs as the user postgres, which must be able to enter the directory.
  if (Deno.uid() === 0) await Deno.chmod(tmp, 0o711);
  const out = `${tmp}/r.json`;
  const cli = await runCli(["--workload", "postgres", "--runtime", "go,rust", ...SHORT, "--out", out], { TMPDIR: tmp });
  assertEquals(cli.code, 0, cli.stderr + cli.stdout);
  const result = parseResult(await Deno.readTextFile(out));
  assertEquals(result.records.map((r) => `${r.variant}/${r.runtime.name}`).sort(), [
    "db/go",
    "db/rust",
    "queries/go",
    "queries/rust",
  ]);
  for (const record of result.records) {
    assertEquals(record.status, "completed", `${record.id}: ${JSON.stringify(record.error)}`);
    const checks = record.verification.checks;
    assert(checks.some((c) => c.name === "rows match the seeded world table" && c.passed), record.id);
    assert(checks.some((c) => /queries counted vs expected/.test(c.name) && c.passed), record.id);
    assertEquals(record.facts.driver, record.runtime.name === "go" ? "pgx (pgxpool)" : "tokio-postgres");
    // The first test (or an earlier run) built these sources: this suite took them from the cache.
    assertEquals(record.facts.build, "cached", record.id);
  }
  assertEquals(await processesMatching(tmp), []);
  await Deno.remove(tmp, { recursive: true });
});

Deno.test("a missing native toolchain: the record is skipped and says how to get it; the others still run", async () => {
  const noGo = { ...go, detect: () => Promise.resolve(undefined) };
  const error = await assertRejects(() => resolveRuntime({ name: "go", requested: "go" }, { adapters: [noGo] }));
  assertInstanceOf(error, MissingToolchainError);
  const result = await run({
    workloads: [httpJson],
    runtimes: ["deno", "go"],
    adapters: [(await import("../adapters/mod.ts")).deno, noGo, rust],
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
