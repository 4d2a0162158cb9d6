// docs/method.md "Connections that close" (--keep-alive off): every request on a new TCP connection, sent with
// `Connection: close`; the connect timed apart from the response; a server's close after its answer expected, a close
// before it a dropped connection; a server that keeps the socket open holds nothing up; refused with exit 2 where it
// has no meaning (WebSocket workloads, autocannon, --pipelining above 1). Real servers throughout: a counting node:net
// server in this process, the fault server (tests/fixtures/servers/fault_server.mjs), and every HTTP workload's own.
import { assert, assertEquals, assertMatch, assertThrows } from "@std/assert";
import { createServer, type Socket } from "node:net";
import { engineGenerator } from "../../runners/drivers/engine.ts";
import { wrkGenerator } from "../../runners/drivers/wrk.ts";
import { bombardierGenerator } from "../../runners/drivers/bombardier.ts";
import { ohaGenerator } from "../../runners/drivers/oha.ts";
import { locustGenerator } from "../../runners/drivers/locust.ts";
import type { LoadGenerator, LoadSettings } from "../../runners/drivers/types.ts";
import { run, runWithWorkloadDefaults } from "../_suite.ts";
import { parseResult, validateResult } from "../../runners/schema/mod.ts";
import type { BenchRecord } from "../../runners/schema/result.ts";
import type { RunSettings } from "../../workloads/types.ts";
import { faultyHttp } from "../fixtures/accounting_faults.ts";
import { httpJson } from "../../workloads/http_json.ts";
import { startup } from "../../workloads/startup.ts";
import { chosenCpuRate } from "../../runners/kinds/cpu_rate.ts";
import { formatTable } from "../../runners/report/table.ts";
import { checkResumableSettings } from "../../runners/suite/resume.ts";
import { RequestError } from "../../runners/base/mod.ts";
import { flagOf } from "../../runners/cli/_flag_names.ts";
import { assertNothingLeft, runTask, withTmp } from "../_helpers.ts";
import { condition, type Need, needs, tool } from "../_needs.ts";

const BODY = '{"message":"Hello, World!"}';

/** What the counting server saw: connections, requests, those asking to close, most requests on one connection. */
interface Seen {
  connections: number;
  requests: number;
  askedToClose: number;
  mostPerConnection: number;
}

/**
 * A node:net server answering the hello JSON that counts what it sees; it honours `Connection: close` (answers with
 * it and closes after the answer) unless `ignoresClose`, when it keeps every connection open whatever it is asked.
 */
