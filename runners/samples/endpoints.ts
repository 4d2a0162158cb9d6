/**
 * Figures per endpoint over a record's runs: each endpoint's rate summarized
 * like any figure, its latency from the runs' histograms merged.
 *
 * @module
 */

import type { EndpointSummary, RunRecord } from "../schema/mod.ts";
import { mergeLatency } from "./latency.ts";
import { summarize } from "../stats/mod.ts";

/**
 * Every endpoint of the runs, in the order the first run lists them; undefined when no run has endpoints.
 *
 * @example Two runs of one endpoint
 * ```ts
 * import { endpointSummaries } from "./endpoints.ts";
 * const run = (rps: number) => ({
 *   index: 0, startedAt: "", figures: {}, counts: { errors: 0, timeouts: 0, non2xx: 0, mismatches: 0 },
 *   latencyUs: null, latencyHistogram: null,
 *   endpoints: { "GET /": { requestsPerSecond: rps, responses: rps, validResponses: rps, latencyUs: null, latencyHistogram: null } },
 * });
 * console.log(endpointSummaries([run(100), run(300)])?.["GET /"].requestsPerSecond.median); // 200
 * ```
 */
export function endpointSummaries(runs: readonly RunRecord[]): Record<string, EndpointSummary> | undefined {
  const names = [...new Set(runs.flatMap((r) => Object.keys(r.endpoints ?? {})))];
  if (names.length === 0) return undefined;
  return Object.fromEntries(names.map((name) => {
    const per = runs.flatMap((r) => r.endpoints?.[name] ? [r.endpoints[name]] : []);
    return [name, {
      requestsPerSecond: summarize(per.map((e) => e.requestsPerSecond)),
      validResponses: per.reduce((a, e) => a + e.validResponses, 0),
      latencyUs: mergeLatency(per.map((e) => e.latencyHistogram)),
    }];
  }));
}
