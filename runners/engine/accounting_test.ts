// Every request accounted for (docs/method.md "Every request accounted for"), each rule on the HTTP load in process
// with a fake clock, a fake network and a fake server. The load: 2 connections, 1 in flight each, 1 s warm-up, 2 s
// window (1000 … 3000 ms), the server answering at every 10 ms step what was written before it.
import { assert, assertEquals } from "@std/assert";
import { bucketValue } from "./_histogram.ts";
import { BODY, drive, JOB, OK } from "./_fake_server.ts";
import { FakeNet, type FakeSocket } from "./_fake_net.ts";
import type { EngineJob } from "./_http_load.ts";

const total = (h: [number, number][]) => h.reduce((a, [, n]) => a + n, 0);
const maxUs = (h: [number, number][]) => Math.max(...h.map(([i]) => bucketValue(i)));

Deno.test("an answer that comes with no request in flight is unasked: counted apart, its connection reopened", async () => {
  let doubled = false;
  const { counts } = await drive(JOB, (t, server, net) =>
    server.answer((_n, socket) => {
      // Once, from 1500 ms on, the server writes one response twice, back to back (one read).
      if (t < 1500 || doubled || socket !== net.sockets[0]) return OK;
      doubled = true;
      return OK + OK;
    }));
  assertEquals(counts.accounting.unasked, 1);
  // Its pairing cannot be trusted any more: the connection is closed by the engine and opened again.
  assertEquals([counts.accounting.reconnects, counts.accounting.droppedConnections], [1, 0]);
  assertEquals([counts.mismatches, counts.accounting.unanswered], [0, 0]);
});

Deno.test("a surplus answer in a read of its own is found when the requests stop: the connection stays one ahead", async () => {
  let extra = false;
  const { counts } = await drive(JOB, (t, server, net) => {
    // At 1510 ms the server sends one response nobody asked for, before answering what is waiting.
    if (t === 1510 && !extra) {
      extra = true;
      net.sockets[0].send(OK);
    }
    server.answer();
  });
  // Paired with the next request, the surplus leaves the connection one answer ahead; when nothing more is sent, the
  // last answer has no request to pair with.
  assert(counts.accounting.unasked >= 1, JSON.stringify(counts.accounting));
});

Deno.test("a connection whose request is never answered is hung at the end, its request unanswered at ≥ the timeout", async () => {
  const { counts } = await drive(JOB, (t, server, net) => {
    // From 2000 ms on the server no longer answers connection 0 (its request sent at 1990 ms stays out).
    server.answer((_n, socket) => t >= 2000 && socket === net.sockets[0] ? null : OK);
  });
  assertEquals(counts.accounting.hungConnections, 1);
  // Connection 0 was answered until 2000 ms: served, then stuck, not one the server never served.
  assertEquals(counts.accounting.hungNeverAnswered, undefined);
  assertEquals(counts.accounting.unanswered, 1);
  // In flight when the window closed: connection 0's, and connection 1's sent at 3000 ms (answered at 3010).
  assertEquals(counts.accounting.outstandingAtEnd, 2);
  // Connection 1: 201 answers (1000 … 3000 ms); connection 0: 100 (1000 … 1990 ms).
  assertEquals(counts.validResponses, 301);
  // The unanswered request is in the histogram at the timeout (10 s), beside the 301 valid answers.
  assertEquals(total(counts.histogram), 302);
  assert(maxUs(counts.histogram) >= 9_990_000, String(maxUs(counts.histogram)));
});

