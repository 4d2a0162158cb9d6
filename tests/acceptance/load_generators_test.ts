// README walk: shows claims of docs/method.md "Other load generators".
// Native load generators end to end: each installed one measures http-json on
// Deno through the same contract, records its version and what it verified,
// and gets sampled; wrk's warm-up check catches a server that goes wrong under
// load. A generator that is not installed skips its test and says so.
import { assert, assertEquals, assertExists, assertMatch } from "@std/assert";
import { needs, tool } from "../_needs.ts";
import { formatTable } from "../../runners/report/table.ts";
import { validateResult } from "../../runners/schema/mod.ts";
import { run } from "../_suite.ts";
import { httpJson } from "../../workloads/http_json.ts";
import { flaky, flakyWarmup } from "../fixtures/flaky.ts";
import { spread } from "../fixtures/spread.ts";
import { assertNothingLeft, withTmp } from "../_helpers.ts";
import { parseWrkOutput, wrkHistogram } from "../../runners/drivers/wrk.ts";
import { LATENCY_QUANTILES, wrkScript } from "../../runners/drivers/_wrk_script.ts";
import { percentilesOf } from "../../runners/samples/latency.ts";

const WRK = tool("wrk", "apt-get install wrk");
const BOMBARDIER = tool("bombardier", "go install github.com/codesenberg/bombardier@v1.2.6");
const OHA = tool("oha", "cargo install oha --locked");

for (const [name, need] of [["wrk", WRK], ["bombardier", BOMBARDIER], ["oha", OHA]] as const) {
  Deno.test(needs(need, {
    name: `${name} measures http-json through the LoadGenerator contract`,
    async fn() {
      await withTmp(async (tmp) => {
        const result = await run({
          workloads: [httpJson],
          runtimes: ["deno"],
          // bombardier and wrk run whole seconds; a warm-up would be a second more of the same.
          settings: { durationSec: 1, warmupSec: 0, runs: 1 },
          loadGenerator: name,
          tempDir: tmp,
        });
        assertEquals(validateResult(result), []);
        const [record] = result.records;
        assertEquals(record.status, "completed", JSON.stringify(record.error));
        assertEquals(record.loadGenerator?.name, name);
        assertEquals(record.loadGenerator?.selectedBy, `--load-generator ${name}`);
        assertMatch(record.loadGenerator!.version, /\d|unspecified/);
        assertEquals(result.environment.loadGenerators?.[name], record.loadGenerator!.version);
        assert(record.loadGenerator!.verifies!.includes("status"));
        // How its latency treats coordinated omission is in the record: wrk corrects after the fact, the others do not.
        assertEquals(record.loadGenerator?.coordinatedOmission, name === "wrk" ? "corrected" : "uncorrected");
        // It checks only statuses in the measured window, and the record (so every report) says so.
        assertMatch(
          record.warnings.find((w) => w.code === "status-only")?.message ?? "",
          new RegExp(`^${name} checked`),
        );
        const [r] = record.runs;
        assert(r.figures.requestsPerSecond > 0 && r.figures.validResponses > 0);
        // docs/method.md "Slow workloads: enough responses to rank": it reports no counted responses' span, so its rate
        // is over the window (and a slow workload's run counts 100).
        assertEquals(r.figures.countedSpanMs, undefined);
        assertExists(r.latencyHistogram, "microsecond latencies kept as a histogram");
        assert(record.latencyUs!.p50 > 0 && record.latencyUs!.p50 <= record.latencyUs!.p99);
        assertExists(record.resources?.client, `${name}'s process was sampled`);
        assert(r.figures.clientCpuPercent > 0, "client CPU comes from the sampler");
        await assertNothingLeft(tmp);
      });
    },
  }));
}

Deno.test(needs(WRK, {
  name: "wrk's warm-up check catches a server whose body goes wrong under load",
  async fn() {
    await withTmp(async (tmp) => {
      const result = await run({
        workloads: [flaky],
        runtimes: ["deno"],
        settings: { durationSec: 1, warmupSec: 1, runs: 1 },
        loadGenerator: "wrk",
        tempDir: tmp,
      });
      const [record] = result.records;
      assert(record.verification.passed, "the first responses were right");
      assertEquals(record.status, "invalid");
      assertEquals(record.error?.phase, "measure");
      assertMatch(
        record.error!.message,
        /mismatched .*during warm-up: status 200, content-type application\/json, body/,
      );
      assertMatch(record.error!.message, /Hello, World\?/);
    });
  },
}));

