// docs/method.md "Open model": a sweep step is judged on its own: the load engine's CPU per answer and whether it was
// at its limit in that step's window, and the rate held against the requests actually due (a Poisson schedule's count).
import { assertEquals } from "@std/assert";
import { kneeOf, stepOf } from "./http_sweep.ts";
import type { LoadMeasurement } from "../drivers/types.ts";
import type { LatencyPercentiles } from "../schema/result.ts";

const latency = (p99: number): LatencyPercentiles => ({
  min: 1,
  p2_5: 1,
  p50: 1,
  p90: 1,
  p97_5: 1,
  p99,
  p99_9: p99,
  max: p99,
  mean: 1,
  stdev: 1,
});

/** A 2 s step at `target`/s: `valid` valid answers of `scheduled` due, the engine at `cpu`% of one core. */
function measured(scheduled: number, valid: number, cpu: number | null): LoadMeasurement {
  return {
    durationMs: 2000,
    responses: valid,
    validResponses: valid,
    requestsPerSecond: valid / 2,
    bytesPerSecond: 0,
    errors: 0,
    timeouts: 0,
    non2xx: 0,
    mismatches: 0,
    firstMismatch: null,
    latencyUs: latency(2000),
    latencyHistogram: null,
    latencyResolution: "us",
    warmupResponses: 0,
    clientCpuPercent: cpu,
    phases: [{
      durationMs: 2000,
      fromRate: 0,
      toRate: 0,
      scheduled,
      responses: valid,
      validResponses: valid,
      missed: 0,
      missedConnections: 0,
      missedClient: 0,
      achievedRate: valid / 2,
      latencyUs: latency(2000),
      latencyHistogram: null,
    }],
  };
}

Deno.test("a sweep step carries the engine's CPU over its own window, per answer, and whether it was at its limit", () => {
  // 95% of one core over 2 s for 4,000 answers: 0.95 × 2,000,000 µs / 4,000 = 475 µs each; at the 90% limit.
  const step = stepOf(2000, measured(4000, 4000, 95), 1);
  assertEquals([step.clientCpuPercent, step.clientCpuUsPerResponse, step.clientSaturated], [95, 475, true]);
  // The same on two client CPUs is under half of them.
  assertEquals(stepOf(2000, measured(4000, 4000, 95), 2).clientSaturated, false);
});

Deno.test("a step holds its rate when its answers keep up with the requests actually due, whatever the target", () => {
  // A Poisson schedule at 2,000/s drew 3,900 requests in 2 s: all 3,900 answered (1,950/s, 2.5% under the target) is
  // held. The same 3,900 answers of 4,000 due (97.5%, under 99%) is not.
  const drawnLow = stepOf(2000, measured(3900, 3900, 10));
  const fellBehind = stepOf(2000, measured(4000, 3900, 10));
  assertEquals(kneeOf([drawnLow], 50)?.targetRate, 2000);
  assertEquals(kneeOf([fellBehind], 50), null);
});