// A closed-model request that times out has been out longer than the hung bound (never more than the timeout): its
// connection hung, wherever in the window it happened, not only at the window's end.
Deno.test("a request that times out in the window is unanswered, its connection hung, closed and opened again", async () => {
  const job: EngineJob = { ...JOB, timeoutSec: 0.5, hungAfterMs: 500 };
  let swallowed = false;
  const { counts } = await drive(job, (t, server, net) =>
    server.answer((_n, socket) => {
      // The request connection 0 sent at 1490 ms is never answered; the engine's watchdog (every 100 ms) finds it
      // 510 ms old at 2000 ms and closes the connection, which opens again 10 ms later.
      if (t === 1490 && socket === net.sockets[0] && !swallowed) {
        swallowed = true;
        return null;
      }
      return OK;
    }));
  assertEquals([counts.timeouts, counts.accounting.unanswered, counts.accounting.reconnects], [1, 1, 1]);
  assertEquals(counts.accounting.hungConnections, 1);
  // Connection 0 had answers before the swallowed request: served, then stuck.
  assertEquals(counts.accounting.hungNeverAnswered, undefined);
  assertEquals(counts.accounting.reconnectMs, 10);
  assertEquals(counts.accounting.droppedConnections, 0);
  // Connection 1: 201; connection 0: 50 before (1000 … 1490 ms), 99 after it reopened (2020 … 3000 ms).
  assertEquals(counts.validResponses, 350);
  assertEquals(total(counts.histogram), 351);
});

Deno.test("an answer later than its timeout is a timeout, not a response", async () => {
  const job: EngineJob = { ...JOB, timeoutSec: 0.25, hungAfterMs: 250 };
  let held = false, once = false;
  const { counts } = await drive(job, (t, server, net) => {
    const s0 = net.sockets[0];
    // Connection 0's request sent at 1000 ms is answered at 1260 ms: past its 250 ms timeout, before the watchdog
    // (every 62.5 ms: 1250 ms finds it 250 ms old, not older; 1312.5 ms would) closes the connection.
    if (t === 1260 && held) {
      held = false;
      s0.send(OK);
    }
    server.answer((_n, socket) => {
      if (t === 1010 && socket === s0 && !once) {
        held = once = true;
        return null;
      }
      return OK;
    });
  });
  assertEquals(counts.timeouts, 1);
  assertEquals(counts.accounting.unanswered, 1);
  assertEquals(counts.accounting.hungConnections, 1);
  assertEquals(counts.accounting.reconnects, 0);
});

Deno.test("the server closing a connection in use is a drop: what was in flight is lost, the connection reopened", async () => {
  let dropped = false;
  const { counts } = await drive(JOB, (t, server, net) => {
    if (t === 2000 && !dropped) {
      dropped = true;
      net.sockets[0].hangUp();
    }
    server.answer();
  });
  assertEquals(counts.accounting.droppedConnections, 1);
  assertEquals([counts.accounting.unanswered, counts.accounting.reconnects, counts.accounting.idleCloses], [1, 1, 0]);
});

Deno.test("a body without length runs to the close (HTTP/1.0): valid, and each close after an answer announced, no drop", async () => {
  const closeDelimited = `HTTP/1.0 200 OK\r\ncontent-type: application/json\r\n\r\n${BODY}`;
  const { counts } = await drive({ ...JOB, warmupSec: 0, durationSec: 1 }, (_t, server) => {
    const answered = new Set<FakeSocket>();
    server.answer((_n, socket) => {
      answered.add(socket);
      return closeDelimited;
    });
    for (const s of answered) s.hangUp();
  });
  assertEquals([counts.mismatches, counts.non2xx], [0, 0]);
  assert(counts.validResponses > 0);
  // Every answer, in the window or after it, is followed by the server's close, which its framing announced.
  assertEquals(counts.accounting.announcedCloses, counts.validResponses + counts.lateResponses);
  assertEquals([counts.accounting.droppedConnections, counts.accounting.unanswered, counts.errors], [0, 0, 0]);
});

Deno.test("an HTTP/1.0 answer ends its connection unless it says keep-alive; one that does keeps it", async () => {
  const v10 = (connection: string) =>
    OK.replace("HTTP/1.1", "HTTP/1.0").replace("\r\n\r\n", `\r\n${connection}\r\n\r\n`);
  // The server leaves every connection open: the client sends one request on each, and closes it after the answer.
  const closing = await drive(JOB, (_t, server) => server.answer(() => v10("x-note: 1.0")));
  assert(closing.net.sockets.every((s) => s.written.length <= 1));
  assertEquals(closing.counts.accounting.announcedCloses, closing.counts.validResponses + closing.counts.lateResponses);
  assertEquals([closing.counts.accounting.droppedConnections, closing.counts.errors], [0, 0]);
  // Connection: keep-alive on HTTP/1.0: the two connections carry every request, as with HTTP/1.1.
  const kept = await drive(JOB, (_t, server) => server.answer(() => v10("Connection: Keep-Alive")));
  assertEquals(kept.net.sockets.length, 2);
  assertEquals(kept.counts.accounting.announcedCloses, undefined);
});

