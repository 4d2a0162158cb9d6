// docs/method.md "Every request accounted for": every mode of the fault server (tests/fixtures/servers/fault_modes.mjs,
// the very code fault_server.mjs runs on node:net) through the engine in process, on its fake network and fake clock,
// closed and open model, HTTP and WebSocket, judged as a record is: every fault comes out invalid, or completed only
// with a warning that names it, and every honest way of answering comes out clean. Seconds of load take milliseconds
// here; tests/e2e/accounting_test.ts shows each fault class once against the real server.
import { assert, assertEquals, assertMatch } from "@std/assert";
import { FakeClock } from "../../runners/engine/_fake_clock.ts";
import { FakeNet, type FakeSocket } from "../../runners/engine/_fake_net.ts";
import { driveHttp } from "../../runners/engine/_http_load.ts";
import { driveWebSocket } from "../../runners/engine/_ws_load.ts";
import {
  engineJobs,
  engineWsJobs,
  type LoadMeasurement,
  type LoadSettings,
  mergeEngineCounts,
  mergeWebSocket,
  type WebSocketLoadJob,
  type WebSocketMeasurement,
} from "../../runners/drivers/mod.ts";
import { judgeEchoRun, judgeHttpRun } from "../../runners/kinds/verdict.ts";
import type { AccountingVerdict } from "../../runners/kinds/accounting.ts";
import type { RunAccounting } from "../../runners/schema/mod.ts";
import { faultyHttp, HTTP_MODES, INTERIM_MODES, WS_MODES } from "../fixtures/accounting_faults.ts";
import { faultServer } from "../fixtures/servers/fault_modes.mjs";

/** Faults from 0.6 s after the first request on: after the 0.3 s warm-up, in the 1.5 s window. */
const AFTER_MS = 600;
const CLOSED: LoadSettings = {
  durationSec: 1.5,
  warmupSec: 0.3,
  connections: 3,
  pipelining: 1,
  requestTimeoutSec: 1,
};
const OPEN: LoadSettings = { ...CLOSED, rate: 1000 };
const MODELS = [["closed", CLOSED], ["open", OPEN]] as const;

/** How a run came out, judged as its record is. */
interface Outcome {
  readonly mode: string;
  readonly status: "completed" | "invalid" | "errored";
  readonly invalid: string;
  readonly warnings: readonly string[];
  readonly accounting: RunAccounting;
  readonly latency: { readonly p99: number; readonly p99_9: number; readonly max: number };
  readonly mismatches: number;
  readonly firstMismatch: string;
}

/** The fault server's side of one fake connection, as a node:net socket offers it. */
function serverSide(s: FakeSocket) {
  let ended = false;
  const send = (bytes: string | Uint8Array) => s.send(typeof bytes === "string" ? bytes : new Uint8Array(bytes));
  return {
    write: send,
    end(bytes?: string | Uint8Array) {
      if (bytes !== undefined) send(bytes);
      ended = true;
      s.hangUp();
    },
    destroy: () => s.hangUp(),
    get destroyed() {
      return s.closed;
    },
    get writableEnded() {
      return ended || s.closed;
    },
  };
}

/**
 * Runs `load` against the fault server in `mode` on a fake network, one fake millisecond at a time: the server reads
 * what the engine wrote before each step, and its timers run on the same clock as the engine's.
 */
async function serve<T>(
  mode: string,
  every: number,
  load: (clock: FakeClock, net: FakeNet) => Promise<T>,
): Promise<T> {
  const clock = new FakeClock();
  const net = new FakeNet();
  const connection = faultServer({ mode, every, afterMs: AFTER_MS, clock });
  const handlers = new Map<FakeSocket, { read: number; data: (chunk: Uint8Array) => void }>();
  let finished = false;
  const counts = load(clock, net).finally(() => finished = true);
  for (let t = 0; t < 60_000 && !finished; t++) {
    clock.advance(1);
    // The connections open at this step: one opened while answering waits for the next, as a real one would.
    for (const s of [...net.sockets]) {
      if (s.closed) continue;
      let h = handlers.get(s);
      if (!h) handlers.set(s, h = { read: 0, data: connection(serverSide(s)) });
      const until = s.writtenBytes.length;
      for (; h.read < until && !s.closed; h.read++) h.data(s.writtenBytes[h.read]);
    }
    for (let i = 0; i < 5; i++) await Promise.resolve();
  }
  return await counts;
}

