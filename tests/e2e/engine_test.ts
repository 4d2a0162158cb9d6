// rtbench's own load engine (docs/method.md "The load engine"): the default generator, it checks every response in the
// warm-up and in the measured window — a server that goes wrong seconds into the load makes the record invalid with
// the count — spreads connections over one process per client CPU, and runs on Deno where Bun cannot be had.
import { assert, assertEquals, assertMatch, assertThrows } from "@std/assert";
import { ENGINE_BUN_VERSION, engineGenerator } from "../../runners/drivers/engine.ts";
import { ENGINE_FILES } from "../../runners/engine/mod.ts";
import { wrkGenerator } from "../../runners/drivers/wrk.ts";
import { autocannonGenerator } from "../../runners/drivers/autocannon.ts";
import { pickLoadGenerator } from "../../runners/drivers/generators.ts";
import { needs, tool } from "../_needs.ts";
import { run } from "../_suite.ts";
import { parseResult, validateResult } from "../../runners/schema/mod.ts";
import { httpJson } from "../../workloads/http_json.ts";
import { checkExchange } from "../../workloads/mod.ts";
import { exchange } from "../../runners/drivers/exchange.ts";
import { goesWrong } from "../fixtures/goes_wrong.ts";
import { runCli, withTmp } from "../_helpers.ts";

const WRK = tool("wrk", "apt-get install wrk");