/** The open model at `rate`/s for `ms`, on the tests' two connections. */
function openJob(rate: number, ms: number, timeoutSec: number): EngineJob {
  return {
    ...JOB,
    timeoutSec,
    hungAfterMs: 1000,
    open: { phases: [{ durationMs: ms, fromRate: rate, toRate: rate, measured: true }], arrival: "uniform", seed: 1 },
  };
}

const atLeast = (h: [number, number][], us: number) =>
  h.filter(([i]) => bucketValue(i) >= us).reduce((a, [, n]) => a + n, 0);

Deno.test("open model: a request that times out stays in the latency at no less than its timeout", async () => {
  let swallowed = 0;
  const { counts } = await drive(openJob(100, 1000, 0.2), (t, server) =>
    server.answer(() => {
      // The first two requests the server takes in from 500 ms on (due at 500 and 510 ms) are never answered.
      if (t >= 500 && swallowed < 2) {
        swallowed++;
        return null;
      }
      return OK;
    }));
  const [phase] = counts.phases!;
  // Due every 10 ms from 0 to 990 ms: 100. Due 520 ms on wait for a connection. The watchdog (every 50 ms) finds the
  // two unanswered 250 and 240 ms old at 750 ms: timeouts; both connections reopen at 760 ms, when the requests due
  // at 520 … 550 ms have waited more than 200 ms: never sent. Those due at 560 ms on go out, answered in time.
  assertEquals([phase.scheduled, phase.responses, phase.unanswered], [100, 94, 6]);
  assertEquals([counts.timeouts, counts.accounting.unanswered, counts.accounting.notSent], [2, 6, 4]);
  assertEquals(total(phase.histogram), 100);
  // At 200 ms or more: the six unanswered, and the request due at 560 ms, sent and answered at 760 ms.
  assertEquals(atLeast(phase.histogram, 199_000), 6 + 1);
  assert(maxUs(phase.histogram) >= 249_000, String(maxUs(phase.histogram)));
});

Deno.test("open model: requests never sent and never answered are unanswered, each at ≥ the timeout", async () => {
  const { counts } = await drive(openJob(100, 1000, 10), (t, server) => server.answer(() => t >= 500 ? null : OK));
  const [phase] = counts.phases!;
  // 0 … 490 ms answered (50); the 50 due from 500 ms on are not: timed out, or waiting for a connection until past
  // their timeout (never sent), or still out at the end. Each is in the histogram at no less than 10 s.
  assertEquals([phase.scheduled, phase.responses, phase.unanswered], [100, 50, 50]);
  assertEquals(counts.accounting.unanswered, 50);
  assert(counts.accounting.notSent > 0 && counts.timeouts > 0, JSON.stringify(counts.accounting));
  assertEquals(atLeast(phase.histogram, 9_990_000), 50);
});

Deno.test("the server closing a connection idle over a second is its keep-alive timeout, not a drop", async () => {
  const { counts } = await drive(openJob(1, 5000, 10), (t, server, net) => {
    // Due at 0, 1000, … ms, round-robin: connection 1 answered at 1000 ms, idle at 2500 ms.
    if (t === 2500) net.sockets[1].hangUp();
    server.answer();
  });
  assertEquals(counts.accounting.idleCloses, 1);
  assertEquals([counts.accounting.droppedConnections, counts.accounting.unanswered, counts.accounting.reconnects], [
    0,
    0,
    1,
  ]);
});

