// docs/method.md "Every request accounted for" (never-answered connections): a server that leaves k of its n
// connections unserved — their requests written and unread, as in a kernel's accept queue — gets the same verdict
// whether or not one of them is answered late in the window (an answer that raises the hung bound), in the closed and
// the open model, HTTP and WebSocket: the whole chain from the engine on its fake network to the verdict, as
// accounting_matrix_test runs it. After the window the server takes the others in one every 30 ms, as Node.js 20 takes
// in one connection per turn of its loop, or never.
import { assertEquals, assertMatch } from "@std/assert";
import { FakeClock } from "../../runners/engine/_fake_clock.ts";
import { FakeNet, type FakeSocket } from "../../runners/engine/_fake_net.ts";
import { driveHttp } from "../../runners/engine/_http_load.ts";
import { driveWebSocket } from "../../runners/engine/_ws_load.ts";
import {
  engineJobs,
  engineWsJobs,
  type LoadSettings,
  mergeEngineCounts,
  mergeWebSocket,
} from "../../runners/drivers/mod.ts";
import { judgeEchoRun, judgeHttpRun } from "../../runners/kinds/verdict.ts";
import type { AccountingVerdict } from "../../runners/kinds/accounting.ts";
import type { RunAccounting } from "../../runners/schema/mod.ts";
import { faultServer } from "../fixtures/servers/fault_modes.mjs";

/** 0.3 s of warm-up, then the window until 1800 ms; a 10 s timeout, so that what comes after the window matters. */
const WINDOW_END_MS = 1800;
const CLOSED: LoadSettings = { durationSec: 1.5, warmupSec: 0.3, connections: 0, pipelining: 1, requestTimeoutSec: 10 };
/** Fast enough that every connection carries a request before the window opens. */
const OPEN: LoadSettings = { ...CLOSED, rate: 2000 };
/** How often the server takes in one more waiting connection after the window. */
const CATCH_UP_MS = 30;
/** The server reads what was written every 10 fake milliseconds: answers take 10 ms. */
const STEP_MS = 10;

/** n connections, k of them left waiting, one of those answered late in the window or not, taken in after it or not. */
type Case = [n: number, k: number, lucky: boolean, catchUp: boolean];

/** How a run came out: its status and reason or warnings, with the counts. */
interface Outcome {
  readonly verdict: string;
  readonly accounting: RunAccounting;
}

/**
 * Serves `load` on a fake network 10 fake milliseconds at a time with the honest fault server, which reads the first
 * `n − k` connections at once and the others (and any opened later) only from when it takes them in: one of them 50 ms
 * before the window's end when `lucky`, then, when `catchUp`, one every 30 ms after it. A WebSocket's handshake is
 * always read.
 */
async function serve<T>(
  [n, k, lucky, catchUp]: Case,
  ws: boolean,
  load: (clock: FakeClock, net: FakeNet) => Promise<T>,
): Promise<T> {
  const clock = new FakeClock();
  const net = new FakeNet();
  const connection = faultServer({ mode: "honest", every: 1, afterMs: Infinity, clock });
  const handlers = new Map<FakeSocket, { read: number; data: (chunk: Uint8Array) => void }>();
  let finished = false;
  const counts = load(clock, net).finally(() => finished = true);
  let takenIn = n - k;
  for (let t = STEP_MS; t < 60_000 && !finished; t += STEP_MS) {
    clock.advance(STEP_MS);
    if (lucky && t === WINDOW_END_MS - 50) takenIn++;
    if (catchUp && t > WINDOW_END_MS && (t - WINDOW_END_MS) % CATCH_UP_MS === 0) takenIn++;
    for (const [i, s] of net.sockets.entries()) {
      if (s.closed) continue;
      let h = handlers.get(s);
      if (!h) handlers.set(s, h = { read: 0, data: connection(serverSide(s)) });
      const until = i < takenIn ? s.writtenBytes.length : Math.min(ws ? 1 : 0, s.writtenBytes.length);
      for (; h.read < until && !s.closed; h.read++) h.data(s.writtenBytes[h.read]);
    }
    for (let i = 0; i < 5; i++) await Promise.resolve();
  }
  return await counts;
}

