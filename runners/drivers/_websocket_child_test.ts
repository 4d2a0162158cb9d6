import { assertEquals, assertMatch } from "@std/assert";
import { Buffer } from "node:buffer";
import { echoMismatch, HEADER_BYTES, messagePattern } from "./_websocket_child.ts";

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