// A slow server is not a hung one: the hung bound a window's requests are held to grows with what its answers took.
Deno.test("requests still out at the window's end are given twice the window's longest answer before they are hung", async () => {
  // The server sees a request at its first 10 ms step after the write and answers it 2500 ms later: each connection's
  // first request (written at 0 ms) is answered at 2510 ms, in the window (1000 … 3000 ms), 2510 ms after it went
  // out; its second (written at 2510 ms) is out 490 ms when the window closes and answered at 5020 ms. The planned
  // bound (1 s) would call it hung at 4000 ms (out 1490 ms); twice the longest answer (2 × 2510 = 5020 ms, under the
  // 10 s timeout) waits for it.
  const seen = new Map<FakeSocket, number[]>();
  const { counts } = await drive(JOB, (t, _server, net) => {
    for (const s of net.open) {
      const at = seen.get(s) ?? [];
      while (at.length < s.written.length) at.push(t);
      seen.set(s, at);
      for (const w of at) if (w + 2500 === t) s.send(OK);
    }
  });
  assertEquals(counts.validResponses, 2);
  assertEquals(counts.accounting.outstandingAtEnd, 2);
  assertEquals([counts.accounting.hungConnections, counts.accounting.unanswered], [0, 0]);
  assertEquals(counts.accounting.hungAfterMs, 5020);
  // Nor are its connections never answered: each first answer came within twice the window's median answer.
  assertEquals(counts.accounting.neverAnsweredConnections, 0);
});

Deno.test("a server that stops answering is hung past the bound its own quick answers set", async () => {
  // Answers take 10 ms until 2000 ms, then none: the bound stays the planned 1 s (2 × 10 ms is less).
  const { counts } = await drive(JOB, (t, server) => {
    if (t < 2000) server.answer();
  });
  assertEquals(counts.accounting.hungConnections, 2);
  assertEquals(counts.accounting.hungAfterMs, 1000);
});

// A server that takes in new connections slower than they come (Node.js 20 accepts one per event-loop turn) leaves
// some in the kernel's accept queue: their clients are connected and have written a request nobody reads.
Deno.test("a connection waiting through the whole window without an answer is never answered, not hung", async () => {
  const { counts } = await drive(JOB, (_t, server, net) => {
    // Connection 1 is never answered, from the start; connection 0 all along.
    server.answer((_n, socket) => socket === net.sockets[1] ? null : OK);
  });
  const a = counts.accounting;
  assertEquals([a.connections, a.neverAnsweredConnections, a.hungConnections, a.hungNeverAnswered], [
    2,
    1,
    0,
    undefined,
  ]);
  // Its request is still unanswered, in the latency at no less than the timeout.
  assertEquals(a.unanswered, 1);
  assert(counts.validResponses > 0);
});

Deno.test("a first answer within the planned hung bound of the window's opening is slow; a later one is none", async () => {
  // Connection 1 is taken in only at `at`; the window is 500 … 2500 ms; the planned bound, 1 s, is more than twice the
  // window's median answer (10 ms).
  const job: EngineJob = { ...JOB, warmupSec: 0.5 };
  const takenIn = async (at: number) =>
    (await drive(job, (t, server, net) => server.answer(undefined, (s) => s !== net.sockets[1] || t >= at))).counts;
  const [slow, late] = [await takenIn(1400), await takenIn(1600)];
  assertEquals([slow.accounting.neverAnsweredConnections, slow.accounting.hungConnections], [0, 0]);
  // Never answered though answered in the window: its answers from 1600 ms on count in the figures as any other.
  assertEquals([late.accounting.neverAnsweredConnections, late.accounting.hungConnections], [1, 0]);
  assert(late.validResponses > slow.validResponses - 2 * 20, `${late.validResponses} vs ${slow.validResponses}`);
});

Deno.test("a connection never answered whose requests time out in the window is never answered, not hung", async () => {
  const job: EngineJob = { ...JOB, timeoutSec: 0.5, hungAfterMs: 500 };
  const { counts } = await drive(job, (_t, server, net) => {
    // Only connection 0's first socket is ever answered: connection 1 times out, opens again, times out again, ...
    server.answer((_n, socket) => socket === net.sockets[0] ? OK : null);
  });
  const a = counts.accounting;
  assertEquals([a.neverAnsweredConnections, a.hungConnections], [1, 0]);
  assert(counts.timeouts >= 2 && a.reconnects >= 2, JSON.stringify(a));
});

