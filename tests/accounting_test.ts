// docs/method.md "Every request accounted for": a server that answers correctly, then misbehaves from mid-run on for
// some requests only (tests/fixtures/servers/fault_server.mjs, node:net, the same file on Node, Deno and Bun), ends
// `invalid`, or `completed` only with a warning that names the fault and figures that include it; honest servers,
// however they frame their bytes, stay `completed` with nothing unaccounted. Each fault in both models, HTTP and
// WebSocket, through the engine.
import { assert, assertEquals, assertMatch } from "@std/assert";
import { run } from "../runners/suite/run.ts";
import { validateResult } from "../runners/schema/mod.ts";
import type { BenchRecord, BenchResult } from "../runners/schema/result.ts";
import type { RunSettings } from "../workloads/types.ts";
import { engineGenerator } from "../runners/drivers/engine.ts";
import { formatTable } from "../runners/report/table.ts";
import {
  CHUNKED_MODES,
  faultyHttp,
  faultyWs,
  HTTP_MODES,
  INTERIM_MODES,
  WS_MODES,
} from "./fixtures/accounting_faults.ts";
import { assertNothingLeft, withTmp } from "./_helpers.ts";
import { condition, needs } from "./_needs.ts";
import { wrkGenerator } from "../runners/drivers/wrk.ts";
import { ohaGenerator } from "../runners/drivers/oha.ts";
import { bombardierGenerator } from "../runners/drivers/bombardier.ts";
import { autocannonGenerator } from "../runners/drivers/autocannon.ts";
import { locustGenerator } from "../runners/drivers/locust.ts";

/**
 * Faults start 1.5 s after the server's first request: after verification and the 0.5 s warm-up, in the window. The
 * open model's rate is one the slowest honest server here (a response in pieces of 1 to 7 bytes) holds.
 */
const SETTINGS: Partial<RunSettings> = { durationSec: 3, warmupSec: 0.5, runs: 1, requestTimeoutSec: 1 };
const OPEN: Partial<RunSettings> = { ...SETTINGS, rate: 1000 };

function faults(
  kind: "http" | "ws",
  variants: readonly string[],
  settings: Partial<RunSettings>,
  runtimes = ["node"],
  every = 20,
): Promise<BenchResult> {
  return withTmp(async (tmp) => {
    const result = await run({
      workloads: [kind === "http" ? faultyHttp(every) : faultyWs(every)],
      runtimes,
      variants: [...variants],
      settings,
      loadGenerator: "rtbench",
      tempDir: tmp,
    });
    assertEquals(validateResult(JSON.parse(JSON.stringify(result))), []);
    await assertNothingLeft(tmp);
    return result;
  });
}

const byVariant = (result: BenchResult) => new Map(result.records.map((r) => [r.variant, r]));
const describe = (r: BenchRecord) =>
  `${r.variant}: ${r.status} ${r.error?.message ?? ""} ${JSON.stringify(r.runs[0]?.accounting)} ${
    r.warnings.map((w) => w.code)
  }`;

/** Invalid, with the reason matching `reason`. */
function assertInvalid(r: BenchRecord, reason: RegExp): void {
  assertEquals([r.status, r.error?.phase], ["invalid", "measure"], describe(r));
  assertMatch(r.error!.message, reason, describe(r));
}

/**
 * Unanswered requests: invalid past 1%, else completed with the `unanswered` warning; either way counted, and in the
 * latency at no less than the 1 s timeout (so the percentile at their share reaches it).
 */
function assertUnanswered(r: BenchRecord): void {
  const a = r.runs[0].accounting!;
  assert(a.unanswered > 0, describe(r));
  if (r.status === "invalid") {
    assertMatch(r.error!.message, /went unanswered|connections hung|connections in use/, describe(r));
  } else {
    assertEquals(r.status, "completed", describe(r));
    assertMatch(r.warnings.find((w) => w.code === "unanswered")?.message ?? "", /went unanswered/);
  }
  const latency = r.runs[0].latencyUs!;
  const reached = a.unansweredPercent >= 1 ? latency.p99 : a.unansweredPercent >= 0.1 ? latency.p99_9 : latency.max;
  assert(reached >= 1_000_000, `${describe(r)}: ${JSON.stringify(latency)}`);
}

