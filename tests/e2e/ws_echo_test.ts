// README walk: shows claims of docs/workloads.md "WebSocket: the `ws` workload".
// The ws workload: all three runtimes echo small and large messages under load with every echo verified; a server
// that corrupts bytes or drops sockets under load is caught by the driver; nothing is left behind.
import { assert, assertEquals, assertExists, assertMatch } from "@std/assert";
import { run } from "../_suite.ts";
import { parseResult, validateResult } from "../../runners/schema/mod.ts";
import type { BenchRecord } from "../../runners/schema/result.ts";
import { websocketKind } from "../../runners/kinds/websocket.ts";
import { wsEcho } from "../../workloads/ws_echo.ts";
import { closingEcho, corruptingEcho } from "../fixtures/ws_faulty.ts";
import {
  entries,
  processesMatching,
  processesWithTmpdir,
  ROOT,
  runCli,
  spawnCli,
  waitFor,
  withTmp,
} from "../_helpers.ts";

// The driver's command line names its script in this checkout, not the test's TMPDIR; a CLI's drivers inherit its
// TMPDIR, which tells them from those of another file's run at the same time (its suites run in this process).
const DRIVER = `${ROOT}runners/engine/_child.ts`;
const driversOf = async (tmp: string) => (await processesWithTmpdir(tmp)).filter((line) => line.includes(DRIVER));

function assertMeasured(record: BenchRecord, messageSize: number): void {
  assertEquals(record.status, "completed", JSON.stringify(record.error));
  assertEquals(record.kind, "websocket");
  assertEquals(record.loadGenerator?.name, "rtbench-ws");
  // docs/workloads.md (ws): "The load comes from rtbench's load engine … raw RFC 6455 frames"; Deno's client and `ws`
  // only in ws-ceiling.
  assertMatch(record.loadGenerator?.client ?? "", /^rtbench engine, raw frames on /);
  assertEquals(record.loadGenerator?.latencyResolution, "us");
  assert(record.verification.checks.some((c) => c.name === "text echo" && c.passed));
  assert(record.verification.checks.some((c) => c.name === `binary echo (${messageSize} bytes)` && c.passed));
  assertEquals(record.options["message-size"], messageSize);
  for (const r of record.runs) {
    assert(r.figures.messagesPerSecond > 0);
    assert(r.figures.validMessages > 0);
    const payload = r.figures.messagesPerSecond * messageSize;
    // messagesPerSecond is rounded to hundredths.
    assert(Math.abs(r.figures.bytesPerSecond - payload) <= 1 + messageSize / 100, "bytes/s counts payload bytes");
    assertEquals(r.counts, { errors: 0, timeouts: 0, non2xx: 0, mismatches: 0 });
    assertExists(r.latencyHistogram);
    assert(r.figures.connectMedianUs > 0);
    assert(r.figures.clientCpuUsPerMessage > 0, "the driver's own cost per echo is recorded");
  }
  assertEquals(record.headline.figure, "messagesPerSecond");
  // The driver's CPU is sampled on every run, and a driver at its limit is flagged.
  assert(record.runs.every((r) => r.figures.clientCpuPercent >= 0 && r.figures.serverCpuPercent >= 0));
  // docs/workloads.md (ws figures): "judged by the same rule as HTTP's": saturation is sampled in every run.
  assert(record.runs.every((r) => r.resources?.server && r.resources?.client), "both sides sampled in every run");
  assertExists(record.latencyUs);
  assert(record.latencyUs!.p50 <= record.latencyUs!.p99_9 && record.latencyUs!.p99_9 <= record.latencyUs!.max);
}

Deno.test("bench --workload ws on deno,node,bun prints messages/s and latency percentiles, and the JSON validates", async () => {
  await withTmp(async (tmp) => {
    const out = `${tmp}/r.json`;
    const cli = await runCli(
      ["--workload", "ws", "--runtime", "deno,node,bun", "--duration", "0.5", "--warmup", "0", "--runs", "1"]
        // Without ws's fixed-rate window and idle connections (their figures: efficiency_test).
        .concat(["--connections", "20", "--cpu-rate", "0", "--idle-connections", "0", "--out", out]),
      { TMPDIR: tmp },
    );
    assertEquals(cli.code, 0, cli.stderr + cli.stdout);
    const result = parseResult(await Deno.readTextFile(out));
    assertEquals(result.records.length, 3);
    for (const record of result.records) assertMeasured(record, 64);
    assertMatch(cli.stdout, /messagesPerSecond \(median\)/);
    assertMatch(cli.stdout, /^latency\s+50%\s+90%\s+99%\s+99\.9%/m);
    for (const name of ["deno", "node", "bun"]) assertMatch(cli.stdout, new RegExp(`^${name} \\d.*/s`, "m"));
    assertEquals(await processesMatching(tmp), []);
    assertEquals(await driversOf(tmp), []);
    assertEquals(await entries(tmp), ["r.json"]);
  });
});