// docs/guide.md "Faults tried": "server wrong only during the warm-up". docs/method.md (Load generators): "What goes
// wrong during the warm-up (mismatches, non-2xx) counts … whichever generator ran".
for (const [name, need] of [["wrk", WRK], ["autocannon", []]] as const) {
  Deno.test(needs(need, {
    name: `${name} counts mismatches made during the warm-up alone`,
    async fn() {
      await withTmp(async (tmp) => {
        const result = await run({
          workloads: [flakyWarmup],
          runtimes: ["deno"],
          settings: { durationSec: 1, warmupSec: 1.5, runs: 1 },
          loadGenerator: name,
          tempDir: tmp,
        });
        const [record] = result.records;
        assert(record.verification.passed, "the first responses were right");
        assertEquals(record.status, "invalid", JSON.stringify(record.runs[0]?.counts));
        assertMatch(record.error!.message, /during warm-up: .*Hello, World\?/);
      });
    },
  }));
}

// docs/method.md (Load generators): "wrk runs whole seconds only … the record keeps what ran … the table header prints
// it".
Deno.test(needs(WRK, {
  name: "wrk's whole seconds are recorded as they ran, and the header prints what ran beside what was asked",
  async fn() {
    await withTmp(async (tmp) => {
      const result = await run({
        workloads: [httpJson],
        runtimes: ["deno"],
        settings: { durationSec: 1.5, warmupSec: 0.5, runs: 1, connections: 10 },
        loadGenerator: "wrk",
        tempDir: tmp,
      });
      const [record] = result.records;
      assertEquals(record.status, "completed", JSON.stringify(record.error));
      const f = record.runs[0].figures;
      assert(f.warmupMs >= 950 && f.warmupMs < 1500, `warm-up ran ${f.warmupMs} ms`);
      assert(f.durationMs >= 1950 && f.durationMs < 2500, `measured ${f.durationMs} ms`);
      // The rate is over the window that ran, not the one asked.
      assert(Math.abs(f.requestsPerSecond - f.validResponses / (f.durationMs / 1000)) < f.requestsPerSecond / 100);
      const header = formatTable(result).split("\n").find((l) => l.startsWith("http-json (default) · "))!;
      // What ran, as measured (whole seconds plus wrk's own start on a busy machine), beside what was asked.
      assertMatch(header, /· 2(\.[0-4])? s \(asked 1\.5 s\) × 1 runs · warm-up 1(\.[0-4])? s \(asked 0\.5 s\)/);
    });
  },
}));

Deno.test(needs(WRK, {
  name: "wrk pipelines through its Lua request() batches, with a Host header Node accepts",
  async fn() {
    await withTmp(async (tmp) => {
      // Node answers 400 to an HTTP/1.1 request without Host; Deno lets it pass.
      const result = await run({
        workloads: [httpJson],
        runtimes: ["deno", "node"],
        settings: { durationSec: 1, warmupSec: 0, runs: 1, pipelining: 4, connections: 10 },
        loadGenerator: "wrk",
        tempDir: tmp,
      });
      for (const record of result.records) {
        assertEquals(record.status, "completed", JSON.stringify(record.error));
        assertEquals(record.settings.pipelining, 4);
        assertEquals(record.runs[0].counts.non2xx, 0);
        assert(record.runs[0].figures.validResponses > 0);
      }
    });
  },
}));

Deno.test({
  name: "--load-generator auto picks rtbench's engine and says why",
  async fn() {
    await withTmp(async (tmp) => {
      const result = await run({
        workloads: [httpJson],
        runtimes: ["node"],
        settings: { durationSec: 1, warmupSec: 0, runs: 1 },
        tempDir: tmp,
      });
      assertEquals(result.settings.loadGenerator, "auto");
      const [record] = result.records;
      assertEquals(record.loadGenerator?.name, "rtbench");
      assertMatch(
        record.loadGenerator!.selectedBy!,
        /^auto: the first generator that can send this traffic, rtbench's/,
      );
    });
  },
});

