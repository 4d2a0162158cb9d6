// The HTTP load as one piece, in process: fake clock, fake network, fake server.
import { assertEquals } from "@std/assert";
import { FakeClock } from "./_engine_fake_clock.ts";
import { FakeNet } from "./_engine_fake_net.ts";
import { BODY, FakeServer } from "./_engine_fake_server.ts";
import { driveHttp, type EngineJob } from "./_engine_http_load.ts";

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
  firstRequest: 0,
};

/** Runs `job` with the server answering every `stepMs`, `respond` choosing each answer; returns the counts. */
export async function drive(
  job: EngineJob,
  respond?: Parameters<FakeServer["answer"]>[0],
  stepMs = 10,
  untilMs = 20_000,
) {
  const clock = new FakeClock();
  const net = new FakeNet();
  const server = new FakeServer(net);
  let finished = false;
  const counts = driveHttp(job, clock, net.connect).finally(() => finished = true);
  for (let t = 0; t < untilMs && !finished; t += stepMs) {
    clock.advance(stepMs);
    server.answer(respond);
    await Promise.resolve();
  }
  return { counts: await counts, net, server, clock };
}

Deno.test("closed model: every request answered 10 ms later, counted where it fell", async () => {
  const { counts } = await drive(JOB);
  // Two connections, one answer each per 10 ms step: 100 in the 1 s warm-up, 200 a second in the 2 s window.
  assertEquals(counts.validResponses, 400);
  assertEquals(counts.responses, 400);
  assertEquals([counts.mismatches, counts.non2xx, counts.errors, counts.timeouts], [0, 0, 0, 0]);
  assertEquals(counts.warmupResponses, 198);
  assertEquals(counts.durationMs, 2000);
  // Every latency is the 10 ms step.
  assertEquals(counts.histogram.length, 1);
});