// docs/guide.md "Faults tried": "server goes wrong under load" — `invalid` in `measure`, first mismatch named. The
// server is wrong in exactly 3 responses, one in 500, seconds into the measured window
// (fixtures/servers/goes_wrong_deno.ts): a generator that sampled, or stopped at the first, would not count 3.
for (const fault of ["body", "type", "truncate"]) {
  Deno.test(`a server wrong in 3 responses seconds into the measured window is invalid (${fault}), with the count`, async () => {
    await withTmp(async (tmp) => {
      const result = await run({
        workloads: [goesWrong],
        runtimes: ["deno"],
        variants: [fault],
        // Wrong from 1.5 s after the first request (verification's): 1 s into a 2 s window.
        settings: { durationSec: 2, warmupSec: 0.5, runs: 1, connections: 10 },
        loadGenerator: "rtbench",
        tempDir: tmp,
      });
      assertEquals(validateResult(result), []);
      const [record] = result.records;
      assertEquals(record.loadGenerator?.name, "rtbench");
      assertEquals([record.status, record.error?.phase], ["invalid", "measure"], JSON.stringify(record.error));
      assertEquals(record.runs[0].counts.mismatches, 3, JSON.stringify(record.runs[0].counts));
      assertMatch(record.error!.message, /^3 mismatched and 0 non-2xx responses under load \(first: /);
      assertMatch(record.error!.message, fault === "truncate" ? /truncated response/ : /expected 200/);
    });
  });
}

Deno.test("http-json on deno, node and bun through the engine: completed, every response checked, figures in their units", async () => {
  await withTmp(async (tmp) => {
    const result = await run({
      workloads: [httpJson],
      runtimes: ["deno", "node", "bun"],
      settings: { durationSec: 0.5, warmupSec: 0.1, runs: 1 },
      tempDir: tmp,
    });
    assertEquals(validateResult(result), []);
    for (const r of result.records) {
      assertEquals(r.status, "completed", `${r.id}: ${JSON.stringify(r.error)}`);
      assertEquals(r.loadGenerator?.name, "rtbench", "auto picks the engine");
      assert(!r.warnings.some((w) => w.code === "status-only"), "the engine checks every response, not only statuses");
      const [run0] = r.runs;
      const { errors, timeouts, non2xx, mismatches } = run0.counts;
      assertEquals({ errors, timeouts, non2xx, mismatches }, { errors: 0, timeouts: 0, non2xx: 0, mismatches: 0 });
      // Half a second of loopback http-json is hundreds of answers at least, each one counted as checked (539 where the
      // files beside it kept both CPUs busy; thousands on an idle machine).
      assert(run0.figures.validResponses > 200, JSON.stringify(run0.figures));
      // Latency in microseconds: a loopback answer takes more than 5 µs and far less than a second.
      const latency = r.latencyUs!;
      assert(latency.p50 > 5 && latency.p99 < 1_000_000 && latency.p50 <= latency.p99, JSON.stringify(latency));
      // The client's own cost per response, in microseconds: more than half a microsecond, less than a millisecond.
      const cost = run0.figures.clientCpuUsPerResponse;
      assert(cost > 0.5 && cost < 1000, `${cost} µs of client CPU per response`);
    }
  });
});

// docs/method.md "The load engine": "one process per client CPU … with the connections spread over them and their
// histograms merged".
Deno.test("connections are spread over one engine process per client CPU, and their counts merged", async () => {
  let served = 0;
  const ports = new Set<number>();
  await using server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (_req, info) => {
    served++;
    ports.add((info.remoteAddr as Deno.NetAddr).port);
    return new Response("ok", { headers: { "content-type": "text/plain" } });
  });
  const pids: number[] = [];
  // What each engine process runs, read with ps while it runs (Deno reads another process's /proc/<pid>/exe only
  // with --allow-all): the program after a launcher such as taskset, polled until the launcher has exec'd it.
  const binaries: Promise<string | null>[] = [];
  const exe = async (pid: number): Promise<string | null> => {
    for (let i = 0; i < 40; i++) {
      const ps = await new Deno.Command("ps", { args: ["-ww", "-o", "args=", "-p", String(pid)], stdout: "piped" })
        .output();
      const program = new TextDecoder().decode(ps.stdout).trim().split(/\s+/)[0] ?? "";
      if (!ps.success || program === "") return null;
      if (!program.endsWith("taskset")) return program;
      await new Promise((r) => setTimeout(r, 25));
    }
    return null;
  };
  const m = await engineGenerator.run(
    {
      baseUrl: `http://127.0.0.1:${server.addr.port}`,
      requests: [{ path: "/", expect: { status: 200, contentType: "text/plain", body: "ok" } }],
    },
    { durationSec: 1, warmupSec: 0.2, connections: 5, pipelining: 1, requestTimeoutSec: 10 },
    { cpus: "0,1", onSpawn: (pid) => binaries.push(exe(pid)) && pids.push(pid) },
  );
  assertEquals(pids.length, 2, "one process per client CPU");
  // docs/method.md "The load engine": "on Bun, at a fixed version (`ENGINE_BUN_VERSION`, 1.4.5 …)": the processes ran
  // it.
  const ran = new Set(await Promise.all(binaries));
  assert(ran.size > 0 && !ran.has(null), `the engine's programs: ${[...ran]}`);
  for (const binary of ran) {
    const version = await new Deno.Command(binary!, { args: ["--version"], stdout: "piped" }).output();
    assertEquals(new TextDecoder().decode(version.stdout).trim(), "1.4.5", binary);
  }
  assertEquals(ENGINE_BUN_VERSION, "1.4.5");
  assertEquals(ports.size, 5, "five connections in all");
  assertEquals(m.mismatches + m.non2xx + m.errors, 0);
  // Every response the server sent was counted, in the warm-up or the measured window, but for those still in flight
  // or arriving after the window closed (a few milliseconds' worth).
  const counted = m.warmupResponses + m.responses;
  assert(counted <= served && served - counted < served / 100, `${served} served, ${counted} counted`);
  assertEquals(m.validResponses, m.responses, "every counted response was checked and valid");
  // Each process's own window, as side effects counted in the window are dated against: one second each, from the
  // earliest of them on (a busy machine may open one later than the other).
  assertEquals(m.windows?.map((w) => Math.round(w.durationMs)), [1000, 1000]);
  assertEquals(Math.min(...m.windows!.map((w) => w.startMs)), m.windowStartMs);
});

Deno.test("with RTBENCH_ENGINE_RUNTIME=deno the engine runs on Deno and the record says so", async () => {
  const out = await new Deno.Command(Deno.execPath(), {
    args: [
      "eval",
      `import { engineGenerator } from "${new URL("../../runners/drivers/engine.ts", import.meta.url)}";
      await using server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} },
        () => new Response("ok", { headers: { "content-type": "text/plain" } }));
      const m = await engineGenerator.run(
        { baseUrl: "http://127.0.0.1:" + server.addr.port,
          requests: [{ path: "/", expect: { status: 200, contentType: "text/plain", body: "ok" } }] },
        { durationSec: 0.5, warmupSec: 0, connections: 4, pipelining: 2, requestTimeoutSec: 10 }, { cpus: null });
      console.log(JSON.stringify({ client: await engineGenerator.client(), valid: m.validResponses, bad: m.mismatches }));`,
    ],
    env: { RTBENCH_ENGINE_RUNTIME: "deno" },
    stdout: "piped",
    stderr: "piped",
  }).output();
  assertEquals(out.code, 0, new TextDecoder().decode(out.stderr));
  const seen = JSON.parse(new TextDecoder().decode(out.stdout).trim().split("\n").at(-1)!);
  assertMatch(seen.client, /^deno \d+\.\d+\.\d+ \(Bun .* could not be had: RTBENCH_ENGINE_RUNTIME=deno\)$/);
  assert(seen.valid > 0);
  assertEquals(seen.bad, 0);
});

