/**
 * The self-checks' surface: calibrating the machine, the engine against wrk, the WebSocket ceiling,
 * start-up comparisons, fair share, order drift, the reaper's cost and reproducing the articles.
 *
 * @module
 */

export * from "./calibrate.ts";
export * from "./compare_startup.ts";
export * from "./fair_share.ts";
export * from "./order_drift.ts";
export * from "./reaper_cost.ts";
export * from "./reproduce.ts";
export * from "./vs_wrk.ts";
export * from "./ws_ceiling.ts";
