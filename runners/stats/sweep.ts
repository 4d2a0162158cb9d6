/**
 * A latency–throughput sweep's defaults: how many rates it measures, and the p99 objective its knee is judged by.
 *
 * @example
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { DEFAULT_SLO_P99_MS, DEFAULT_SWEEP_STEPS } from "./sweep.ts";
 *
 * assertEquals([DEFAULT_SWEEP_STEPS, DEFAULT_SLO_P99_MS], [10, 50]);
 * ```
 *
 * @module
 */

/**
 * The default `--slo-p99`, milliseconds: a common p99 objective for an API
 * endpoint, and far above loopback's unloaded latency (well under a
 * millisecond for these servers), so the knee marks where queueing takes
 * over rather than where noise does.
 */
export const DEFAULT_SLO_P99_MS = 50;

/** The default `--sweep-steps`: rates from 10% to 110% of the peak. */
export const DEFAULT_SWEEP_STEPS = 10;
