import { assertAlmostEquals, assertEquals } from "@std/assert";
import * as hdr from "hdr-histogram-js";
import { HISTOGRAM_OPTIONS, mergeLatency } from "./latency.ts";

function encoded(values: number[]): string {
  const h = hdr.build(HISTOGRAM_OPTIONS);
  for (const v of values) h.recordValue(v);
  return hdr.encodeIntoCompressedBase64(h);
}

// README "What the numbers mean": "Runs are combined by merging histograms, never by averaging percentiles."
Deno.test("runs' latencies are merged as one histogram, not by averaging their percentiles", () => {
  // A fast run of 1,000 responses at 100 µs and a slow one of 30 at 10 ms: averaging the runs' medians would say
  // 5 ms; of all 1,030 responses the median is 100 µs and the slowest 2.9% sit at 10 ms.
  const merged = mergeLatency([encoded(Array(1000).fill(100)), null, encoded(Array(30).fill(10_000))])!;
  assertEquals(merged.p50, 100);
  assertAlmostEquals(merged.p99, 10_000, 10);
  assertAlmostEquals(merged.max, 10_000, 10);
  assertAlmostEquals(merged.mean, (1000 * 100 + 30 * 10_000) / 1030, 5);
  assertEquals(mergeLatency([null]), null);
});