function judged(mode: string, verdict: () => AccountingVerdict, m: LoadMeasurement | WebSocketMeasurement): Outcome {
  let status: Outcome["status"] = "completed", invalid = "", warnings: string[] = [];
  try {
    const v = verdict();
    warnings = v.warnings.map((w) => w.code);
    if (v.invalid !== null) [status, invalid] = ["invalid", v.invalid];
  } catch (error) {
    [status, invalid] = ["errored", (error as Error).message];
  }
  const firstMismatch = "firstMismatch" in m ? m.firstMismatch : m.firstFailure;
  return {
    mode,
    status,
    invalid,
    warnings,
    accounting: m.accounting!,
    latency: m.latencyUs ?? { p99: 0, p99_9: 0, max: 0 },
    mismatches: m.mismatches,
    firstMismatch: firstMismatch ?? "",
  };
}

/** The HTTP fault workload's traffic in `mode`, loaded by the engine in process. */
async function http(mode: string, settings: LoadSettings, every = 20): Promise<Outcome> {
  const target = {
    baseUrl: "http://127.0.0.1:1",
    requests: faultyHttp().traffic({ variant: mode } as never).requests,
  };
  const { jobs: [job], labels } = engineJobs(target, settings, 1);
  const counts = await serve(mode, every, (clock, net) => driveHttp(job, clock, net.connect));
  const m = mergeEngineCounts([counts], labels, job);
  return judged(mode, () => judgeHttpRun(m, [m], 0, "rtbench"), m);
}

/** The WebSocket echo in `mode`, loaded by the engine in process. */
async function ws(mode: string, settings: LoadSettings): Promise<Outcome> {
  const job: WebSocketLoadJob = {
    url: "ws://127.0.0.1:1/",
    client: "engine",
    connections: settings.connections,
    inFlight: 1,
    messageSize: 64,
    durationSec: settings.durationSec,
    warmupSec: settings.warmupSec,
    messages: null,
    timeoutSec: settings.requestTimeoutSec,
    ...(settings.rate ? { rate: settings.rate } : {}),
  };
  // RFC 6455's own example key and the accept the fault server computes from it.
  const handshake = { key: "dGhlIHNhbXBsZSBub25jZQ==", accept: "s3pPLMBiTxaQ9kYGzzhZRbK+xOo=" };
  const [part] = engineWsJobs(job, handshake, 1);
  const counts = await serve(mode, 20, (clock, net) => driveWebSocket(part, clock, net.connect));
  const m = mergeWebSocket(job, [counts], part.hungAfterMs);
  return judged(mode, () => judgeEchoRun(m, 0), m);
}

const describe = (o: Outcome) =>
  `${o.mode}: ${o.status} ${o.invalid} ${JSON.stringify(o.accounting)} [${o.warnings}] ${o.firstMismatch}`;

/** Completed, nothing unaccounted, no warning naming a fault. */
function assertClean(o: Outcome): void {
  assertEquals(o.status, "completed", describe(o));
  const a = o.accounting;
  assertEquals([a.unanswered, a.unasked, a.hungConnections, a.droppedConnections], [0, 0, 0, 0], describe(o));
  assert(!o.warnings.some((w) => ["unanswered", "dropped-connections"].includes(w)), describe(o));
  assertEquals(o.mismatches, 0, describe(o));
}

