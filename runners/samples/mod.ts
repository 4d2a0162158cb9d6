/**
 * What measuring makes of raw samples: latency histograms and their
 * percentiles, the rate over counted responses, per-endpoint summaries,
 * outliers among timed runs, and summaries of sampled CPU and memory. The
 * statistics a reader of results needs are in `stats/`; nothing here is
 * loaded to read a result.
 *
 * @module
 */

export * from "./counted_rate.ts";
export * from "./endpoints.ts";
export * from "./latency.ts";
export * from "./outliers.ts";
export * from "./resource_summary.ts";
