// The counted responses' spans, connection by connection (docs/method.md "Slow workloads: enough responses to rank").
// In the closed model a connection sends its next request when its answer comes, so its own answers come one request's
// time apart, evenly where the server's work is even. Over the span from a connection's first to its last valid
// answer of the window, n − 1 intervals give its rate, which no whole count over a fixed window rounds. The answers of
// several connections together do not come evenly (a thread pool's two threads finish together, so they come in
// pairs), and over their common span they read high: the gaps that straddle the window's edges are left out, and the
// longer a gap the likelier it straddles one. So each connection keeps its own span, and the rate is the sum of each
// connection's, where every one came evenly.

/**
 * The largest coefficient of variation of a connection's gaps between counted answers for which its rate over their
 * span stands. `(n − 1)` gaps over the span is exact for answers that come evenly; the more irregular they come, the
 * more it reads high: with about 22 answers in 2 s, +0.5% at 0.3, +1.1% at 0.5, +4.8% at 1 (Poisson), +5.4% for
 * answers in pairs (`span_test.ts` simulates it). At 0.3 the bias is under the 1% the count of 100
 * responses allows.
 */
export const MAX_COUNTED_GAP_CV = 0.3;

/** Valid answers of the window a connection counts at least for its rate over their span: two gaps to compare. */
export const MIN_SPAN_ANSWERS = 3;

/** One connection's valid answers of the window: how many, when the first and the last came, how evenly. */
export class CountedSpan {
  /** Valid answers counted. */
  count = 0;
  /** When the first and the last came (clock ms; NaN before the first). */
  first = NaN;
  last = NaN;
  /** The sum of the squared gaps between consecutive ones (ms²). */
  gapSquares = 0;

  /** A valid answer of the window came at `at`. */
  add(at: number): void {
    if (this.count++ === 0) this.first = at;
    else this.gapSquares += (at - this.last) ** 2;
    this.last = at;
  }

  /**
   * The coefficient of variation of the gaps (their standard deviation over their mean), or null below three
   * answers or when they all came at once.
   */
  gapCv(): number | null {
    const gaps = this.count - 1;
    const span = this.last - this.first;
    if (gaps < 2 || !(span > 0)) return null;
    const mean = span / gaps;
    return Math.sqrt(Math.max(0, this.gapSquares / gaps - mean * mean)) / mean;
  }
}

/**
 * The rate over the connections' spans, per second: each connection's `(n − 1)` gaps over its span, summed. Null
 * unless every connection that counted an answer counted {@linkcode MIN_SPAN_ANSWERS}, evenly (a gap variation of at
 * most {@linkcode MAX_COUNTED_GAP_CV}), over at least half the window (a server that answers in bursts packs its
 * answers into a short span).
 *
 * @param spans The connections' counts.
 * @param windowMs The window's length.
 */
export function rateOverSpans(spans: readonly CountedSpan[], windowMs: number): number | null {
  let rate = 0;
  let counted = 0;
  for (const s of spans) {
    if (s.count === 0) continue;
    const cv = s.gapCv();
    const span = s.last - s.first;
    if (s.count < MIN_SPAN_ANSWERS || cv === null || cv > MAX_COUNTED_GAP_CV || span < windowMs / 2) return null;
    rate += (s.count - 1) / (span / 1000);
    counted++;
  }
  return counted > 0 ? rate : null;
}
