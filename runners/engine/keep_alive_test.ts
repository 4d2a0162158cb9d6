// Keep-alive off (docs/method.md "Connections that close"), on the HTTP load in process with a fake clock, network and
// server: 2 connections, 1 s warm-up, 2 s window (1000 … 3000 ms), the server answering at every 10 ms step what was
// written before it. Each request goes out on a new connection, which the client closes once the answer is complete.
import { assert, assertEquals } from "@std/assert";
import { bucketValue } from "./_histogram.ts";
import { drive, JOB, OK } from "./_fake_server.ts";
import { FakeClock } from "./_fake_clock.ts";
import { FakeNet, type FakeSocket } from "./_fake_net.ts";
import { FakeServer } from "./_fake_server.ts";
import { driveHttp, type EngineJob } from "./_http_load.ts";

const OFF: EngineJob = { ...JOB, keepAlive: false };
const total = (h: [number, number][] | undefined) => (h ?? []).reduce((a, [, n]) => a + n, 0);
const values = (h: [number, number][] | undefined) => (h ?? []).map(([i]) => bucketValue(i));

Deno.test("keep-alive off: one request per connection, each closed by the client after its answer", async () => {
  const { counts, net } = await drive(OFF);
  // Every connection carried exactly one request, and the client closed every one it finished with.
  assert(net.sockets.every((s) => s.written.length === 1), "a connection carried more than one request");
  // The fake server never closes (it ignores Connection: close): every close is the client's, and nothing stays open.
  assert(net.sockets.every((s) => s.closedByClient));
  assertEquals(counts.accounting.hungConnections, 0);
  // As with keep-alive at this server's pace: each of 2 connections answered at 1000, 1010, … 3000 ms (201 each).
  assertEquals(counts.validResponses, 402);
  // One new connection per request: 1 s of warm-up and the window's, about 600 in all.
  assert(net.sockets.length >= 600, String(net.sockets.length));
  assertEquals([counts.errors, counts.accounting.droppedConnections, counts.accounting.unanswered], [0, 0, 0]);
  assertEquals([counts.accounting.reconnects, counts.accounting.idleCloses], [0, 0]);
  // Each request of the window timed its connect (the fake accepts at once: 0 µs) and its whole time (10 ms).
  assertEquals(total(counts.connectHistogram), total(counts.totalHistogram));
  assert(total(counts.connectHistogram) >= 400, String(total(counts.connectHistogram)));
  assertEquals(new Set(values(counts.connectHistogram)), new Set([0]));
  assertEquals(new Set(values(counts.totalHistogram)), new Set([10_000]));
});

Deno.test("keep-alive off: the connect is timed apart; the response's latency starts when the request is written", async () => {
  const clock = new FakeClock();
  const net = new FakeNet(false);
  const server = new FakeServer(net);
  let finished = false;
  const done = driveHttp(OFF, clock, net.connect).finally(() => finished = true);
  const seen = new Map<FakeSocket, number>();
  for (let t = 10; t < 60_000 && !finished; t += 10) {
    clock.advance(10);
    // Each connection is accepted 20 ms after the step that first saw it; its request is answered at the next step.
    server.answer();
    for (const s of net.sockets) {
      if (!seen.has(s)) seen.set(s, t);
      else if (t - seen.get(s)! === 20) s.accept();
    }
    for (let i = 0; i < 5; i++) await Promise.resolve();
  }
  const counts = await done;
  assert(counts.validResponses > 0);
  // Each request's connection is opened during the answer of the one before (step t, seen at t), accepted at t + 20
  // and written then: 20 ms of connect. The server answers it at the next step: 10 ms of response. Total: 30 ms.
  assertEquals(new Set(values(counts.connectHistogram)), new Set([20_000]));
  assertEquals(new Set(values(counts.histogram)), new Set([10_000]));
  assertEquals(new Set(values(counts.totalHistogram)), new Set([30_000]));
});

Deno.test("keep-alive off: a server's close after a body that runs to the close is the expected end, not a drop", async () => {
  const BODY_TO_CLOSE = OK.replace(/content-length: \d+\r\n/, "connection: close\r\n");
  const { counts } = await drive(OFF, (_t, server, net) => {
    const before = new Set(net.open);
    server.answer(() => BODY_TO_CLOSE);
    // Its body has no length: it ends when the server closes the connection, as it does right after.
    for (const s of before) if (s.written.length === 1) s.hangUp();
  });
  assert(counts.validResponses > 300, String(counts.validResponses));
  assertEquals([counts.mismatches, counts.accounting.droppedConnections, counts.errors], [0, 0, 0]);
});

Deno.test("keep-alive off: a server's close before the answer is a dropped connection, its request unanswered", async () => {
  let dropped = 0;
  const { counts } = await drive(OFF, (t, server, net) => {
    // At 1500 and 2000 ms the server closes connection slot 0's current connection without answering it.
    if ((t === 1500 || t === 2000) && net.open.length > 0) {
      net.open[0].hangUp();
      dropped++;
    }
    server.answer();
  });
  assertEquals(dropped, 2);
  assertEquals([counts.accounting.droppedConnections, counts.accounting.unanswered, counts.errors], [2, 2, 2]);
  // The slot is free again 10 ms later (a reconnect, as with keep-alive).
  assertEquals([counts.accounting.reconnects, counts.accounting.reconnectMs], [2, 20]);
  // The unanswered requests are in the histogram at no less than the timeout (10 s).
  assert(Math.max(...values(counts.histogram)) >= 9_990_000);
});

Deno.test("keep-alive off: bytes after the answer on a connection that carried one request are unasked", async () => {
  const { counts } = await drive(OFF, (t, server) => {
    // Once, at 1500 ms, the server answers one request twice, back to back.
    server.answer((n) => t === 1500 && n % 2 === 0 ? OK + OK : OK);
  });
  assert(counts.accounting.unasked >= 1, JSON.stringify(counts.accounting));
  assertEquals(counts.mismatches, 0);
});

Deno.test("keep-alive off: a connect that never completes times out; its request is unanswered", async () => {
  const clock = new FakeClock();
  const net = new FakeNet(false);
  const server = new FakeServer(net);
  let finished = false;
  const job: EngineJob = { ...OFF, timeoutSec: 0.5, hungAfterMs: 500 };
  const done = driveHttp(job, clock, net.connect).finally(() => finished = true);
  const accepted = new Set<FakeSocket>();
  let ignored: FakeSocket | null = null;
  for (let t = 10; t < 60_000 && !finished; t += 10) {
    clock.advance(10);
    server.answer();
    // Every connection is accepted at the step that sees it, but for the first one seen at 1500 ms: never accepted.
    for (const s of net.sockets) {
      if (accepted.has(s) || s === ignored) continue;
      if (t === 1500 && ignored === null) {
        ignored = s;
        continue;
      }
      accepted.add(s);
      s.accept();
    }
    for (let i = 0; i < 5; i++) await Promise.resolve();
  }
  const counts = await done;
  assertEquals([counts.timeouts, counts.accounting.unanswered], [1, 1]);
  assertEquals(counts.accounting.droppedConnections, 0);
});
