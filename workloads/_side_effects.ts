// Side effects a server left over a whole run (queries PostgreSQL counted, files created) against the requests
// that caused them. A request answered surely did its work; a request sent and not answered (timed out, cut by a
// connection error, in flight when the load stopped) may have done it too, with nobody told. So the answered
// requests bound the count from below and the sent ones from above, whatever the machine's load: a fixed allowance
// of requests in flight fails a run on a busy machine where timers fire late and requests time out.

import type { AfterRunContext, Check } from "./types.ts";

/** How side effects follow from requests, for {@linkcode sideEffectChecks}. */
export interface SideEffectRule {
  /** What is counted, plural, for the checks' names: `queries counted`, `files created`. */
  readonly what: string;
  /** The count the run left. */
  readonly actual: number;
  /** Side effects per request. @default 1 */
  readonly perRequest?: number;
  /** Added to `requests × perRequest` (verification probes that do other work than the traffic). @default 0 */
  readonly offset?: number;
  /**
   * Requests possibly unanswered when the generator cannot count what it sent (one per connection per phase), in one
   * load: a run that went through several (see `AfterRunContext.unsent`) allows this many for each.
   */
  readonly inFlight: number;
  /** Share by which the count may differ beyond the bounds (a counter that lags, or drops events). */
  readonly tolerance: number;
}

/**
 * The requests of a run sent and not answered: the generator's count, or without it the requests in flight
 * (`inFlight` a load) of each load the run went through, and each it gave up on.
 *
 * @example
 * ```ts
 * import { unansweredRequests } from "./_side_effects.ts";
 * const run = { runtime: "deno", run: 0, validResponses: 90, totalResponses: 100, sentRequests: 104 };
 * console.log(unansweredRequests(run, 200)); // 4
 * ```
 */
export function unansweredRequests(run: AfterRunContext, inFlight: number): number {
  return run.sentRequests !== undefined
    ? Math.max(0, run.sentRequests - run.totalResponses)
    : inFlight * (run.unsent?.loads ?? 1) + (run.unsent?.timeouts ?? 0);
}

/**
 * Two checks on a run's side effects: at least what its answered requests explain (named
 * `run N: <what> vs expected`), and at most what its sent requests explain (`run N: <what> for requests sent
 * but not answered (at most)`); without the generator's count of sent requests, `inFlight` requests stand in.
 *
 * @example Queries after 100 answered and 104 sent requests
 * ```ts
 * import { sideEffectChecks } from "./_side_effects.ts";
 * const run = { runtime: "deno", run: 0, validResponses: 90, totalResponses: 100, sentRequests: 104 };
 * const checks = sideEffectChecks(run, { what: "queries counted", actual: 103, inFlight: 1, tolerance: 0 });
 * console.log(checks.every((c) => c.passed)); // true
 * ```
 */
export function sideEffectChecks(run: AfterRunContext, rule: SideEffectRule): Check[] {
  const perRequest = rule.perRequest ?? 1;
  const effects = (requests: number) => requests * perRequest + (rule.offset ?? 0);
  const expected = effects(run.totalResponses);
  const unanswered = unansweredRequests(run, rule.inFlight);
  const beyond = rule.actual - expected;
  const low = rule.actual >= expected * (1 - rule.tolerance);
  const high = beyond <= unanswered * perRequest + expected * rule.tolerance;
  return [
    { name: `run ${run.run + 1}: ${rule.what} vs expected`, passed: low && high, expected, actual: rule.actual },
    {
      name: `run ${run.run + 1}: ${rule.what} for requests sent but not answered (at most)`,
      passed: high,
      expected: unanswered * perRequest,
      actual: beyond,
    },
  ];
}
