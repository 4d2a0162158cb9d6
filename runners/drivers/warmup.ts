/**
 * One rule for every load generator: what went wrong during the warm-up counts like what went wrong in the
 * measured window (a server that answers wrongly only while it warms up is still wrong), while the warm-up's
 * responses are never samples.
 *
 * @module
 */

import type { LoadMeasurement } from "./types.ts";

/** What one window (warm-up or measured) saw go wrong, and how many responses it saw. */
export interface WindowFaults {
  /** Responses received in the window. */
  readonly responses: number;
  /** Responses outside 2xx. */
  readonly non2xx: number;
  /** Responses that differ from what the workload expects. */
  readonly mismatches: number;
  /** What the first mismatch was, or null. */
  readonly firstMismatch: string | null;
}

/**
 * The fault counts of a measurement with the warm-up's folded in; the first mismatch says when it happened.
 *
 * @example A server wrong only during the warm-up
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { foldWarmup } from "./warmup.ts";
 *
 * const folded = foldWarmup(
 *   { responses: 900, non2xx: 0, mismatches: 0, firstMismatch: null },
 *   { responses: 300, non2xx: 2, mismatches: 1, firstMismatch: "body \"x\"" },
 * );
 * assertEquals(folded, { non2xx: 2, mismatches: 1, firstMismatch: "during warm-up: body \"x\"", warmupResponses: 300 });
 * ```
 */
export function foldWarmup(
  measured: WindowFaults,
  warm: WindowFaults | null,
): Pick<LoadMeasurement, "non2xx" | "mismatches" | "firstMismatch" | "warmupResponses"> {
  return {
    non2xx: measured.non2xx + (warm?.non2xx ?? 0),
    mismatches: measured.mismatches + (warm?.mismatches ?? 0),
    firstMismatch: warm && warm.mismatches > 0
      ? `during warm-up: ${warm.firstMismatch}`
      : measured.mismatches > 0
      ? measured.firstMismatch
      : null,
    warmupResponses: warm?.responses ?? 0,
  };
}