/** No fault passes clean: not completed, or completed with a warning that names what went wrong. */
function assertNotClean(o: Outcome): void {
  assert(
    o.status === "invalid" || o.warnings.some((w) => ["unanswered", "dropped-connections"].includes(w)),
    describe(o),
  );
}

function assertInvalid(o: Outcome, reason: RegExp): void {
  assertEquals(o.status, "invalid", describe(o));
  assertMatch(o.invalid, reason, describe(o));
}

/**
 * Unanswered requests: invalid past 1%, else completed with the `unanswered` warning; either way counted, and in the
 * latency at no less than the 1 s timeout (so the percentile at their share reaches it).
 */
function assertUnanswered(o: Outcome): void {
  const a = o.accounting;
  assert(a.unanswered > 0, describe(o));
  if (o.status === "invalid") {
    assertMatch(o.invalid, /went unanswered|connections hung|connections in use/, describe(o));
  } else assert(o.status === "completed" && o.warnings.includes("unanswered"), describe(o));
  const reached = a.unansweredPercent >= 1
    ? o.latency.p99
    : a.unansweredPercent >= 0.1
    ? o.latency.p99_9
    : o.latency.max;
  assert(reached >= 1_000_000, `${describe(o)}: ${JSON.stringify(o.latency)}`);
}

/** A server that stops answering for 0.6 s, under the 1 s timeout, then recovers: clean, the stall in the figures. */
function assertStall(o: Outcome): void {
  assertClean(o);
  assert(o.latency.max >= 500_000, describe(o));
}

const HONEST_HTTP = ["honest", "split", "chunked", "http10", "close-every", ...INTERIM_MODES];

for (const [model, settings] of MODELS) {
  Deno.test(`every HTTP fault mode, ${model} model, on the fake network: invalid, or completed only with a warning naming it; honest framings clean`, async () => {
    const o = new Map<string, Outcome>();
    for (const mode of [...HTTP_MODES, "close-every", ...INTERIM_MODES]) o.set(mode, await http(mode, settings));
    for (const mode of HONEST_HTTP) assertClean(o.get(mode)!);
    // An HTTP/1.0 answer whose body runs to the close ends its connection, as RFC 9112 has it: no drop.
    assert(o.get("http10")!.accounting.announcedCloses! > 0, describe(o.get("http10")!));
    assert(o.get("close-every")!.accounting.announcedCloses! > 0, describe(o.get("close-every")!));
    for (const [mode, outcome] of o) if (![...HONEST_HTTP, "stall"].includes(mode)) assertNotClean(outcome);
    assertStall(o.get("stall")!);
    // Bytes that are not HTTP/1.1 (a status line, a content-length) end the connection, counted as mismatches.
    assertInvalid(o.get("garbled")!, /mismatched .*not an HTTP\/1\.1 response/);
    assertInvalid(o.get("bad-length")!, /mismatched .*bad content-length/);
    assertInvalid(o.get("duplicate")!, /^\d+ answers came with no request in flight/);
    assert(o.get("duplicate")!.accounting.unasked > 0);
    for (const quiet of ["silent", "late", "long-length"]) assertUnanswered(o.get(quiet)!);
    assertInvalid(o.get("drop")!, /^the server closed \d+ connections in use/);
    assertUnanswered(o.get("drop")!);
    assertInvalid(o.get("swap")!, /mismatched .* expected 200, "application\/json", "\{\\"path\\":\\"[ab]\\"\}"/);
    assertInvalid(o.get("short-length")!, /mismatched/);
    assertInvalid(o.get("close-mid-body")!, /truncated response/);
    // A chunk whose data is not ended by CRLF: the framing is wrong, the connection ends, counted a mismatch.
    assertInvalid(o.get("chunked-bad")!, /mismatched .*not followed by CRLF/);
    // A chunked body without its last chunk, the connection kept open: never answered, or hung at the window's end.
    const cut = o.get("chunked-cut")!;
    assert(cut.accounting.unanswered > 0 || cut.accounting.hungConnections > 0, describe(cut));
    assertEquals(cut.accounting.unasked, 0);
  });
}