/** Completed, nothing unaccounted. */
function assertClean(r: BenchRecord): void {
  assertEquals(r.status, "completed", describe(r));
  const a = r.runs[0].accounting!;
  assertEquals([a.unanswered, a.unasked, a.hungConnections, a.droppedConnections], [0, 0, 0, 0], describe(r));
  assert(!r.warnings.some((w) => ["unanswered", "dropped-connections"].includes(w.code)), describe(r));
  assertEquals(r.runs[0].counts.mismatches, 0);
}

/**
 * No fault passes clean: the record is not `completed`, or it is with a warning that names what went wrong. Every
 * fault mode is held to this on top of its own assertion, so a mode added to the fixture is never left unchecked.
 */
function assertNotClean(r: BenchRecord): void {
  const named = ["unanswered", "dropped-connections", "request-errors"];
  assert(r.status !== "completed" || r.warnings.some((w) => named.includes(w.code)), describe(r));
}

/**
 * A server that stops answering for a while (0.6 s, under the 1 s timeout) and then recovers: nothing unaccounted, and
 * the stall is in the figures (the slowest answer waited through it).
 */
function assertStall(r: BenchRecord): void {
  assertEquals(r.status, "completed", describe(r));
  const a = r.runs[0].accounting!;
  assertEquals([a.unanswered, a.unasked, a.hungConnections, a.droppedConnections], [0, 0, 0, 0], describe(r));
  assert(r.runs[0].latencyUs!.max >= 500_000, `${describe(r)}: ${JSON.stringify(r.runs[0].latencyUs)}`);
}

/** What every HTTP fault must come to, in either model. */
function assertHttpFaults(result: BenchResult): void {
  const r = byVariant(result);
  // An HTTP/1.0 answer whose body runs to the close ends its connection, as RFC 9112 has it: no drop.
  for (const honest of ["honest", "split", "http10"]) assertClean(r.get(honest)!);
  assert(r.get("http10")!.runs[0].accounting!.announcedCloses! > 0, describe(r.get("http10")!));
  for (const [mode, record] of r) if (!["honest", "split", "http10", "stall"].includes(mode)) assertNotClean(record);
  assertStall(r.get("stall")!);
  // Bytes that are not HTTP/1.1 (a status line, a content-length) end the connection, counted as mismatches.
  assertInvalid(r.get("garbled")!, /mismatched .*not an HTTP\/1\.1 response/);
  assertInvalid(r.get("bad-length")!, /mismatched .*bad content-length/);
  assertInvalid(r.get("duplicate")!, /^\d+ answers came with no request in flight/);
  assert(r.get("duplicate")!.runs[0].accounting!.unasked > 0);
  for (const quiet of ["silent", "late", "long-length"]) assertUnanswered(r.get(quiet)!);
  assertInvalid(r.get("drop")!, /^the server closed \d+ connections in use/);
  assertUnanswered(r.get("drop")!);
  assertInvalid(r.get("swap")!, /mismatched .* expected 200, "application\/json", "\{\\"path\\":\\"[ab]\\"\}"/);
  assertInvalid(r.get("short-length")!, /mismatched/);
  assertInvalid(r.get("close-mid-body")!, /truncated response/);
}

Deno.test("HTTP faults from mid-run on, closed model: each invalid, or completed only with a warning naming it", async () => {
  const variants = HTTP_MODES.filter((m) => !CHUNKED_MODES.includes(m));
  const result = await faults("http", variants, SETTINGS);
  assertHttpFaults(result);
});

Deno.test("a few requests unanswered (under 1%): completed with the warning, and the percentiles they reach print as lower bounds", async () => {
  // One request in 1000 unanswered from mid-run on: under 0.1% of the window's, however fast the machine answers.
  // The open model: in the closed model a request that times out is a hung connection, and the record invalid.
  const result = await faults("http", ["silent"], OPEN, ["node"], 1000);
  const [silent] = result.records;
  assertUnanswered(silent);
  assertEquals(silent.status, "completed", describe(silent));
  const table = formatTable(result);
  assertMatch(table, /≥ 1\.\d\d s/, table);
});

