// --load-generator locust: Locust, installed by rtbench into its own venv (pip, pinned), runs the workload's own
// traffic as one master and one worker per client CPU and checks every response like the engine.
//
// docs/scaling-out.md "Locust: many load machines, slow workloads", claim by claim:
// - http-json and rest-api (captured ids, figures per endpoint, the database checked against the responses) measured
//   through Locust, the record naming Locust's pinned version and the Python it ran on, nothing left behind:
//   "bench --load-generator locust runs http-json and rest-api: verified, counted per endpoint, nothing left";
// - a server that goes wrong (wrong bodies, dropped connections, no answers) comes out under Locust as under the
//   engine, never clean: tests/e2e/accounting_test.ts "the fault fixture comes out the same under Locust …";
// - --rate and --phases pace Locust's users, with each phase's figures: "--rate under Locust: users paced, the
//   phase measured";
// - no --pipelining: "Locust refuses what it cannot send: pipelining"; the ws workload runs on rtbench's WebSocket
//   driver whatever --load-generator says: "ws under --load-generator locust runs on rtbench's WebSocket driver";
// - its workers' CPU sampled like any generator's: the first test (`resources.client`);
// - its ceiling per core beside wrk's and the engine's: "vs-wrk --locust: Locust's rate and ceiling per core beside
//   wrk's and the engine's".
import { assert, assertEquals, assertMatch, assertThrows } from "@std/assert";
import { parseResult, validateResult } from "../../runners/schema/mod.ts";
import { pickLoadGenerator } from "../../runners/drivers/generators.ts";
import { LOCUST_VERSION, locustGenerator } from "../../runners/drivers/locust.ts";
import { HELLO_BODY } from "../../workloads/http_json.ts";
import { formatVsWrk, vsWrk } from "../../runners/selfcheck/vs_wrk.ts";
import { assertNothingLeft, runCli, withTmp } from "../_helpers.ts";
import { condition, needs, tool } from "../_needs.ts";

const LOCUST = condition(
  "Locust",
  (await locustGenerator.available()) ? null : "python3 is missing (apt-get install python3 python3-venv)",
);
const WRK = tool("wrk", "apt-get install wrk");

Deno.test(needs(LOCUST, {
  name: "bench --load-generator locust runs http-json and rest-api: verified, counted per endpoint, nothing left",
  async fn() {
    await withTmp(async (tmp) => {
      const out = `${tmp}/r.json`;
      const cli = await runCli(
        [
          ...[
            "--workload",
            "http-json,rest-api",
            "--variant",
            "default",
            "--runtime",
            "deno",
            "--load-generator",
            "locust",
          ],
          ...["--duration", "2", "--warmup", "1", "--runs", "1", "--connections", "10", "--out", out],
          ...["--cpu-rate", "0", "--idle-connections", "0"],
        ],
        { TMPDIR: tmp },
      );
      assertEquals(cli.code, 0, cli.stderr + cli.stdout);
      const result = parseResult(await Deno.readTextFile(out));
      assertEquals(validateResult(result), []);
      assertEquals(result.records.map((r) => [r.id, r.status]), [
        ["http-json/default/deno", "completed"],
        ["rest-api/default/deno", "completed"],
      ]);
      for (const r of result.records) {
        assertEquals([r.loadGenerator?.name, r.loadGenerator?.version], ["locust", LOCUST_VERSION]);
        assertMatch(
          r.loadGenerator!.client!,
          /^python 3\.\d+\.\d+ \(venv .*locust-2\.47\.0-geventhttpclient-2\.6\.1-py3\.\d+\)$/,
        );
        assertEquals(r.warnings.filter((w) => w.code === "status-only"), [], "Locust checks every response");
        assertEquals(r.runs[0].counts, { errors: 0, timeouts: 0, non2xx: 0, mismatches: 0 });
        assert(r.runs[0].figures.validResponses > 0 && r.latencyUs!.p50 > 0, r.id);
        // docs/method.md "Slow workloads: enough responses to rank": Locust reports no counted responses' span.
        assertEquals(r.runs[0].figures.countedSpanMs, undefined, r.id);
        // The sampler followed the workers' processes, as it does any generator's.
        assert((r.resources?.client?.cpuPercent.mean ?? 0) > 0, `${r.id}: ${JSON.stringify(r.resources?.client)}`);
      }
      const rest = result.records[1];
      // Every endpoint of the mix measured, the captured ids among them (update, read back, delete).
      assertEquals(Object.keys(rest.runs[0].endpoints ?? {}).sort(), [
        "DELETE /users/:id",
        "GET /users",
        "GET /users/:id",
        "POST /users",
        "PUT /users/:id",
      ]);
      const checks = new Map(rest.verification.checks.map((c) => [c.name, c]));
      for (
        const name of ["rows created minus deleted", "inserts counted by PostgreSQL", "deletes counted by PostgreSQL"]
      ) {
        const c = checks.get(`run 1: database: ${name}`);
        assert(c?.passed, `${name}: ${JSON.stringify(c)}`);
      }
      assert(Number(checks.get("run 1: database: deletes counted by PostgreSQL")!.expected) >= 1);
      await assertNothingLeft(tmp, ["r.json"]);
    }, { database: true });
  },
}));