Deno.test("16 KiB messages echo intact on deno, node and bun", async () => {
  await withTmp(async (tmp) => {
    const result = await run({
      workloads: [wsEcho],
      runtimes: ["deno", "node", "bun"],
      options: { "message-size": 16384, "in-flight": 2 },
      settings: { durationSec: 0.3, warmupSec: 0.1, runs: 1, connections: 10 },
      tempDir: tmp,
    });
    assertEquals(validateResult(JSON.parse(JSON.stringify(result))), []);
    assertEquals(result.records.map((r) => r.runtime.name), ["deno", "node", "bun"]);
    for (const record of result.records) assertMeasured(record, 16384);
    assertEquals(await processesMatching(tmp), []);
    assertEquals(await entries(tmp), []);
  });
});

Deno.test("--messages ends each run after exactly that many verified echoes, whatever the duration", async () => {
  await withTmp(async (tmp) => {
    const result = await run({
      workloads: [wsEcho],
      runtimes: ["deno"],
      options: { messages: 3000, "in-flight": 4 },
      settings: { durationSec: 0.001, warmupSec: 0, runs: 2, connections: 10 },
      tempDir: tmp,
    });
    const [record] = result.records;
    assertEquals(record.status, "completed", JSON.stringify(record.error));
    assertEquals(record.runs.map((r) => r.figures.validMessages), [3000, 3000]);
    assertEquals(record.options.messages, 3000);
  });
});