/** The fault server's side of one fake connection, as a node:net socket offers it. */
function serverSide(s: FakeSocket) {
  const send = (bytes: string | Uint8Array) => s.send(typeof bytes === "string" ? bytes : new Uint8Array(bytes));
  return {
    write: send,
    end(bytes?: string | Uint8Array) {
      if (bytes !== undefined) send(bytes);
      s.hangUp();
    },
    destroy: () => s.hangUp(),
    get destroyed() {
      return s.closed;
    },
    get writableEnded() {
      return s.closed;
    },
  };
}

function outcome(verdict: AccountingVerdict, accounting: RunAccounting): Outcome {
  const said = verdict.invalid === null
    ? `completed [${verdict.warnings.map((w) => w.code)}]`
    // The counts in the reason aside.
    : `invalid: ${verdict.invalid.replace(/\d+/g, "N")}`;
  return { verdict: said, accounting };
}

async function http(c: Case, settings: LoadSettings): Promise<Outcome> {
  const target = {
    baseUrl: "http://127.0.0.1:1",
    requests: [{
      path: "/",
      expect: { status: 200, contentType: "application/json", body: '{"message":"Hello, World!"}' },
    }],
  };
  const { jobs: [job], labels } = engineJobs(target, { ...settings, connections: c[0] }, 1);
  const counts = await serve(c, false, (clock, net) => driveHttp(job, clock, net.connect));
  const m = mergeEngineCounts([counts], labels, job);
  return outcome(judgeHttpRun(m, [m], 0, "rtbench"), m.accounting!);
}

async function ws(c: Case): Promise<Outcome> {
  const job = {
    url: "ws://127.0.0.1:1/",
    client: "engine" as const,
    connections: c[0],
    inFlight: 1,
    messageSize: 64,
    durationSec: CLOSED.durationSec,
    warmupSec: CLOSED.warmupSec,
    messages: null,
    timeoutSec: CLOSED.requestTimeoutSec,
  };
  // RFC 6455's own example key and the accept the fault server computes from it.
  const handshake = { key: "dGhlIHNhbXBsZSBub25jZQ==", accept: "s3pPLMBiTxaQ9kYGzzhZRbK+xOo=" };
  const [part] = engineWsJobs(job, handshake, 1);
  const counts = await serve(c, true, (clock, net) => driveWebSocket(part, clock, net.connect));
  const m = mergeWebSocket(job, [counts], part.hungAfterMs);
  return outcome(judgeEchoRun(m, 0), m.accounting!);
}

/** The runs of one case without the late answer and with it: the same verdict, the same connections never answered. */
async function assertSameVerdict(
  run: (lucky: boolean) => Promise<Outcome>,
  expected: RegExp,
): Promise<[Outcome, Outcome]> {
  const [without, withLate] = [await run(false), await run(true)];
  const context = JSON.stringify({ without, withLate });
  assertEquals(without.verdict, withLate.verdict, context);
  assertMatch(without.verdict, expected, context);
  assertEquals(withLate.accounting.neverAnsweredConnections, without.accounting.neverAnsweredConnections, context);
  return [without, withLate];
}

const OVER = /^invalid: N of N connections \(N\.N%\) had no first answer within the larger of the planned hung bound/;

Deno.test("100 of 150 connections left waiting, closed model: invalid with or without one late answer", async () => {
  const [without, withLate] = await assertSameVerdict((lucky) => http([150, 100, lucky, true], CLOSED), OVER);
  // Every one of them: a first answer 1.45 s or more after the window opened (at 300 ms) is later than the planned bound
  // (1 s; the median answer is 10 ms), the late one too. Nor is any hung: the late answer's bound (twice its 1.75 s)
  // lets the server catch up on them after the window, the planned one would not; either way they are never answered.
  assertEquals([without.accounting.neverAnsweredConnections, without.accounting.connections], [100, 150]);
  assertEquals([without.accounting.hungConnections, withLate.accounting.hungConnections], [0, 0]);
});

Deno.test("100 of 150 connections left waiting, open model: invalid with or without one late answer", async () => {
  await assertSameVerdict((lucky) => http([150, 100, lucky, true], OPEN), OVER);
});

Deno.test("100 of 150 WebSockets left waiting: invalid with or without one late echo", async () => {
  await assertSameVerdict((lucky) => ws([150, 100, lucky, true]), OVER);
});

Deno.test("2 of 200 connections never served (1%): completed with the never-answered warning either way", async () => {
  // Never taken in: each connection's request is unanswered too.
  await assertSameVerdict((lucky) => http([200, 2, lucky, false], CLOSED), /^completed \[never-answered,unanswered\]$/);
});