Deno.test("Locust refuses what it cannot send: pipelining", () => {
  const target = {
    baseUrl: "",
    requests: [{ path: "/", expect: { status: 200, contentType: "text/plain", body: "ok" } }],
  };
  const settings = { durationSec: 1, warmupSec: 0, connections: 1, pipelining: 4, requestTimeoutSec: 1 };
  assertThrows(
    () => pickLoadGenerator({ requested: "locust", candidates: [locustGenerator] }, target, settings),
    TypeError,
    "locust (a Locust user sends one request at a time (no --pipelining))",
  );
});

Deno.test(needs(LOCUST, {
  name: "--rate under Locust: users paced, the phase measured",
  async fn() {
    await using server = Deno.serve(
      { hostname: "127.0.0.1", port: 0, onListen() {} },
      () => new Response(HELLO_BODY, { headers: { "content-type": "application/json" } }),
    );
    const m = await locustGenerator.run(
      {
        baseUrl: `http://127.0.0.1:${server.addr.port}`,
        requests: [{ path: "/", expect: { status: 200, contentType: "application/json", body: HELLO_BODY } }],
      },
      { durationSec: 2, warmupSec: 0.5, connections: 10, pipelining: 1, requestTimeoutSec: 5, rate: 200 },
      { cpus: null },
    );
    // 200/s for 2 s: 400 due. Unpaced, ten users against Deno.serve answer thousands a second; paced, no more than
    // were due (a few more from the ones due at the window's last instant), and most of them on a loaded machine.
    const [phase] = m.phases!;
    assertEquals([phase.fromRate, phase.toRate, phase.scheduled], [200, 200, 400]);
    assert(phase.validResponses >= 200 && phase.validResponses <= 420, JSON.stringify(phase));
    assert(m.validResponses <= 420, String(m.validResponses));
    assertEquals(m.coordinatedOmission, "avoided");
    assertEquals([m.mismatches, m.non2xx, m.errors], [0, 0, 0]);
  },
}));

Deno.test(needs(LOCUST, {
  name: "ws under --load-generator locust runs on rtbench's WebSocket driver",
  async fn() {
    await withTmp(async (tmp) => {
      const out = `${tmp}/r.json`;
      const cli = await runCli(
        [
          ...["--workload", "ws", "--runtime", "deno", "--load-generator", "locust"],
          ...["--duration", "1", "--warmup", "0.5", "--runs", "1", "--out", out],
        ],
        { TMPDIR: tmp },
      );
      assertEquals(cli.code, 0, cli.stderr + cli.stdout);
      const [record] = parseResult(await Deno.readTextFile(out)).records;
      assertEquals(record.status, "completed", JSON.stringify(record.error));
      assert(record.loadGenerator?.name !== "locust", JSON.stringify(record.loadGenerator));
    });
  },
}));

Deno.test(needs([LOCUST, WRK], {
  name: "vs-wrk --locust: Locust's rate and ceiling per core beside wrk's and the engine's",
  async fn() {
    const result = await vsWrk({
      runtimes: ["deno"],
      rounds: 1,
      durationSec: 1,
      warmupSec: 0,
      connections: 20,
      locust: true,
      signal: AbortSignal.timeout(300_000),
    });
    const [deno] = result.runtimes;
    assertEquals([deno.rtbench.length, deno.wrk.length, deno.locust?.length], [1, 1, 1]);
    // Its ceiling per core is its rate over the share of its core it used: never below the rate itself.
    assert(deno.locust![0] > 0 && deno.locustPerCore![0] >= deno.locust![0], JSON.stringify(deno));
    const text = formatVsWrk(result);
    assertMatch(text, /locust, 1 worker \(median\) +locust per core \(median\) +wrk ÷ locust per core/);
    assertMatch(text, /^deno +[\d,]+\/s +[\d,]+\/s +\d+\.\d +\d+\.\d +\d+$/m);
  },
}));