Deno.test("a server that corrupts one byte in a thousand passes verification but is invalid under load", async () => {
  await withTmp(async (tmp) => {
    const result = await run({
      workloads: [corruptingEcho],
      runtimes: ["deno"],
      settings: { durationSec: 0.5, warmupSec: 0, runs: 2, connections: 10 },
      tempDir: tmp,
    });
    const [record] = result.records;
    assertEquals(validateResult(JSON.parse(JSON.stringify(result))), []);
    assertEquals(record.status, "invalid");
    assertEquals(record.error?.phase, "measure");
    assert(record.verification.passed, "the short exchange before load looked fine");
    assertMatch(
      record.error!.message,
      /^\d+ mismatched echoes under load \(first: socket \d+ message \d+: byte \d+ of 64/,
    );
    assertEquals(record.runs.length, 1, "the run that caught it is kept, no further run is made");
    assert(record.runs[0].counts.mismatches > 0);
    assertEquals(await processesMatching(tmp), []);
    assertEquals(await entries(tmp), []);
  });
});

// docs/method.md "Every request accounted for": a dropped connection is reopened and counted, under the HTTP kind's
// policy.
Deno.test("a server that closes sockets under load is invalid, with the dropped sockets counted", async () => {
  await withTmp(async (tmp) => {
    const result = await run({
      workloads: [closingEcho],
      runtimes: ["deno"],
      settings: { durationSec: 0.5, warmupSec: 0, runs: 1, connections: 10 },
      tempDir: tmp,
    });
    const [record] = result.records;
    assertEquals(validateResult(JSON.parse(JSON.stringify(result))), []);
    assertEquals(record.status, "invalid");
    assertEquals(record.error?.phase, "measure");
    assert(record.verification.passed);
    // One close in every 20 echoes: 5% of the answers, over the 1% limit; every socket reopened after each.
    assertMatch(
      record.error!.message,
      /^the server closed \d+ connections in use \([\d.]+% of \d+ answers, over the 1% limit\)/,
    );
    const [run0] = record.runs;
    assert(run0.accounting!.droppedConnections > 10, JSON.stringify(run0.accounting));
    assertEquals(run0.figures.droppedSockets, run0.accounting!.droppedConnections);
    assert(run0.accounting!.reconnects >= run0.accounting!.droppedConnections - 10, JSON.stringify(run0.accounting));
    assertEquals(run0.counts.mismatches, 0);
    assertEquals(await processesMatching(tmp), []);
    assertEquals(await entries(tmp), []);
  });
});

for (
  const [args, message] of [
    [["--workload", "ws", "--message-size", "4"], /--message-size must be a whole number ≥ 8/],
    [["--workload", "ws", "--in-flight", "0"], /--in-flight must be a whole number ≥ 1/],
    [["--workload", "ws", "--messages", "1.5"], /--messages must be a whole number ≥ 1/],
  ] as [string[], RegExp][]
) {
  Deno.test(`bad input ${args.join(" ")} exits 2 with one line`, async () => {
    const cli = await runCli(args);
    assertEquals(cli.code, 2, cli.stderr);
    assertEquals(cli.stderr.trim().split("\n").length, 1, cli.stderr);
    assertMatch(cli.stderr, message);
  });
}

Deno.test("SIGINT while the driver runs stops the driver and the server and leaves a valid result file", async () => {
  await withTmp(async (tmp) => {
    const out = `${tmp}/r.json`;
    const child = spawnCli(
      ["--workload", "ws", "--runtime", "deno", "--duration", "30", "--warmup", "0", "--runs", "1", "--out", out],
      { TMPDIR: tmp },
    );
    const loading = await waitFor(
      async () => (await processesMatching(tmp)).length > 0 && (await driversOf(tmp)).length > 0,
      60_000,
    );
    assert(loading, "a server and the driver started");
    child.kill("SIGINT");
    const status = await child.output();
    assertEquals(status.code, 130, new TextDecoder().decode(status.stderr));
    assertEquals(await processesMatching(tmp), [], "no server left");
    assertEquals(await driversOf(tmp), [], "no driver left");
    // The file says the suite was interrupted, and by which signal.
    assertEquals(parseResult(await Deno.readTextFile(out)).interrupted?.signal, "SIGINT");
    assertEquals(await entries(tmp), ["r.json"]);
  });
});

// docs/workloads.md (ws figures): "The driver and the server are judged by the same rule as HTTP's (see Resources and
// `client-bound`)": a driver at its limit while the server is at its own too is client-saturated, not client-bound.
Deno.test("a WebSocket record is judged like an HTTP one: both sides at their limit is client-saturated only", () => {
  // Sampled resources as a run leaves them: percent of one CPU, the driver on CPU 1 and the server on CPU 0.
  const role = (percent: number) => {
    const p = { mean: percent, peak: percent };
    const zero = { mean: 0, peak: 0 };
    return {
      cpuPercent: p,
      busiestThreadPercent: p,
      demandPercent: p,
      busiestThreadDemandPercent: p,
      rssBytes: zero,
      threads: zero,
      openFiles: zero,
    };
  };
  const sampled = (driver: number, server: number) => ({
    series: {},
    summary: {
      intervalMs: 250,
      samples: 8,
      server: role(server),
      client: role(driver),
      samplerCpuPercent: 1,
      harnessCpuPercent: 1,
    },
  });
  const both = sampled(97, 93);
  const driverOnly = sampled(97, 60);
  const judge = (runs: ReturnType<typeof sampled>[]) => {
    const outcome = {
      command: null,
      loadGenerator: null,
      cpus: { server: "0", client: "1" },
      checks: [],
      facts: {},
      headline: { figure: "messagesPerSecond", higherIsBetter: true },
      runs: [],
      warnings: [{ code: "client-bound", message: "an earlier verdict" }],
    };
    const state = { ctx: { cpus: outcome.cpus }, sampled: runs };
    websocketKind.judge!(state as unknown as Parameters<NonNullable<typeof websocketKind.judge>>[0], outcome);
    return outcome.warnings;
  };
  const codes = (runs: ReturnType<typeof sampled>[]) => judge(runs).map((w) => w.code);
  assertEquals(codes([both, both, driverOnly]), ["client-saturated"]);
  assertEquals(codes([driverOnly, driverOnly, both]), ["client-bound", "client-saturated"]);
  assertEquals(codes([]), []);
  // The driver is not a --load-generator choice: the warning points to more client CPUs instead.
  const bound = judge([driverOnly]).find((w) => w.code === "client-bound")!;
  assertMatch(bound.message, /--client-host/);
  assert(!bound.message.includes("--load-generator"), bound.message);
});
