// A server for the engine's in-process tests: over a FakeNet, it answers every request written so far with the
// response `answer` gives (or none), as often as the test calls it. Not part of the engine's program.

import type { FakeNet, FakeSocket } from "./_engine_fake_net.ts";

/** The hello JSON body and a response carrying it. */
export const BODY = '{"message":"Hello, World!"}';
export const OK = `HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: ${BODY.length}\r\n\r\n${BODY}`;

/** Answers every request of `net` not yet answered; `answer` gives the bytes for the n-th request overall (or null). */
export class FakeServer {
  readonly #net: FakeNet;
  readonly #answered = new Map<FakeSocket, number>();
  /** Requests answered so far, over every connection. */
  requests = 0;

  /** A server on `net`. */
  constructor(net: FakeNet) {
    this.#net = net;
  }

  /** Answers what is waiting; returns how many requests it took in. */
  answer(respond: (n: number, socket: FakeSocket) => string | null = () => OK): number {
    let taken = 0;
    for (const s of this.#net.open) {
      const done = this.#answered.get(s) ?? 0;
      // Only what was written before this call: answers make the engine write more.
      const until = s.written.length;
      for (let i = done; i < until && !s.closed; i++) {
        const bytes = respond(this.requests++, s);
        taken++;
        this.#answered.set(s, i + 1);
        if (bytes !== null) s.send(bytes);
      }
    }
    return taken;
  }
}