Deno.test("HTTP faults from mid-run on, open model (--rate 1000): each invalid, or completed only with a warning naming it", async () => {
  const variants = HTTP_MODES.filter((m) => !CHUNKED_MODES.includes(m));
  const result = await faults("http", variants, OPEN);
  assertHttpFaults(result);
  // The rate achieved counts answered requests only: no surplus answer adds to it.
  const duplicate = byVariant(result).get("duplicate")!;
  assert(duplicate.runs[0].figures.requestsPerSecond <= 1000 * 1.001, JSON.stringify(duplicate.runs[0].figures));
});

// docs/method.md, the engine's "HTTP." item: "interim responses (`103 Early Hints`, `100 Continue`: any 1xx but 101)
// read past to the answer they precede, which is the one counted"; on bytes, _engine_http_test "interim responses …".
Deno.test("a server that sends 103 Early Hints and 100 Continue before its answers is clean in both models, the interim responses no answers", async () => {
  for (const settings of [{ ...SETTINGS, idleConnections: 100 }, OPEN]) {
    const [r] = (await faults("http", INTERIM_MODES, settings)).records;
    assertClean(r);
    // The idle connections' exchanges read past them too (docs/method.md "CPU per request and memory per connection").
    if (settings.idleConnections) {
      assert(!r.warnings.some((w) => w.code === "idle-connections-failed"), describe(r));
      assertEquals(r.runs[0].figures.idleConnections, 100, describe(r));
    }
    // Each request had one answer, the 200 after its interim ones: none judged on an interim status, none unasked.
    const { counts, accounting, figures } = r.runs[0];
    assertEquals([counts.non2xx, counts.mismatches, accounting!.unasked], [0, 0, 0], describe(r));
    assertEquals(figures.validResponses, accounting!.requests, describe(r));
    assert(accounting!.requests > 1000, describe(r));
  }
});

// docs/method.md "Dropped connections": "an answer saying `Connection: close` ends its connection's use …".
Deno.test("a server limiting requests per connection, every 20th answer saying Connection: close, is clean in both models", async () => {
  for (const settings of [SETTINGS, OPEN]) {
    const [r] = (await faults("http", ["close-every"], settings)).records;
    assertClean(r);
    const { counts, accounting } = r.runs[0];
    // Each connection's end announced and taken as such (one answer in 20 per connection, the warm-up's counted on
    // it too; the open model spreads requests unevenly): no error, and opened again at once (the reconnects' time is
    // the connects', not the 10 ms a failed connection waits).
    assert(accounting!.announcedCloses! >= accounting!.requests / 40, describe(r));
    assertEquals(counts.errors, 0, describe(r));
    assert(accounting!.reconnectMs < 10 * accounting!.reconnects, describe(r));
  }
});

/** What every WebSocket fault must come to, in either model. */
function assertWsFaults(result: BenchResult): void {
  const r = byVariant(result);
  for (const honest of ["honest", "ws-split"]) assertClean(r.get(honest)!);
  for (const [mode, record] of r) if (!["honest", "ws-split", "ws-stall"].includes(mode)) assertNotClean(record);
  assertStall(r.get("ws-stall")!);
  // An echo after the timeout is no answer: its socket is closed, the message unanswered.
  assertUnanswered(r.get("ws-late")!);
  assertInvalid(r.get("ws-corrupt")!, /mismatched echoes/);
  assertInvalid(r.get("ws-garbled")!, /reserved bits/);
  // A frame one byte longer than its payload: the echo never completes, or the next one is read into it.
  assertEquals(r.get("ws-long-length")!.status, "invalid", describe(r.get("ws-long-length")!));
  const duplicate = r.get("ws-duplicate")!;
  assertEquals(duplicate.status, "invalid", describe(duplicate));
  assert(duplicate.runs[0].accounting!.unasked > 0, describe(duplicate));
  // A skipped echo: unanswered (one in flight per socket), or the next echo arriving in its place (open model).
  const silent = r.get("ws-silent")!;
  if (silent.status === "invalid" && /mismatched echoes/.test(silent.error!.message)) {
    assertMatch(silent.error!.message, /the echo of message \d+ of socket \d+ came where message \d+/);
  } else assertUnanswered(silent);
  assertInvalid(r.get("ws-drop")!, /^the server closed \d+ connections in use/);
  // The previous message echoed again: an echo of a message already answered answers nothing.
  assertInvalid(r.get("ws-wrong")!, /^\d+ answers came with no message in flight/);
  assert(r.get("ws-wrong")!.runs[0].accounting!.unasked > 0);
}

