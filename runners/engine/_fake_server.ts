// A server for the engine's in-process tests: over a FakeNet, it answers every request written so far with the
// response `answer` gives (or none), as often as the test calls it. Not part of the engine's program.

import { FakeClock } from "./_fake_clock.ts";
import { FakeNet, type FakeSocket } from "./_fake_net.ts";
import { driveHttp, type EngineJob } from "./_http_load.ts";

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

  /**
   * Answers what is waiting on the sockets it `reads` (the others' requests wait, unread, as in an accept queue);
   * returns how many requests it took in.
   */
  answer(
    respond: (n: number, socket: FakeSocket) => string | null = () => OK,
    reads: (socket: FakeSocket) => boolean = () => true,
  ): number {
    let taken = 0;
    for (const s of this.#net.open) {
      if (!reads(s)) continue;
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

/** The tests' load: 2 connections, 1 in flight each, 1 s warm-up, 2 s window, 10 s timeout, 1 s hung bound. */
export const JOB: EngineJob = {
  kind: "http",
  hostname: "127.0.0.1",
  port: 1,
  requests: [{ raw: "GET / HTTP/1.1\r\n\r\n", expect: { status: 200, contentType: "application/json", body: BODY } }],
  connections: 2,
  pipelining: 1,
  warmupSec: 1,
  durationSec: 2,
  timeoutSec: 10,
  hungAfterMs: 1000,
  firstRequest: 0,
};

/** What the server does at each step: it is `t` ms into the load. */
export type Step = (t: number, server: FakeServer, net: FakeNet) => void;

/**
 * Runs `job` on `net` with `step` called every `stepMs` (by default: answer everything); returns the counts. A net made
 * with `new FakeNet(false)` leaves accepting connections to `step`.
 */
export async function drive(
  job: EngineJob,
  step: Step = (_t, server) => server.answer(),
  stepMs = 10,
  net: FakeNet = new FakeNet(),
) {
  const clock = new FakeClock();
  const server = new FakeServer(net);
  let finished = false;
  const counts = driveHttp(job, clock, net.connect).finally(() => finished = true);
  for (let t = stepMs; t < 60_000 && !finished; t += stepMs) {
    clock.advance(stepMs);
    step(t, server, net);
    // Closes reported in microtasks, and the load's promise, settle here.
    for (let i = 0; i < 5; i++) await Promise.resolve();
  }
  return { counts: await counts, net, server, clock };
}
