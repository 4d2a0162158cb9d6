/**
 * The drivers layer's surface: what produces raw measurements (the load engine and the other HTTP load
 * generators, the WebSocket driver, the process timer, the resource and CPU samplers, remote machines). Files named
 * `_x.ts` (the engine's parts and its child programs) are private to this folder.
 *
 * @module
 */

export * from "./accounting.ts";
export * from "./autocannon.ts";
export * from "./bombardier.ts";
export * from "./calibration.ts";
export * from "./cpu_meter.ts";
export * from "./engine.ts";
export * from "./exchange.ts";
export * from "./generators.ts";
export * from "./idle_exchange.ts";
export * from "./locust.ts";
export * from "./oha.ts";
export * from "./open_model.ts";
export * from "./process_timer.ts";
export * from "./remote.ts";
export * from "./remote_engine.ts";
export * from "./resource_sampler.ts";
export * from "./types.ts";
export * from "./websocket.ts";
export * from "./wrk.ts";