Deno.test("WebSocket faults from mid-run on, closed model: each invalid, or completed only with a warning naming it", async () => {
  assertWsFaults(await faults("ws", WS_MODES, SETTINGS));
});

Deno.test("WebSocket faults from mid-run on, open model (--rate 1000): each invalid, or completed only with a warning naming it", async () => {
  assertWsFaults(await faults("ws", WS_MODES, OPEN));
});

Deno.test("the fault server runs on Deno, Node and Bun alike: a duplicating server is invalid on each", async () => {
  const result = await faults("http", ["duplicate"], SETTINGS, ["deno", "node", "bun"]);
  assertEquals(result.records.map((r) => r.runtime.name), ["deno", "node", "bun"]);
  for (const r of result.records) assertInvalid(r, /^\d+ answers came with no request in flight/);
});

// docs/method.md "Verification before any load": "content-length (none where the body is chunked)". A chunked server is
// verified and measured like any other, clean in both models.
Deno.test("a server that answers every request chunked passes verification and is clean under load in both models", async () => {
  for (const settings of [SETTINGS, OPEN]) {
    const [r] = (await faults("http", ["chunked"], settings)).records;
    assertClean(r);
    assert(r.verification.checks.some((c) => c.name === "GET / content-length" && c.passed), describe(r));
  }
});

// The chunked faults on the engine alone, in both models, from 0.3 s on: a wrong chunk size, a body without its end.
for (const rate of [undefined, 1000]) {
  Deno.test(`chunked bodies through the engine (${rate ? "open" : "closed"} model): read right however split; a wrong chunk size or a body without its last chunk never passes`, async () => {
    const load = async (mode: string) => {
      const port = freePort();
      const child = new Deno.Command("node", {
        args: [new URL("./fixtures/servers/fault_server.mjs", import.meta.url).pathname, mode, "20", "300"],
        env: { PORT: String(port) },
        stdout: "null",
        stderr: "null",
      }).spawn();
      try {
        await waitForPort(port);
        return await engineGenerator.run(
          {
            baseUrl: `http://127.0.0.1:${port}`,
            requests: faultyHttp().traffic({ variant: mode } as never).requests,
          },
          { durationSec: 1.5, warmupSec: 0.2, connections: 10, pipelining: 1, requestTimeoutSec: 1, rate },
          { cpus: null },
        );
      } finally {
        child.kill();
        await child.status;
      }
    };
    const honest = await load("chunked");
    assertEquals([honest.mismatches, honest.non2xx, honest.errors], [0, 0, 0], honest.firstMismatch ?? "");
    assert(honest.validResponses > 0);
    const a = honest.accounting!;
    assertEquals([a.unanswered, a.unasked, a.droppedConnections, a.hungConnections], [0, 0, 0, 0]);
    // The last chunk's CRLF replaced by other bytes: the framing is wrong, the connection ends, counted a mismatch.
    const bad = await load("chunked-bad");
    assert(bad.mismatches > 0, JSON.stringify(bad.accounting));
    assertMatch(bad.firstMismatch ?? "", /not followed by CRLF/);
    // No last chunk, the connection kept open: never answered (or hung, at the closed model's end).
    const cut = await load("chunked-cut");
    assert(cut.accounting!.unanswered > 0 || cut.accounting!.hungConnections > 0, JSON.stringify(cut.accounting));
    assertEquals(cut.accounting!.unasked, 0);
  });
}

function freePort(): number {
  const l = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (l.addr as Deno.NetAddr).port;
  l.close();
  return port;
}

async function waitForPort(port: number): Promise<void> {
  for (let i = 0; i < 100; i++) {
    try {
      (await Deno.connect({ hostname: "127.0.0.1", port })).close();
      return;
    } catch {
      await new Promise((r) => setTimeout(r, 50));
    }
  }
  throw new Error(`the fault server did not listen on ${port}`);
}

