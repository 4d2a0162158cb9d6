// The HTTP load as one piece, in process: fake clock, fake network, fake server.
import { assertEquals } from "@std/assert";
import { drive, JOB } from "./_fake_server.ts";

Deno.test("closed model: every request answered 10 ms later, counted where it fell", async () => {
  const { counts } = await drive(JOB);
  // Two connections, one answer each per 10 ms step: at 10 … 990 ms in the warm-up (99 steps), at 1000 … 3000 ms in
  // the window (201 steps, both ends in), then the two sent at 3000 ms answered at 3010, after the window.
  assertEquals(counts.validResponses, 402);
  assertEquals(counts.responses, 402);
  assertEquals([counts.mismatches, counts.non2xx, counts.errors, counts.timeouts], [0, 0, 0, 0]);
  assertEquals(counts.warmupResponses, 198);
  assertEquals(counts.lateResponses, 2);
  assertEquals(counts.accounting, {
    unanswered: 0,
    notSent: 0,
    unasked: 0,
    hungConnections: 0,
    connections: 2,
    neverAnsweredConnections: 0,
    droppedConnections: 0,
    idleCloses: 0,
    reconnects: 0,
    reconnectMs: 0,
    outstandingAtEnd: 2,
    // The planned 1 s: twice the longest answer (2 × 10 ms) is less.
    hungAfterMs: 1000,
  });
  assertEquals(counts.durationMs, 2000);
  // Every latency is the 10 ms step.
  assertEquals(counts.histogram.length, 1);
});