async function countingServer(ignoresClose: boolean) {
  const seen: Seen = { connections: 0, requests: 0, askedToClose: 0, mostPerConnection: 0 };
  const sockets = new Set<Socket>();
  const server = createServer((socket) => {
    seen.connections++;
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
    socket.on("error", () => {});
    let buffer = "", here = 0;
    socket.on("data", (chunk) => {
      buffer += chunk.toString("latin1");
      for (let end = buffer.indexOf("\r\n\r\n"); end >= 0; end = buffer.indexOf("\r\n\r\n")) {
        const head = buffer.slice(0, end);
        buffer = buffer.slice(end + 4);
        seen.requests++;
        seen.mostPerConnection = Math.max(seen.mostPerConnection, ++here);
        const close = /\r\nconnection:\s*close/i.test(head);
        if (close) seen.askedToClose++;
        const closes = close && !ignoresClose;
        const response = `HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: ${BODY.length}\r\n` +
          `${closes ? "connection: close\r\n" : ""}\r\n${BODY}`;
        if (closes) socket.end(response);
        else socket.write(response);
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as { port: number }).port;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    seen,
    /** Connections still open (from the server's side). */
    open: () => sockets.size,
    async [Symbol.asyncDispose]() {
      for (const s of sockets) s.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

// No warm-up: it runs the window's own code. bombardier runs whole seconds (below, its own 1 s window).
const OFF: LoadSettings = {
  durationSec: 0.5,
  warmupSec: 0,
  connections: 4,
  pipelining: 1,
  requestTimeoutSec: 5,
  keepAlive: false,
};
const TARGET = (baseUrl: string) => ({
  baseUrl,
  requests: [{ path: "/", expect: { status: 200, contentType: "application/json", body: BODY } }],
});

// docs/method.md: "every request on a new TCP connection, sent with Connection: close" (rtbench's engine, wrk,
// bombardier, oha, Locust).
const GENERATORS: [LoadGenerator, Need][] = [
  [engineGenerator, condition("rtbench's engine", null)],
  [wrkGenerator, tool("wrk", "apt-get install wrk")],
  [bombardierGenerator, tool("bombardier", "go install github.com/codesenberg/bombardier@v1.2.6")],
  [ohaGenerator, tool("oha", "cargo install oha --locked")],
  [
    locustGenerator,
    condition("Locust", (await locustGenerator.available()) ? null : "python3 is missing (apt-get install python3)"),
  ],
];
for (const [generator, need] of GENERATORS) {
  Deno.test(needs(need, {
    name: `keep-alive off, ${generator.name}: one request per connection, each sent with Connection: close`,
    async fn() {
      await using server = await countingServer(false);
      const settings = generator === bombardierGenerator ? { ...OFF, durationSec: 1 } : OFF;
      const m = await generator.run(TARGET(server.baseUrl), settings, { cpus: null });
      assert(m.validResponses > 0, JSON.stringify(m));
      const s = server.seen;
      // Every connection carried at most one request: a generator stopped (after its warm-up, after its window) may
      // leave a new connection unused, a few per connection at most.
      assertEquals(s.mostPerConnection, 1, JSON.stringify(s));
      assertEquals(s.askedToClose, s.requests, JSON.stringify(s));
      assert(s.connections >= s.requests && s.connections <= s.requests + OFF.connections * 4, JSON.stringify(s));
    },
  }));
}

Deno.test(needs(GENERATORS[1][1], {
  name: "keep-alive off: wrk keeps a connection the server keeps (only the engine closes each one itself)",
  async fn() {
    await using server = await countingServer(true);
    const m = await wrkGenerator.run(TARGET(server.baseUrl), OFF, { cpus: null });
    assert(m.validResponses > 0);
    // Every request asked to close, and the server ignored it: wrk sent request after request on its connections.
    assertEquals(server.seen.askedToClose, server.seen.requests);
    assert(server.seen.mostPerConnection > 1, JSON.stringify(server.seen));
  },
}));

Deno.test("keep-alive off, engine: connect timed apart; a server that ignores Connection: close holds nothing up", async () => {
  await using server = await countingServer(true);
  const m = await engineGenerator.run(TARGET(server.baseUrl), OFF, { cpus: null });
  const s = server.seen;
  // The server kept every connection open: the client closed each after its one answer, and none is left.
  assertEquals(s.mostPerConnection, 1, JSON.stringify(s));
  assertEquals(server.open(), 0);
  assert(m.validResponses > 0);
  const a = m.accounting!;
  assertEquals([a.droppedConnections, a.unanswered, a.hungConnections, a.unasked], [0, 0, 0, 0], JSON.stringify(a));
  // Each answered request of the window had a connect of its own, timed apart, and a whole time no shorter than it.
  assert(m.connectUs && m.totalLatencyUs && m.latencyUs, JSON.stringify(m));
  assert(m.connectUs!.p50 > 0 && m.totalLatencyUs!.p50 >= m.latencyUs!.p50, JSON.stringify(m));
});

/** Faults from 0.4 s after the first request on (after the warm-up, in the window), keep-alive off. */
const FAULTS: Partial<RunSettings> = {
  durationSec: 0.5,
  warmupSec: 0.2,
  runs: 1,
  requestTimeoutSec: 1,
  keepAlive: false,
};

const describe = (r: BenchRecord) =>
  `${r.variant}: ${r.status} ${r.error?.message ?? ""} ${JSON.stringify(r.runs[0]?.accounting)}`;

// docs/method.md: "a server's close after its answer is the expected end; a close before the answer is a dropped
// connection", against the real fault server; every mode, in both models, is tests/unit/accounting_matrix_test.ts's.
Deno.test("keep-alive off against the real server: a close after the answer is fine, a close before it a drop", async () => {
  await withTmp(async (tmp) => {
    const result = await run({
      workloads: [faultyHttp(20, 400)],
      runtimes: ["node"],
      variants: ["close-after", "drop"],
      settings: FAULTS,
      loadGenerator: "rtbench",
      tempDir: tmp,
    });
    assertEquals(validateResult(JSON.parse(JSON.stringify(result))), []);
    const [fine, drop] = ["close-after", "drop"].map((v) => result.records.find((r) => r.variant === v)!);
    assertEquals(fine.status, "completed", describe(fine));
    const a = fine.runs[0].accounting!;
    assertEquals([a.unanswered, a.unasked, a.hungConnections, a.droppedConnections], [0, 0, 0, 0], describe(fine));
    assertEquals(fine.settings.keepAlive, false);
    assert(fine.runs[0].connectUs && fine.connectUs, describe(fine));
    assertEquals([drop.status, drop.error?.phase], ["invalid", "measure"], describe(drop));
    assertMatch(drop.error!.message, /^the server closed \d+ connections in use/);
    assert(drop.runs[0].accounting!.droppedConnections > 0, describe(drop));
    await assertNothingLeft(tmp);
  });
});

// docs/method.md: "--keep-alive off runs on every HTTP workload and runtime".
Deno.test("bench --keep-alive off on every HTTP workload and runtime: completed, connect apart, nothing dropped", async () => {
  await withTmp(async (tmp) => {
    const out = `${tmp}/r.json`;
    const cli = await runTask("bench", [
      ...["--workload", "http-json,uuid-file,bcrypt,postgres,rest-api", "--runtime", "deno,node,bun"],
      // bcrypt at its lowest cost: a hash is the point of neither the test nor the flag.
      ...[
        "--variant",
        "default,bcryptjs,db",
        "--keep-alive",
        "off",
        "--runs",
        "1",
        "--duration",
        "0.3",
        "--bcrypt-cost",
        "4",
      ],
      ...["--warmup", "0.1", "--connections", "20", "--cpu-rate", "0", "--idle-connections", "0", "--out", out],
    ], { env: { TMPDIR: tmp } });
    assertEquals(cli.code, 0, cli.stderr.slice(-3000));
    const result = parseResult(await Deno.readTextFile(out));
    assertEquals(result.records.length, 15);
    for (const r of result.records) {
      assertEquals(r.status, "completed", `${r.id}: ${JSON.stringify(r.error)}`);
      assertEquals(r.settings.keepAlive, false);
      const a = r.runs[0].accounting!;
      assertEquals([a.droppedConnections, a.unanswered, a.unasked], [0, 0, 0], `${r.id}: ${JSON.stringify(a)}`);
      assert(r.runs[0].connectUs && r.runs[0].totalLatencyUs, r.id);
      assert(r.runs[0].figures.connectP50Us > 0, r.id);
    }
    // The report says how the connections went.
    assertMatch(cli.stderr + cli.stdout, /keep-alive off \(a new connection per request\)/);
    await assertNothingLeft(tmp, ["r.json"]);
  }, { database: true });
});

// docs/method.md: "refused with exit 2, one line naming --keep-alive".
Deno.test("--keep-alive off where it has no meaning: exit 2, one line naming the flag", async () => {
  const cases: [string[], RegExp][] = [
    [["--workload", "ws"], /^rtbench: --keep-alive off: ws is a WebSocket workload/],
    [["--workload", "http-json", "--load-generator", "autocannon"], /^rtbench: --keep-alive off: autocannon cannot/],
    [["--workload", "http-json", "--pipelining", "4"], /^rtbench: --pipelining needs --keep-alive on/],
    // Only workloads that open no connection: the flag would change nothing, so it is refused rather than ignored.
    [["--workload", "startup"], /^rtbench: --keep-alive off: no selected workload opens a connection \(startup: /],
    [["--workload", "startup,micro"], /^rtbench: --keep-alive off: no selected workload opens a connection/],
  ];
  for (const [args, message] of cases) {
    const cli = await runTask("bench", ["--keep-alive", "off", ...args]);
    assertEquals(cli.code, 2, cli.stderr);
    assertMatch(cli.stderr, message);
    assertEquals(cli.stderr.trim().split("\n").length, 1, cli.stderr);
  }
  const bad = await runTask("bench", ["--keep-alive", "maybe"]);
  assertEquals([bad.code, bad.stderr.trim()], [2, 'rtbench: --keep-alive is on or off, got "maybe"']);
});

// docs/method.md: "A process or micro workload measured beside HTTP ones keeps its record's `keepAlive` as it ran, on".
Deno.test("keep-alive off beside a process workload: the HTTP record closes connections, startup's does not claim it", async () => {
  await withTmp(async (tmp) => {
    const result = await run({
      workloads: [httpJson, startup],
      runtimes: ["deno"],
      variants: ["default", "hello"],
      settings: {
        runs: 1,
        durationSec: 0.3,
        warmupSec: 0,
        connections: 4,
        cpuRate: 0,
        idleConnections: 0,
        keepAlive: false,
      },
      tempDir: tmp,
    });
    assertEquals(validateResult(JSON.parse(JSON.stringify(result))), []);
    const byWorkload = Object.fromEntries(result.records.map((r) => [r.workload, r]));
    assertEquals(Object.keys(byWorkload).sort(), ["http-json", "startup"]);
    for (const r of result.records) assertEquals(r.status, "completed", `${r.id}: ${JSON.stringify(r.error)}`);
    assertEquals(byWorkload["http-json"].settings.keepAlive, false);
    assert(byWorkload["http-json"].runs[0].figures.connectP50Us > 0);
    // startup runs a process to its first output: no connection, so its record keeps the profile's keepAlive.
    assertEquals(byWorkload.startup.settings.keepAlive, true);
    assertEquals(byWorkload.startup.runs[0].connectUs, undefined);
    await assertNothingLeft(tmp);
  });
});

const LINUX = condition("Linux", Deno.build.os === "linux" ? null : "reads the kernel's own CPU counters (Linux only)");

// docs/method.md: "CPU per request is the server's CPU time over the whole window … so it takes in the accept and the
// close of every connection".
Deno.test(needs(LINUX, {
  name: "keep-alive off: the server's CPU per request takes in its accept path (more than with keep-alive)",
  async fn() {
    const perRequest = async (keepAlive: boolean) =>
      await withTmp(async (tmp) => {
        const result = await run({
          workloads: [httpJson],
          runtimes: ["deno"],
          settings: {
            runs: 1,
            durationSec: 1,
            warmupSec: 0.3,
            connections: 16,
            cpuRate: 0,
            idleConnections: 0,
            keepAlive,
          },
          tempDir: tmp,
        });
        const [record] = result.records;
        assertEquals(record.status, "completed", JSON.stringify(record.error));
        await assertNothingLeft(tmp);
        const f = record.runs[0].figures;
        // Counted from the kernel over the requests answered: it agrees with the sampler's mean CPU (an independent
        // reading of /proc every 250 ms) over the same window within a half.
        const sampled = f.serverCpuPercent / 100 * f.durationMs * 1000;
        const counted = f.serverCpuUsPerRequest * f.validResponses;
        assert(counted / sampled > 0.5 && counted / sampled < 2, `counted ${counted} vs sampled ${sampled}`);
        return f.serverCpuUsPerRequest;
      });
    const on = await perRequest(true);
    const off = await perRequest(false);
    // A TCP handshake, an accept and a close per request cost the server more than a request on an open connection
    // (measured here: about 5 µs with keep-alive, 13 to 58 µs without, by runtime).
    assert(off > 1.5 * on, `keep-alive off ${off} µs, on ${on} µs per request`);
  },
}));

// docs/method.md "CPU per request and memory per connection": "Under --keep-alive off without --cpu-rate … half the
// slowest runtime's closed-model rate in the variant's first round".
Deno.test(needs(LINUX, {
  name: "keep-alive off without --cpu-rate: the fixed rate is chosen from the first round, and every runtime holds it",
  async fn() {
    await withTmp(async (tmp) => {
      const result = await runWithWorkloadDefaults({
        workloads: [httpJson],
        runtimes: ["deno", "node"],
        // The fixed-rate window is 1 s whatever the run's (runners/kinds/cpu_rate.ts): the closed window is short.
        settings: { runs: 2, durationSec: 0.5, warmupSec: 0.1, connections: 16, idleConnections: 0, keepAlive: false },
        tempDir: tmp,
      });
      assertEquals(validateResult(JSON.parse(JSON.stringify(result))), []);
      // Each runtime's closed-model rate in the first round; the rate is half the slowest's, two digits, rounded down.
      const rate = chosenCpuRate(result.records.map((r) => r.runs[0].figures.requestsPerSecond))!;
      assert(rate > 0 && rate < 20_000, `${rate}`);
      for (const r of result.records) {
        assertEquals(r.status, "completed", `${r.id}: ${JSON.stringify(r.error)}`);
        assertEquals(r.settings.cpuRate, rate, r.id);
        assertMatch(String(r.facts.cpuRateChosenFrom), /half the slowest runtime's closed-model rate/);
        // The first round had no fixed-rate window (the rate was not known yet); the second held it.
        assertEquals(r.runs[0].figures.cpuRateAchievedPerSecond, undefined, r.id);
        const f = r.runs[1].figures;
        assert(f.cpuRateAchievedPerSecond >= 0.95 * rate, `${r.id}: ${f.cpuRateAchievedPerSecond} of ${rate}`);
        assert(f.serverCpuUsPerRequestAtRate > 0, r.id);
        assertEquals(r.warnings.filter((w) => w.code === "cpu-rate-not-held"), [], r.id);
      }
      // The overview has its row at that rate.
      assertMatch(formatTable(result), new RegExp(`http-json \\(default\\) at ${rate.toLocaleString("en-US")}/s`));
      await assertNothingLeft(tmp);
    });
  },
}));

// docs/method.md: "--resume holds a file to it".
Deno.test("--resume refuses a file measured with the other keep-alive, naming the flag", () => {
  const suite = { profile: "quick", workloads: ["http-json"], runtimes: ["deno"], loadGenerator: "auto" };
  const error = assertThrows(
    () => checkResumableSettings("r.json", { ...suite, overrides: { keepAlive: false } }, { ...suite, overrides: {} }),
    RequestError,
  );
  assertEquals(
    error.describe(flagOf),
    "--resume r.json: --keep-alive (default) differs from the file's off (resume with the same flags)",
  );
});