// docs/method.md "Every request accounted for": "wrk, oha, bombardier, autocannon and Locust do not report this".
for (const generator of [wrkGenerator, ohaGenerator, bombardierGenerator, autocannonGenerator]) {
  const here = condition(generator.name, (await generator.available()) ? null : `${generator.name} is not installed`);
  Deno.test(needs(here, {
    name: `${generator.name} cannot account for every request: no fault passes for a verified record under it`,
    async fn() {
      // `swap` sends two requests in turn, which bombardier and oha (one fixed request each) refuse to send.
      const cycles = generator !== bombardierGenerator && generator !== ohaGenerator;
      const variants = ["honest", "duplicate", "silent", "drop", ...(cycles ? ["swap"] : []), "long-length", "garbled"];
      const result = await faultsUnder(generator.name, variants);
      for (const r of result.records) {
        // Whatever it saw, the record says what it could not: no accounting, and a warning that names it.
        assertEquals(r.loadGenerator?.accountsForRequests, false, describe(r));
        assertEquals(r.runs[0]?.accounting, undefined, describe(r));
        assertMatch(r.warnings.find((w) => w.code === "unaccounted")?.message ?? "", /does not account/, describe(r));
      }
      assertEquals(byVariant(result).get("honest")!.status, "completed", describe(byVariant(result).get("honest")!));
    },
  }));
}

/** The HTTP fault fixture under `loadGenerator`, ten connections, faults from 2.5 s on (Locust's workers start slowly). */
function faultsUnder(loadGenerator: string, variants: readonly string[]): Promise<BenchResult> {
  return withTmp(async (tmp) => {
    const result = await run({
      workloads: [faultyHttp(20, 2500)],
      runtimes: ["node"],
      variants: [...variants],
      settings: { durationSec: 4, warmupSec: 0.5, runs: 1, connections: 10, requestTimeoutSec: 1 },
      loadGenerator,
      tempDir: tmp,
    });
    assertEquals(validateResult(JSON.parse(JSON.stringify(result))), []);
    await assertNothingLeft(tmp);
    return result;
  });
}

const LOCUST = condition("Locust", (await locustGenerator.available()) ? null : "python3 is missing");

/** How a record came out: clean, invalid, or completed with a warning naming what went wrong. */
function outcome(r: BenchRecord): string {
  if (r.status !== "completed") return r.status;
  const named = ["unanswered", "dropped-connections", "request-errors"];
  return r.warnings.some((w) => named.includes(w.code)) ? "warned" : "clean";
}

// docs/method.md "Every request accounted for" and docs/scaling-out.md "Locust": "the fault fixture comes out the same
// under Locust as under the engine".
Deno.test(needs(LOCUST, {
  name: "the fault fixture comes out the same under Locust as under the engine: no fault passes clean",
  async fn() {
    const variants = HTTP_MODES.filter((m) => !CHUNKED_MODES.includes(m));
    const engine = byVariant(await faultsUnder("rtbench", variants));
    const locust = byVariant(await faultsUnder("locust", variants));
    const both = (mode: string) => `${describe(engine.get(mode)!)} | ${describe(locust.get(mode)!)}`;
    const of = (mode: string) => [outcome(engine.get(mode)!), outcome(locust.get(mode)!)];
    for (const r of locust.values()) assert(r.warnings.some((w) => w.code === "unaccounted"), describe(r));
    // Honest servers (one answering some requests in HTTP/1.0 with a body that runs to the close, which ends the
    // connection as RFC 9112 has it), and one that stalls and recovers, are clean under both.
    for (const mode of ["honest", "split", "http10", "stall"]) {
      assertEquals(of(mode), ["clean", "clean"], both(mode));
    }
    // A wrong answer (a surplus one read into the next, another request's body, a cut or garbled one) is invalid.
    for (const mode of ["duplicate", "swap", "short-length", "close-mid-body", "garbled", "bad-length"]) {
      assertEquals(of(mode), ["invalid", "invalid"], both(mode));
    }
    // Requests left unanswered or dropped: invalid past 1%, or completed with a warning naming them, under both (the
    // share differs with the generator's own rate: a hung request holds one of Locust's slow users a whole timeout).
    for (const mode of ["silent", "late", "drop"]) {
      for (const o of of(mode)) assert(o === "invalid" || o === "warned", `${o}: ${both(mode)}`);
    }
    // What Locust cannot see: a body one byte short of its length is not always reported. The engine's record is not
    // clean; Locust's carries the `unaccounted` warning whatever else it says.
    assert(outcome(engine.get("long-length")!) !== "clean", both("long-length"));
  },
}));
