// A latency histogram for the load engine's hot path, with no dependency (the engine runs on Bun without
// node_modules): the counts array of an HdrHistogram with lowest value 1 µs and 3 significant digits, indexed the
// same way, so the harness can rebuild an hdr-histogram-js histogram from its counts exactly (see bucketValue).

/** log2 of the sub-bucket count for 3 significant digits (2 × 10³ rounded up to a power of two: 2048). */
const SUB_BUCKET_BITS = 11;
const SUB_BUCKET_HALF_BITS = SUB_BUCKET_BITS - 1;
const SUB_BUCKET_HALF = 1 << SUB_BUCKET_HALF_BITS;
const SUB_BUCKET_MASK = (1 << SUB_BUCKET_BITS) - 1;
/** Values up to 2³¹ − 1 µs (35 minutes) fit; larger ones are clamped. */
const MAX_VALUE = 0x7fffffff;
const BUCKETS = 31 - SUB_BUCKET_BITS + 1;

/** Microsecond latencies, counted in HdrHistogram buckets. */
export class EngineHistogram {
  readonly counts: Uint32Array = new Uint32Array((BUCKETS + 1) * SUB_BUCKET_HALF);
  total = 0;

  /** Counts one value (µs; clamped to 0 … 2³¹ − 1). */
  record(us: number): void {
    const v = us < 0 ? 0 : us > MAX_VALUE ? MAX_VALUE : us | 0;
    // HdrHistogram's bucket index: the bits above the sub-bucket's, counted from its leading-zero base.
    const bucket = 32 - SUB_BUCKET_HALF_BITS - 1 - Math.clz32(v | SUB_BUCKET_MASK);
    const sub = v >>> bucket;
    this.counts[((bucket + 1) << SUB_BUCKET_HALF_BITS) + (sub - SUB_BUCKET_HALF)]++;
    this.total++;
  }

  /** The lowest value of the bucket holding the `q`-quantile (0 … 1) of the values counted; 0 when none is. */
  quantile(q: number): number {
    let rank = Math.max(1, Math.ceil(q * this.total));
    for (let i = 0; i < this.counts.length && this.total > 0; i++) {
      rank -= this.counts[i];
      if (rank <= 0) return bucketValue(i);
    }
    return 0;
  }

  /** The non-zero counts as `[index, count]` pairs, for the harness. */
  sparse(): [number, number][] {
    const out: [number, number][] = [];
    for (let i = 0; i < this.counts.length; i++) if (this.counts[i] > 0) out.push([i, this.counts[i]]);
    return out;
  }
}

/** The lowest value counted at `index` (what to record in an HdrHistogram of the same precision). */
export function bucketValue(index: number): number {
  let bucket = (index >> SUB_BUCKET_HALF_BITS) - 1;
  let sub = (index & (SUB_BUCKET_HALF - 1)) + SUB_BUCKET_HALF;
  if (bucket < 0) {
    sub -= SUB_BUCKET_HALF;
    bucket = 0;
  }
  return sub * 2 ** bucket;
}