Deno.test("the engine rotates through every request of the traffic, checking each against its own expectation", async () => {
  const seen = new Map<string, number>();
  await using server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (req) => {
    const path = new URL(req.url).pathname;
    seen.set(path, (seen.get(path) ?? 0) + 1);
    return new Response(path.slice(1), { headers: { "content-type": "text/plain" } });
  });
  const paths = ["/a", "/bb", "/ccc"];
  const m = await engineGenerator.run(
    {
      baseUrl: `http://127.0.0.1:${server.addr.port}`,
      requests: paths.map((p) => ({ path: p, expect: { status: 200, contentType: "text/plain", body: p.slice(1) } })),
    },
    { durationSec: 0.5, warmupSec: 0, connections: 2, pipelining: 4, requestTimeoutSec: 10 },
    { cpus: null },
  );
  assertEquals([...seen.keys()].sort(), paths);
  assertEquals(m.mismatches + m.non2xx, 0, m.firstMismatch ?? "");
  const counts = [...seen.values()];
  assert(Math.max(...counts) - Math.min(...counts) <= 2 * 4, `rotation keeps them even: ${counts}`);
});

// docs/method.md "The load engine", HTTP: "the answer to a `HEAD` is its head alone"; and verification's check of it.
Deno.test("HEAD beside GET through the engine and verification: each answer read as its method has it", async () => {
  const body = '{"message":"Hello, World!"}';
  await using server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen() {} },
    () => Response.json(JSON.parse(body)),
  );
  const baseUrl = `http://127.0.0.1:${server.addr.port}`;
  const head = { method: "HEAD", path: "/", expect: { status: 200, contentType: "application/json", body: "" } };
  const get = { path: "/", expect: { status: 200, contentType: "application/json", body } };
  // The server's HEAD names the GET's length and sends no body: verification passes it.
  const answered = await exchange(baseUrl, head, 5000);
  assertEquals(answered.headers["content-length"], String(body.length));
  assertEquals(checkExchange(answered).filter((c) => !c.passed), []);
  const m = await engineGenerator.run(
    { baseUrl, requests: [head, get] },
    { durationSec: 0.5, warmupSec: 0, connections: 2, pipelining: 4, requestTimeoutSec: 2 },
    { cpus: null },
  );
  assertEquals([m.mismatches, m.non2xx, m.errors, m.accounting!.unanswered], [0, 0, 0, 0], m.firstMismatch ?? "");
  assert(m.validResponses > 100, String(m.validResponses));
});

// docs/method.md "Other load generators": "wrk and autocannon are passed over for a traffic with a `HEAD` …".
Deno.test(needs(WRK, {
  name: "a traffic with HEAD passes over wrk and autocannon, which wait for a body: wrk on one counts no answer",
  async fn() {
    const expect = { status: 200, contentType: "application/json", body: "" };
    const target = { baseUrl: "", requests: [{ method: "HEAD", path: "/", expect }] };
    const settings = { durationSec: 1, warmupSec: 0, connections: 2, pipelining: 1, requestTimeoutSec: 2 };
    const candidates = [wrkGenerator, autocannonGenerator, engineGenerator];
    const picked = pickLoadGenerator({ requested: "auto", candidates }, target, settings);
    assertEquals(picked.generator.name, "rtbench");
    assertMatch(picked.selectedBy, /passed over: wrk \(wrk reads the answer to a HEAD .*\); autocannon \(autocannon/);
    assertThrows(
      () => pickLoadGenerator({ requested: "wrk", candidates: [wrkGenerator] }, target, settings),
      TypeError,
      "--load-generator: cannot send this traffic: wrk (wrk reads the answer to a HEAD",
    );
    // Why: wrk itself, a second of HEAD on a server that answers it right, counts nothing.
    await using server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, () => Response.json({}));
    const script = await Deno.makeTempFile({ suffix: ".lua" });
    try {
      await Deno.writeTextFile(script, 'wrk.method = "HEAD"\n');
      const out = await new Deno.Command("wrk", {
        args: ["-t1", "-c2", "-d1s", "-s", script, `http://127.0.0.1:${server.addr.port}/`],
      }).output();
      assertMatch(new TextDecoder().decode(out.stdout), /\b0 requests in/);
    } finally {
      await Deno.remove(script);
    }
  },
}));