// wrk's Lua `latency(i)` scans its histogram from the lowest latency on every call: reading every distinct value of a
// run whose latencies spread over seconds took done() 38 s for a 3 s run (60,000 responses, load average 15), past
// the guard on wrk's run (it failed 002's HTTP on Node at 400 connections). Such a histogram is read as quantiles;
// their percentiles are checked here against the ones wrk itself prints (--latency), which it computes exactly.
Deno.test(needs(WRK, {
  name: "wrk's done() reads a histogram spread over seconds as quantiles, and their percentiles are wrk's own",
  async fn() {
    await withTmp(async (tmp) => {
      // One response in a hundred waits 0–3 s: tens of thousands of distinct latencies over millions of µs.
      await using server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async () => {
        if (Math.random() < 0.01) await new Promise((r) => setTimeout(r, Math.random() * 3000));
        return new Response("ok", { headers: { "content-type": "text/plain" } });
      });
      const script = `${tmp}/run.lua`;
      const requests = [{ path: "/", expect: { status: 200, contentType: "text/plain", body: "ok" } }];
      await Deno.writeTextFile(script, wrkScript({ requests, pipelining: 1, checkResponses: false }));
      const url = `http://127.0.0.1:${server.addr.port}/`;
      const args = ["-t1", "-c200", "-d3s", "--timeout", "10s", "--latency", "-s", script, url];
      const out = new TextDecoder().decode((await new Deno.Command("wrk", { args, stdout: "piped" }).output()).stdout);
      const parsed = parseWrkOutput(out);
      const spread = parsed.latency.split(",").length;
      assertEquals(parsed.latencyQuantiles, LATENCY_QUANTILES, `read whole (${spread} values): not spread enough`);
      // The quantiles read, as (value, cumulative share of the responses) points.
      const pairs = parsed.latency.split(",").map((x) => x.split(":").map(Number));
      const total = pairs.reduce((n, [, c]) => n + c, 0);
      let seen = 0;
      const points = pairs.map(([v, c]) => ({ v, share: (seen += c) / total }));
      // wrk's own lines: "     50%    2.44ms" (padded: "    90%    1.28s "), to three significant figures.
      const unit: Record<string, number> = { us: 1, ms: 1e3, s: 1e6 };
      const printed = [...out.matchAll(/^\s+(50|90|99)%\s+([\d.]+)(us|ms|s) *$/gm)];
      assertEquals(printed.length, 3, out);
      for (const [, p, figure, u] of printed) {
        // The exact percentile lies between the quantiles read on either side of it, less wrk's rounding to three
        // figures.
        const exact = Number(figure) * unit[u];
        const j = points.findIndex((x) => x.share >= Number(p) / 100);
        const low = points[Math.max(0, j - 1)].v * 0.995 - 10;
        const high = points[j].v * 1.005 + 10;
        assert(exact >= low && exact <= high, `p${p}: wrk printed ${exact} µs, the quantiles bracket ${low}–${high}`);
      }
      // The record's figures come from those quantiles, to the histogram's precision (three significant figures).
      const ours = percentilesOf(wrkHistogram(parsed.latency))!;
      const j99 = points.findIndex((x) => x.share >= 0.99);
      assert(Math.abs(ours.p99 - points[j99].v) <= 0.001 * points[j99].v, `${ours.p99} vs ${points[j99].v}`);
    });
  },
}));

// docs/method.md (Other load generators): "the run records how many quantiles it was rebuilt from … every report marks
// such latency ≈".
Deno.test(needs(WRK, {
  name: "wrk's latency read as quantiles is recorded and marked ≈; read whole, it is not",
  async fn() {
    await withTmp(async (tmp) => {
      // Latencies spread over seconds (one response in a hundred held 0–3 s), and http-json's on one connection: a few
      // hundred distinct values, read whole even where a busy moment stalls one response for a second (at 10
      // connections, a few thousand values and one stall of half a second beside other files passed the limit).
      const spreadResult = await run({
        workloads: [spread],
        runtimes: ["deno"],
        settings: { durationSec: 3, warmupSec: 0, runs: 1, connections: 200 },
        loadGenerator: "wrk",
        tempDir: tmp,
      });
      const tightResult = await run({
        workloads: [httpJson],
        runtimes: ["deno"],
        settings: { durationSec: 1, warmupSec: 0, runs: 1, connections: 1 },
        loadGenerator: "wrk",
        tempDir: tmp,
      });
      const result = { ...spreadResult, records: [...spreadResult.records, ...tightResult.records] };
      assertEquals(validateResult(result), []);
      const [held, tight] = result.records;
      for (const r of result.records) assertEquals(r.status, "completed", JSON.stringify(r.error));
      assertEquals([held.runs[0].latencyQuantiles, held.latencyQuantiles], [LATENCY_QUANTILES, LATENCY_QUANTILES]);
      assertEquals([tight.runs[0].latencyQuantiles, tight.latencyQuantiles], [undefined, undefined]);
      const text = formatTable(result);
      const starts = ["spread", "http-json"].map((name) => text.indexOf(`\n${name} (default) · `));
      const section = (i: number) => text.slice(starts[i], starts[1 - i] > starts[i] ? starts[1 - i] : undefined);
      // A section's results row (its p50 and p99) and its latency row (every percentile), each the runtime's first
      // row after its header.
      const rows = (i: number) => {
        const lines = section(i).split("\n");
        const after = (header: RegExp) =>
          lines.slice(lines.findIndex((l) => header.test(l))).find((l) => /^deno /.test(l))!;
        return [after(/ · /), after(/^latency /)];
      };
      assertMatch(section(0), /≈ latency of deno: rebuilt from 1,000 quantiles wrk reported/);
      assert(!section(1).includes("≈ latency of"), section(1));
      for (const row of rows(0)) assertMatch(row, /≈ \d/);
      for (const row of rows(1)) assert(!row.includes("≈"), row);
    });
  },
}));
