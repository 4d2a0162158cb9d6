// The WebSocket load as one piece, in process: fake clock, fake network, a fake echo server that reads the engine's
// masked frames and answers them (docs/method.md "Every request accounted for", WebSocket).
import { assert, assertEquals } from "@std/assert";
import { FakeClock } from "./_fake_clock.ts";
import { FakeNet, type FakeSocket } from "./_fake_net.ts";
import { driveWebSocket, type EngineWsJob } from "./_ws_load.ts";

const JOB: EngineWsJob = {
  kind: "websocket",
  hostname: "127.0.0.1",
  port: 1,
  path: "/",
  key: "dGhlIHNhbXBsZSBub25jZQ==",
  accept: "s3pPLMBiTxaQ9kYGzzhZRbK+xOo=",
  connections: 2,
  firstSocket: 0,
  inFlight: 1,
  messageSize: 16,
  warmupSec: 0,
  durationSec: 1,
  messages: null,
  timeoutSec: 10,
  hungAfterMs: 1000,
};

const HANDSHAKE = "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n" +
  `Sec-WebSocket-Accept: ${JOB.accept}\r\n\r\n`;

/** The unmasked payloads of the client frames in `bytes` (whole frames only, as the fake network delivers them). */
function payloads(bytes: Uint8Array): Uint8Array[] {
  const out: Uint8Array[] = [];
  for (let at = 0; at + 6 <= bytes.length;) {
    const length = bytes[at + 1] & 0x7f;
    const mask = bytes.subarray(at + 2, at + 6);
    out.push(bytes.slice(at + 6, at + 6 + length).map((b, i) => b ^ mask[i & 3]));
    at += 6 + length;
  }
  return out;
}

/** A server frame (binary, unmasked) carrying `payload`. */
const frame = (payload: Uint8Array) => Uint8Array.from([0x82, payload.length, ...payload]);

/** Answers the handshake, then echoes each message; `echo` may change what goes back (null: nothing). */
class EchoServer {
  readonly #seen = new Map<FakeSocket, number>();
  constructor(readonly net: FakeNet) {}
  step(echo: (message: Uint8Array, socket: FakeSocket) => Uint8Array[] | null = (m) => [m]): void {
    for (const s of this.net.open) {
      const done = this.#seen.get(s) ?? 0;
      const until = s.written.length;
      for (let i = done; i < until; i++) {
        const bytes = s.writtenBytes[i];
        if (i === 0) s.send(HANDSHAKE);
        else for (const p of payloads(bytes)) for (const back of echo(p, s) ?? []) s.send(frame(back));
      }
      this.#seen.set(s, until);
    }
  }
}

async function drive(job: EngineWsJob, step: (t: number, server: EchoServer) => void) {
  const clock = new FakeClock();
  const net = new FakeNet();
  const server = new EchoServer(net);
  let finished = false;
  const counts = driveWebSocket(job, clock, net.connect).finally(() => finished = true);
  for (let t = 10; t < 60_000 && !finished; t += 10) {
    // The handshakes run on real timers' promise; the load itself on the fake clock.
    await new Promise((r) => setTimeout(r, 0));
    clock.advance(10);
    step(t, server);
  }
  return await counts;
}

Deno.test("WebSocket: every echo compared; an echo nobody asked for is unasked and counts in no figure", async () => {
  let doubled = false;
  const counts = await drive(JOB, (t, server) =>
    server.step((m) => {
      if (t >= 500 && !doubled) {
        doubled = true;
        return [m, m];
      }
      return [m];
    }));
  assertEquals(counts.accounting.unasked, 1);
  assertEquals([counts.mismatches, counts.accounting.unanswered, counts.connectUs.length], [0, 0, 2]);
  assert(counts.validMessages > 0);
});

Deno.test("WebSocket: a socket the server closes is a drop, its message unanswered, the socket opened again", async () => {
  let dropped = false;
  const counts = await drive(JOB, (t, server) => {
    if (t === 500 && !dropped) {
      dropped = true;
      server.net.sockets[0].hangUp();
    }
    server.step();
  });
  assertEquals(counts.accounting.droppedConnections, 1);
  assertEquals([counts.accounting.unanswered, counts.accounting.reconnects], [1, 1]);
  assertEquals(counts.droppedSockets, 1);
});

Deno.test("WebSocket: an echo passed over is unanswered, the echo after it still answers its own message", async () => {
  let skipped = false;
  // Two in flight per socket: when the server never echoes one, the next echo comes where it was due.
  const counts = await drive({ ...JOB, inFlight: 2 }, (t, server) =>
    server.step((m) => {
      if (t >= 500 && !skipped) {
        skipped = true;
        return null;
      }
      return [m];
    }));
  assertEquals([counts.accounting.unanswered, counts.mismatches, counts.accounting.unasked], [1, 0, 0]);
  assert(counts.validMessages > 0);
});

// One policy for HTTP and WebSocket: bytes that are no frame end the socket from this side, as a response that is no
// HTTP ends an HTTP connection; a mismatch and its message unanswered, not a drop by the server.
Deno.test("WebSocket: a frame the RFC forbids closes the socket from this side: a mismatch, not a drop", async () => {
  let garbled = false;
  const counts = await drive(JOB, (t, server) => {
    if (t >= 500 && !garbled) {
      garbled = true;
      // A frame with a reserved bit set, its payload a right echo would carry.
      server.net.open[0].send(Uint8Array.from([0xc2, 1, 0]));
    }
    server.step();
  });
  assertEquals([counts.mismatches, counts.accounting.droppedConnections], [1, 0]);
  assertEquals([counts.accounting.unanswered, counts.accounting.reconnects], [1, 1]);
});