Deno.test("one request in 1000 never answered, open model: completed with the unanswered warning, not invalid", async () => {
  const silent = await http("silent", OPEN, 1000);
  assertUnanswered(silent);
  assertEquals(silent.status, "completed", describe(silent));
});

const HONEST_WS = ["honest", "ws-split"];

for (const [model, settings] of MODELS) {
  Deno.test(`every WebSocket fault mode, ${model} model, on the fake network: invalid, or completed only with a warning naming it`, async () => {
    const o = new Map<string, Outcome>();
    for (const mode of WS_MODES) o.set(mode, await ws(mode, settings));
    for (const mode of HONEST_WS) assertClean(o.get(mode)!);
    for (const [mode, outcome] of o) if (![...HONEST_WS, "ws-stall"].includes(mode)) assertNotClean(outcome);
    assertStall(o.get("ws-stall")!);
    // An echo after the timeout is no answer: its message is unanswered (passed over by the echoes after it, or its
    // socket closed), and the late echo, where it still comes, answers nothing (unasked).
    const late = o.get("ws-late")!;
    assert(late.accounting.unanswered > 0, describe(late));
    if (late.accounting.unasked > 0) assertInvalid(late, /^\d+ answers came with no message in flight/);
    else assertUnanswered(late);
    assertInvalid(o.get("ws-corrupt")!, /mismatched echoes/);
    assertInvalid(o.get("ws-garbled")!, /reserved bits/);
    // A frame one byte longer than its payload: the echo never completes, or the next one is read into it.
    assertEquals(o.get("ws-long-length")!.status, "invalid", describe(o.get("ws-long-length")!));
    const duplicate = o.get("ws-duplicate")!;
    assertEquals(duplicate.status, "invalid", describe(duplicate));
    assert(duplicate.accounting.unasked > 0, describe(duplicate));
    // A skipped echo: unanswered (one in flight per socket), or the next echo arriving in its place (open model).
    const silent = o.get("ws-silent")!;
    if (silent.status === "invalid" && /mismatched echoes/.test(silent.invalid)) {
      assertMatch(silent.invalid, /the echo of message \d+ of socket \d+ came where message \d+/);
    } else assertUnanswered(silent);
    assertInvalid(o.get("ws-drop")!, /^the server closed \d+ connections in use/);
    // The previous message echoed again: an echo of a message already answered answers nothing.
    assertInvalid(o.get("ws-wrong")!, /^\d+ answers came with no message in flight/);
    assert(o.get("ws-wrong")!.accounting.unasked > 0);
  });
}

// docs/method.md "Connections that close: --keep-alive off": a server's close after its answer is the expected end, a
// close before it a dropped connection; one request per connection, so an answer written twice answers nothing.
for (const [model, settings] of MODELS) {
  Deno.test(`keep-alive off, ${model} model, on the fake network: a close after the answer is fine, a close before it a drop, a surplus unasked`, async () => {
    const off = { ...settings, keepAlive: false };
    const o = new Map<string, Outcome>();
    for (const mode of ["honest", "close-after", "http10", "drop", "duplicate", "silent"]) {
      o.set(mode, await http(mode, off));
    }
    for (const mode of ["honest", "close-after", "http10"]) assertClean(o.get(mode)!);
    assertInvalid(o.get("drop")!, /^the server closed \d+ connections in use/);
    assertUnanswered(o.get("drop")!);
    assertInvalid(o.get("duplicate")!, /^\d+ answers came with no request in flight/);
    // A request never answered on its connection times out, unanswered; the connection is no drop.
    const silent = o.get("silent")!;
    assert(silent.accounting.unanswered > 0 && silent.accounting.droppedConnections === 0, describe(silent));
  });
}