Deno.test("the engine's file list holds everything its program imports, so a copy of it runs on its own", async () => {
  const base = new URL("../../runners/engine/", import.meta.url);
  const seen = new Set<string>();
  const visit = async (href: string) => {
    if (seen.has(href)) return;
    seen.add(href);
    const text = await Deno.readTextFile(new URL(href));
    for (const m of text.matchAll(/^(?:import|export)[^;]*?from "(\.[^"]+)"/gms)) await visit(new URL(m[1], href).href);
  };
  await visit(new URL("./_child.ts", base).href);
  const listed = new Set(ENGINE_FILES.map((f) => new URL(f, base).href));
  assertEquals([...seen].filter((f) => !listed.has(f)), []);
});

// docs/method.md "The load engine": where Bun cannot be had the engine runs on Deno, and the record says so with its
// ceiling.
Deno.test("bench with the engine on Deno: the record says so, with the ceiling its own cost per response implies", async () => {
  await withTmp(async (tmp) => {
    const out = `${tmp}/r.json`;
    const args = ["--workload", "http-json", "--runtime", "deno", "--duration", "0.5", "--warmup", "0", "--runs", "1"]
      .concat(["--cpu-rate", "0", "--idle-connections", "0"]);
    const cli = await runCli([...args, "--out", out], { TMPDIR: tmp, RTBENCH_ENGINE_RUNTIME: "deno" });
    assertEquals(cli.code, 0, cli.stderr);
    const [record] = parseResult(await Deno.readTextFile(out)).records;
    assertEquals(record.status, "completed", JSON.stringify(record.error));
    assertMatch(record.loadGenerator!.client!, /^deno .*could not be had: RTBENCH_ENGINE_RUNTIME=deno/);
    const cost = record.runs[0].figures.clientCpuUsPerResponse;
    const warning = record.warnings.find((w) => w.code === "engine-on-deno");
    assert(warning, JSON.stringify(record.warnings));
    assert(
      warning!.message.includes(`${Math.round(1e6 / cost).toLocaleString("en-US")} responses/s per client CPU`),
      warning!.message,
    );
  });
});

Deno.test("requests that time out are counted as sent: the server's work lies between the answered and the sent", async () => {
  // Every tenth request is answered after the timeout: the engine gives up on it, the server did the work anyway.
  let served = 0;
  await using server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async () => {
    if (++served % 10 === 0) await new Promise((r) => setTimeout(r, 700));
    return new Response("ok", { headers: { "content-type": "text/plain" } });
  });
  const m = await engineGenerator.run(
    {
      baseUrl: `http://127.0.0.1:${server.addr.port}`,
      requests: [{ path: "/", expect: { status: 200, contentType: "text/plain", body: "ok" } }],
    },
    { durationSec: 2, warmupSec: 0.5, connections: 4, pipelining: 1, requestTimeoutSec: 0.3 },
    { cpus: "0" },
  );
  // Let the handlers still sleeping finish: they count what the server did.
  await new Promise((r) => setTimeout(r, 800));
  assert(m.timeouts > 8, `timeouts: ${m.timeouts}`);
  const answered = m.warmupResponses + m.responses + (m.lateResponses ?? 0);
  const sent = m.sentRequests ?? 0;
  assert(sent > 0, "the engine says how many requests it sent");
  assert(answered <= served && served <= sent, `${answered} answered, ${served} served, ${sent} sent`);
  // More went unanswered than one per connection and phase: a fixed in-flight allowance cannot hold.
  assert(served - answered > 4 * 2, `${served - answered} unanswered`);
  // Nothing was sent after the window closed that was not answered or in flight at its end.
  assert(sent - served <= 4, `${sent - served} sent but never reached the server`);
});