Deno.test("a connection the server never takes in is never answered: it waited through the whole window", async () => {
  const net = new FakeNet(false);
  const { counts } = await drive(
    JOB,
    (t, server) => {
      // Only connection 0 is ever accepted; connection 1's connect stays pending, so it never sends a request.
      if (t === 10) net.sockets[0].accept();
      server.answer();
    },
    10,
    net,
  );
  assertEquals([counts.accounting.neverAnsweredConnections, counts.accounting.unanswered], [1, 0]);
});

Deno.test("a hung connection answered in the window, then never again since it opened, is counted apart", async () => {
  const { counts } = await drive(JOB, (t, server, net) => {
    // At 2000 ms the server drops connection 0, then never answers it on the connection it opens next.
    if (t === 2000) net.sockets[0].hangUp();
    server.answer((_n, socket) => socket === net.sockets[2] ? null : OK);
  });
  const a = counts.accounting;
  assertEquals([a.neverAnsweredConnections, a.hungConnections, a.hungNeverAnswered, a.droppedConnections], [
    0,
    1,
    1,
    1,
  ]);
});

// docs/method.md "Dropped connections": a connection whose end the server announced (`Connection: close`) is no drop.
const CLOSING = OK.replace("\r\n\r\n", "\r\nConnection: keep-alive, Close\r\n\r\n");

Deno.test("an answer saying Connection: close ends its connection: nothing more sent on it, closed, reopened, no drop", async () => {
  const answers = new Map<FakeSocket, number>();
  const { counts, net } = await drive(JOB, (_t, server, net) =>
    server.answer((_n, socket) => {
      // Every 5th answer on a connection announces its end; on every other such connection the server hangs up after
      // it (a server that closes first), on the rest it leaves the close to the client.
      const n = (answers.get(socket) ?? 0) + 1;
      answers.set(socket, n);
      if (n < 5) return OK;
      const index = net.sockets.indexOf(socket);
      if (index % 2 === 0) queueMicrotask(() => socket.hangUp());
      return CLOSING;
    }));
  const a = counts.accounting;
  // Each connection's 201 answers of the window, one in five announcing its end: about 80 closes.
  assert(a.announcedCloses! >= 70, JSON.stringify(a));
  assertEquals([a.droppedConnections, a.unanswered, a.idleCloses, counts.errors, counts.mismatches], [0, 0, 0, 0, 0]);
  // No request went out on a connection after the answer that announced its end; those the server left open, the
  // client closed.
  for (const [i, s] of net.sockets.entries()) {
    assert(s.written.length <= 5, `socket ${i}: ${s.written.length} requests`);
    if (s.written.length === 5 && i % 2 === 1) assert(s.closedByClient, `socket ${i}`);
  }
  // Opened again at once: the window (1000 … 3000 ms) answered as a server that never closes (201 per connection) less
  // at most a step per reopening.
  assert(counts.validResponses >= 402 * 0.75, String(counts.validResponses));
});

Deno.test("requests pipelined after an answer saying Connection: close are unanswered, the close no drop", async () => {
  const job: EngineJob = { ...JOB, pipelining: 2 };
  let announced = 0;
  const { counts } = await drive(job, (t, server, net) =>
    server.answer((_n, socket) => {
      // Once in the window, the first connection's server announces its end and hangs up with a request in flight.
      if (announced > 0 && socket === net.sockets[0]) return null;
      if (t === 2000 && socket === net.sockets[0]) {
        announced++;
        queueMicrotask(() => socket.hangUp());
        return CLOSING;
      }
      return OK;
    }));
  const a = counts.accounting;
  assertEquals([a.announcedCloses, a.droppedConnections, a.unanswered, a.reconnects], [1, 0, 1, 1]);
});
