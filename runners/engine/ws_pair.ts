// How an echo is paired with the message it answers, for every WebSocket client of the engine's load. Echo servers
// answer in order, and every message carries its socket's and its own number, so an echo is told apart by them: the
// oldest message in flight is the one it answers; an echo of a message already answered (a duplicate, a stale one)
// answers nothing (unasked); an echo of a later message in flight means the server passed over the ones before it,
// which will never be answered (unanswered); anything else is compared byte for byte and named when it differs.

import type { LoadConnection, LoadEvents } from "./load.ts";
import { MISMATCH, VALID } from "./tally.ts";
import { echoMismatch, HEADER_BYTES } from "./ws.ts";

/** The message number an echo carries, when it carries socket `socket`'s; null otherwise. */
function carried(data: Uint8Array | string, socket: number): number | null {
  if (typeof data === "string" || data.length < HEADER_BYTES) return null;
  const u32 = (at: number) => (data[at] | (data[at + 1] << 8) | (data[at + 2] << 16) | (data[at + 3] << 24)) >>> 0;
  return u32(0) === socket ? u32(4) : null;
}

/** Pairs echo `data` on connection `c` (socket number `socket`) with its message in flight; reports it to `events`. */
export function pairEcho(
  c: LoadConnection,
  data: Uint8Array | string,
  socket: number,
  pattern: Uint8Array,
  events: LoadEvents,
): void {
  const inFlight = c.inFlight;
  if (inFlight.length === 0) {
    events.unasked(`socket ${socket} received a message it did not send`);
    return;
  }
  const seq = carried(data, socket);
  const due = inFlight.indexOfOldest >>> 0;
  if (seq !== null && seq < due) {
    events.unasked(`socket ${socket} received message ${seq} again where message ${due} was due`);
    return;
  }
  if (seq !== null && seq > due && inFlight.contains(seq)) {
    // Passed over: the messages before it will not be echoed.
    while ((inFlight.indexOfOldest >>> 0) !== seq && inFlight.shift()) events.skipped(inFlight.at, inFlight.phase);
  }
  inFlight.shift();
  const wrong = echoMismatch(data, pattern, socket, inFlight.index >>> 0);
  if (wrong !== null) events.mismatch(`socket ${socket} message ${inFlight.index >>> 0}: ${wrong}`);
  const bytes = typeof data === "string" ? data.length : data.length;
  events.answered(c, wrong === null ? VALID : MISMATCH, bytes, inFlight.at, inFlight.phase, -1);
}
