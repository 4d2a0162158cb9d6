// Side effects a server left in the measured window (files created, files deleted) against the window's valid
// responses. Each effect is dated between two moments (see _file_events.ts), each answer by the load process that
// counted it in its own window. Where every load process dated its window on its own clock and counted an answer in
// it by when the answer came, the bounds are exact: a request whose effect fell in a window and whose answer did not
// was in flight at the window's closing or never answered; an answer in a window whose effect came before it was in
// flight at the window's opening. A connection holds `pipelining` requests in flight at a time.

import type { AfterRunContext, Check } from "./types.ts";

/** An effect dated between two moments (epoch ms): it happened after `afterMs` and before `beforeMs`. */
export interface DatedEffect {
  readonly afterMs: number;
  readonly beforeMs: number;
}

/** The effects that surely fell in a window, those that may have, and an estimate of those that did. */
export interface WindowCount {
  /** Surely inside every load process's window. */
  readonly least: number;
  /** Possibly inside any load process's window. */
  readonly most: number;
  /** Inside the window, each dated evenly over its span among the effects that share it: for the figures. */
  readonly estimate: number;
}

/** The engine dates its window to the rounded millisecond: its edges are widened by this much, either way. */
const WINDOW_MS = 1;

type MeasuredWindow = NonNullable<AfterRunContext["window"]>;

/**
 * Counts `effects` in `window`: surely inside all the processes' windows (`least`), possibly inside any (`most`);
 * without the processes' windows, both over the window as the generator dated it.
 *
 * @example Two effects dated within 5 ms, one across the window's opening
 * ```ts
 * import { windowCount } from "./_window_effects.ts";
 * const window = { startMs: 1000, durationMs: 1000, processes: [{ startMs: 1000, durationMs: 1000 }] };
 * const effects = [{ afterMs: 1500, beforeMs: 1505 }, { afterMs: 997, beforeMs: 1002 }];
 * console.log(windowCount(effects, window)); // { least: 1, most: 2, estimate: 2 }
 * ```
 */
export function windowCount(effects: readonly DatedEffect[], window: MeasuredWindow): WindowCount {
  const spans = window.processes?.map((p) => [p.startMs, p.startMs + p.durationMs]) ?? [];
  const [outerFrom, outerTo, innerFrom, innerTo] = spans.length > 0
    ? [
      Math.min(...spans.map(([from]) => from)) - WINDOW_MS,
      Math.max(...spans.map(([, to]) => to)) + WINDOW_MS,
      Math.max(...spans.map(([from]) => from)) + WINDOW_MS,
      Math.min(...spans.map(([, to]) => to)) - WINDOW_MS,
    ]
    : [window.startMs, window.startMs + window.durationMs, window.startMs, window.startMs + window.durationMs];
  let least = 0, most = 0;
  for (const e of effects) {
    if (e.afterMs >= innerFrom && e.beforeMs <= innerTo) least++;
    if (e.beforeMs >= outerFrom && e.afterMs <= outerTo) most++;
  }
  const [from, to] = [window.startMs, window.startMs + window.durationMs];
  const estimate = estimatedTimes(effects).filter((t) => t >= from && t <= to).length;
  return { least, most, estimate };
}

/** Each effect's time, the effects sharing one span spread evenly over it, in order. */
function estimatedTimes(effects: readonly DatedEffect[]): number[] {
  const times: number[] = [];
  for (let i = 0; i < effects.length;) {
    const { afterMs, beforeMs } = effects[i];
    let j = i;
    while (j < effects.length && effects[j].afterMs === afterMs && effects[j].beforeMs === beforeMs) j++;
    for (let k = i; k < j; k++) times.push(afterMs + (beforeMs - afterMs) * (k - i + 0.5) / (j - i));
    i = j;
  }
  return times;
}

/** How a window's effects follow from its requests, for {@linkcode windowEffectCheck}. */
export interface WindowRule {
  /** What is counted, for the check's name: `files created`. */
  readonly what: string;
  /** Requests one load holds in flight at a moment: connections × pipelining. */
  readonly inFlight: number;
  /** Requests of the run sent and never answered (see `unansweredRequests` in _side_effects.ts). */
  readonly unanswered: number;
}

/**
 * The check of a window's effects (one per request) against its valid responses. With each load process's window:
 * passes when the effects may number between the valid responses less those in flight at the windows' openings, and
 * the valid responses plus those in flight at their closings plus the run's unanswered requests. Without: within two
 * requests per connection plus 25% of the estimate (a window dated by rtbench around another tool, not by the tool).
 *
 * @example 5,752 valid responses, 7,764 files dated within a few ms of the window: the window's own are fewer
 * ```ts
 * import { windowEffectCheck } from "./_window_effects.ts";
 * const run = { runtime: "deno", run: 0, validResponses: 5752, totalResponses: 9000 };
 * const rule = { what: "files created", inFlight: 100, unanswered: 0 };
 * const check = windowEffectCheck(run, { least: 5700, most: 5800, estimate: 5750 }, rule, true);
 * console.log(check.passed); // true
 * ```
 */
export function windowEffectCheck(run: AfterRunContext, count: WindowCount, rule: WindowRule, exact: boolean): Check {
  const valid = run.validResponses;
  const what = `run ${run.run + 1}: ${rule.what} in the measured window (inotifywait)`;
  if (!exact) {
    const slack = 2 * rule.inFlight + Math.ceil(valid / 4);
    return {
      name: `${what} match its ${valid} valid responses within ${slack}`,
      passed: Math.abs(count.estimate - valid) <= slack,
      expected: valid,
      actual: count.estimate,
    };
  }
  const [low, high] = [valid - rule.inFlight, valid + rule.inFlight + rule.unanswered];
  return {
    name: `${what} match its ${valid} valid responses, less up to ${rule.inFlight} in flight at its opening, ` +
      `plus up to ${rule.inFlight} in flight at its closing and ${rule.unanswered} never answered`,
    passed: count.most >= low && count.least <= high,
    expected: `${Math.max(0, low)} to ${high}`,
    actual: count.least === count.most ? count.least : `${count.least} to ${count.most}`,
  };
}
