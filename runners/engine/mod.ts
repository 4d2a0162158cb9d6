/**
 * rtbench's load engine: a load job in (connections, requests and their expectations, a window, a schedule), counts,
 * latency histograms and accounting out. Its own program runs each job in a process of its own (`ENGINE_FILES`,
 * `_child.ts`); {@linkcode driveHttp} and {@linkcode driveWebSocket} run a job in this process, on any clock and
 * network, which is how its tests run it on a fake clock and a fake network. Turning counts into a load generator's
 * measurement, and choosing what the processes run on, is the drivers'.
 *
 * @example A job's counts, merged over the processes that ran it
 * ```ts ignore
 * import { driveHttp, histogramOf } from "./mod.ts";
 * const counts = await driveHttp(job);
 * console.log(counts.validResponses, histogramOf([counts]).totalCount);
 * ```
 *
 * @module
 */

export { driveHttp, type EndpointCounts, type EngineCounts, type EngineJob } from "./_http_load.ts";
export { driveWebSocket, type EngineWsCounts, type EngineWsJob } from "./_ws_load.ts";
export type { AccountingCounts, PhaseCounts } from "./tally.ts";
export { HUNG_LATENCY_FACTOR, observedHungAfterMs } from "./_hung.ts";
export { countedSpanOf, histogramOf, type MeasuredPhase, mergePhases } from "./merge.ts";
export { type EngineRequest, ProtocolError, ResponseParser, type ResponseSink, VALID } from "./_http.ts";
export { engineRequest } from "./request.ts";
export type { RatePhase } from "./_schedule.ts";
export { WS_GUID } from "./ws.ts";
export { copiedPath, ENGINE_FILES, type EngineProgram, engineProgram } from "./program.ts";
