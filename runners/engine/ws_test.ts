import { assertEquals, assertMatch, assertThrows } from "@std/assert";
import { Buffer } from "node:buffer";
import {
  echoMismatch,
  FrameBuilder,
  FrameParser,
  type FrameSink,
  handshakeResponse,
  HEADER_BYTES,
  messagePattern,
  WebSocketProtocolError,
} from "./ws.ts";

function message(size: number, socket: number, sequence: number): Buffer {
  const data = Buffer.from(messagePattern(size));
  data.writeUInt32LE(socket, 0);
  data.writeUInt32LE(sequence, 4);
  return data;
}

Deno.test("the message pattern holds every byte value", () => {
  assertEquals(new Set(messagePattern(256 + HEADER_BYTES).subarray(HEADER_BYTES)).size, 256);
});

Deno.test("an identical echo passes; any other byte, length, type or order is named", () => {
  const pattern = messagePattern(64);
  assertEquals(echoMismatch(message(64, 3, 7), pattern, 3, 7), null);
  const flipped = message(64, 3, 7);
  flipped[40] ^= 1;
  assertMatch(echoMismatch(flipped, pattern, 3, 7)!, /^byte 40 of 64 is 0x.., expected 0x..$/);
  assertEquals(echoMismatch(message(63, 3, 7), pattern, 3, 7), "63 bytes came back for 64");
  assertEquals(echoMismatch("x".repeat(64), pattern, 3, 7), "a text message came back for a binary one");
  assertMatch(echoMismatch(message(64, 3, 6), pattern, 3, 7)!, /message 6 of socket 3 came where message 7/);
  assertMatch(echoMismatch(message(64, 4, 7), pattern, 3, 7)!, /of socket 4 came where message 7 of socket 3/);
});

Deno.test("client frames are masked with the socket's key and carry socket and sequence numbers", () => {
  const pattern = messagePattern(200);
  const mask = Uint8Array.from([0x12, 0x34, 0x56, 0x78]);
  const frame = new FrameBuilder(pattern, mask).frame(3, 7);
  assertEquals([frame[0], frame[1], frame[2], frame[3]], [0x82, 0x80 | 126, 0, 200]);
  assertEquals([...frame.subarray(4, 8)], [...mask]);
  const payload = frame.subarray(8).map((b, i) => b ^ mask[i & 3]);
  assertEquals(echoMismatch(payload, pattern, 3, 7), null);
});

/** A server's unmasked frame. */
function serverFrame(opcode: number, payload: Uint8Array, fin = true): Uint8Array {
  const head = payload.length < 126 ? [(fin ? 0x80 : 0) | opcode, payload.length] : [
    (fin ? 0x80 : 0) | opcode,
    126,
    payload.length >> 8,
    payload.length & 255,
  ];
  return Uint8Array.from([...head, ...payload]);
}

function collect(chunks: readonly Uint8Array[]): string[] {
  const seen: string[] = [];
  const sink: FrameSink = {
    message: (data, text) => seen.push(`${text ? "text" : "binary"} ${data.length}`),
    ping: (data) => seen.push(`ping ${data.length}`),
    closeFrame: () => seen.push("close"),
  };
  const parser = new FrameParser();
  for (const c of chunks) parser.feed(c, sink);
  return seen;
}

Deno.test("server frames are parsed across reads, fragmented messages joined, control frames told apart", () => {
  const a = serverFrame(2, messagePattern(300));
  const b = serverFrame(9, Uint8Array.of(1, 2));
  const c1 = serverFrame(2, messagePattern(10), false);
  const c2 = serverFrame(0, messagePattern(5));
  const all = Uint8Array.from([...a, ...b, ...c1, ...c2, ...serverFrame(8, new Uint8Array())]);
  const expected = ["binary 300", "ping 2", "binary 15", "close"];
  assertEquals(collect([all]), expected);
  for (let cut = 1; cut < all.length; cut += 7) {
    assertEquals(collect([all.subarray(0, cut), all.subarray(cut)]), expected);
  }
  assertThrows(() => collect([Uint8Array.of(0x82, 0x81, 1, 2, 3, 4, 5)]), WebSocketProtocolError, "masked");
});

Deno.test("the handshake response must switch protocols and accept the key", () => {
  const ok = new TextEncoder().encode("HTTP/1.1 101 Switching Protocols\r\nSec-WebSocket-Accept: abc=\r\n\r\n");
  assertEquals(handshakeResponse(ok, "abc="), ok.length);
  assertEquals(handshakeResponse(ok.subarray(0, 20), "abc="), 0);
  assertThrows(() => handshakeResponse(ok, "xyz="), WebSocketProtocolError, "accept key");
  const refused = new TextEncoder().encode("HTTP/1.1 426 Upgrade Required\r\n\r\n");
  assertThrows(() => handshakeResponse(refused, "abc="), WebSocketProtocolError, "426");
});

// docs/method.md "Every request accounted for": frames RFC 6455 forbids end the socket, even where the payload is a
// right echo (a lenient parser would count each of these as a valid message).
Deno.test("frames RFC 6455 forbids are protocol errors, even around a right payload", () => {
  const payload = messagePattern(10);
  const withBits = (frame: Uint8Array, bits: number) => Uint8Array.from([frame[0] | bits, ...frame.subarray(1)]);
  const forbidden: [string, Uint8Array[]][] = [
    ["reserved bit 1 (no extension was agreed)", [withBits(serverFrame(2, payload), 0x40)]],
    ["reserved bit 2", [withBits(serverFrame(2, payload), 0x20)]],
    ["reserved bit 3", [withBits(serverFrame(2, payload), 0x10)]],
    ["a continuation with no message begun", [serverFrame(0, payload)]],
    ["a new message inside a fragmented one", [serverFrame(2, payload, false), serverFrame(2, payload)]],
    ["a fragmented control frame", [serverFrame(9, Uint8Array.of(1), false)]],
    ["a control frame over 125 bytes", [serverFrame(9, new Uint8Array(126))]],
  ];
  for (const [what, frames] of forbidden) {
    assertThrows(() => collect(frames), WebSocketProtocolError, undefined, what);
  }
  // A control frame between the fragments of a message is allowed.
  assertEquals(
    collect([serverFrame(2, payload, false), serverFrame(9, Uint8Array.of(1)), serverFrame(0, payload)]),
    ["ping 1", "binary 20"],
  );
});
