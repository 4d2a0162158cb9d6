/**
 * One judgement of a run's accounting for every kind that loads a server
 * (HTTP and WebSocket, closed and open model): what makes a record
 * `invalid`, and what leaves it `completed` with a warning that names it.
 *
 * - an answer nobody asked for (a response or echo with no request in
 *   flight) is a protocol violation: invalid, whatever the count;
 * - connections the server never served (waiting for their first answer
 *   when the window opened, and none within the larger of the planned hung
 *   bound and twice the window's median answer after it opened), more than
 *   {@linkcode NEVER_ANSWERED_LIMIT_PERCENT}% of the load's: invalid; fewer:
 *   a `never-answered` warning. They are judged by this rule alone, never as
 *   hung: whether a request is hung depends on a bound that one late answer
 *   elsewhere raises, and a verdict must not depend on when one answer comes;
 * - a hung connection (closed model: a request outstanding past the hung
 *   bound after the window closed, or timed out within it): invalid;
 * - connections the server closed while in use, more than
 *   {@linkcode DROPPED_LIMIT_PERCENT}% of the answers: invalid; fewer: a
 *   `dropped-connections` warning;
 * - requests never answered, more than {@linkcode UNANSWERED_LIMIT_PERCENT}%:
 *   invalid; fewer: an `unanswered` warning (each is in the latency at no
 *   less than the timeout, so the percentiles it reaches print as ≥).
 *
 * @module
 */

import type { RunAccounting, Warning } from "../schema/mod.ts";

/** Unanswered requests, as a percentage of the window's, past which a record is invalid. */
export const UNANSWERED_LIMIT_PERCENT = 1;
/** Connections the server closed while in use, as a percentage of the answers, past which a record is invalid. */
export const DROPPED_LIMIT_PERCENT = 1;
/** Connections never answered, as a percentage of the load's, past which a record is invalid. */
export const NEVER_ANSWERED_LIMIT_PERCENT = 1;

/** What a run's accounting makes of its record: why it is invalid (or null), and the warnings to add. */
export interface AccountingVerdict {
  readonly invalid: string | null;
  readonly warnings: readonly Warning[];
}

const percent = (part: number, whole: number) => whole > 0 ? part / whole * 100 : 0;
const shown = (p: number) => p < 0.1 && p > 0 ? p.toFixed(3) : p.toFixed(1);

/**
 * Of the hung connections, those never answered since they opened, while the server answered others: it never served
 * them. A server that takes in new connections slower than they come leaves them in the kernel's accept queue, their
 * first request written by the client and unread (Node.js 20's libuv accepts one connection per event-loop turn).
 */
function neverServed(a: RunAccounting, answered: number): string {
  const n = a.hungNeverAnswered ?? 0;
  if (n === 0) return "";
  const others = answered > 0 ? `, while it answered ${answered} on the others` : "";
  return `; ${n} of them never had an answer since they opened: the server did not serve them${others} (a server ` +
    "that takes in new connections slower than they come leaves them waiting in the kernel's accept queue)";
}

/**
 * Judges run `run`'s accounting; `noun` names what was sent.
 *
 * @param a The run's accounting.
 * @param run The run, from 0.
 * @param noun `requests` or `messages`.
 * @returns Why the record is invalid (the first rule broken), or null, and its warnings.
 *
 * @example A server that answered twice
 * ```ts
 * import { assertMatch } from "@std/assert";
 * import { judgeAccounting } from "./accounting.ts";
 *
 * const verdict = judgeAccounting({
 *   requests: 1000, unanswered: 0, unansweredPercent: 0, notSent: 0, unasked: 3, hungConnections: 0,
 *   droppedConnections: 0, idleCloses: 0, reconnects: 0, reconnectMs: 0, outstandingAtEnd: 10,
 *   hungAfterMs: 1000, timeoutMs: 10_000,
 * }, 0, "requests");
 * assertMatch(verdict.invalid!, /^3 answers came with no request in flight/);
 * ```
 */
export function judgeAccounting(a: RunAccounting, run: number, noun: "requests" | "messages"): AccountingVerdict {
  const one = noun.slice(0, -1);
  const answered = a.requests - a.unanswered;
  const dropped = percent(a.droppedConnections, answered);
  const never = neverAnswered(a);
  const rules: [boolean, string][] = [
    [
      a.unasked > 0,
      `${a.unasked} answers came with no ${one} in flight (the server answered more than was asked): protocol ` +
      "violations, counted in no figure",
    ],
    [
      never.percent > NEVER_ANSWERED_LIMIT_PERCENT,
      `${never.text}, over the ${NEVER_ANSWERED_LIMIT_PERCENT}% limit: the server never served them, so the figures ` +
      `describe the other ${never.served} (a server that takes in new connections slower than they come leaves them ` +
      "waiting in the kernel's accept queue)",
    ],
    [
      a.hungConnections > 0,
      `${a.hungConnections} connections hung: a ${one} unanswered for longer than ${a.hungAfterMs / 1000} s (timed ` +
      "out in the window, or still out that long after it closed)" + neverServed(a, answered),
    ],
    [
      dropped > DROPPED_LIMIT_PERCENT,
      `the server closed ${a.droppedConnections} connections in use (${shown(dropped)}% of ${answered} answers, ` +
      `over the ${DROPPED_LIMIT_PERCENT}% limit)`,
    ],
    [
      a.unansweredPercent > UNANSWERED_LIMIT_PERCENT,
      `${a.unanswered} of ${a.requests} ${noun} (${shown(a.unansweredPercent)}%) went unanswered, over the ` +
      `${UNANSWERED_LIMIT_PERCENT}% limit: timed out (--timeout ${a.timeoutMs / 1000} s), lost with a closed ` +
      "connection or never sent",
    ],
  ];
  const broken = rules.find(([bad]) => bad);
  return { invalid: broken ? `${broken[1]} under load` : null, warnings: accountingWarnings(a, run, noun) };
}

/** The connections never answered: their share of the load's, and a phrase naming both counts. */
function neverAnswered(a: RunAccounting): { percent: number; served: number; text: string } {
  const n = a.neverAnsweredConnections ?? 0;
  const all = Math.max(n, a.connections ?? 0);
  const p = percent(n, all);
  return {
    percent: p,
    served: all - n,
    text: `${n} of ${all} connections (${shown(p)}%) had no first answer within the larger of the planned hung ` +
      "bound and twice the median answer after the window opened",
  };
}

/** The warnings a run's accounting carries when it stays within the limits. */
function accountingWarnings(a: RunAccounting, run: number, noun: string): Warning[] {
  const warnings: Warning[] = [];
  const never = neverAnswered(a);
  if (never.percent > 0) {
    warnings.push({
      code: "never-answered",
      message: `run ${run + 1}: ${never.text}: the server never served them, and the figures describe the other ` +
        `${never.served}`,
    });
  }
  if (a.unanswered > 0) {
    warnings.push({
      code: "unanswered",
      message: `run ${run + 1}: ${a.unanswered} of ${a.requests} ${noun} (${shown(a.unansweredPercent)}%) went ` +
        `unanswered; each is in the latency at no less than the timeout (${a.timeoutMs / 1000} s), so ` +
        "percentiles that reach it are lower bounds (≥)",
    });
  }
  if (a.droppedConnections > 0) {
    warnings.push({
      code: "dropped-connections",
      message: `run ${run + 1}: the server closed ${a.droppedConnections} connections in use; ${a.reconnects} ` +
        `reconnects (${Math.round(a.reconnectMs)} ms closed in all, not counted as server time)`,
    });
  }
  return warnings;
}

/**
 * The one rule a load generator without the accounting can be held to (wrk, oha, bombardier, autocannon, Locust): its
 * failed requests (connection errors, timeouts, bytes it could not read as a response) are requests left unanswered,
 * and past {@linkcode UNANSWERED_LIMIT_PERCENT}% of all it sent the record is invalid, as the engine's would be. What
 * such a generator cannot see (answers nobody asked for, requests still out at the end) its record's `unaccounted`
 * warning says.
 *
 * @param errors Requests that failed under load.
 * @param answered Requests answered, valid or not.
 * @param generator The generator's name.
 * @returns Why the record is invalid, or null.
 *
 * @example One request in twenty failed
 * ```ts
 * import { assertMatch } from "@std/assert";
 * import { judgeFailures } from "./accounting.ts";
 *
 * assertMatch(judgeFailures(50, 950, "wrk")!, /^50 of 1000 requests \(5\.0%\) failed/);
 * ```
 */
export function judgeFailures(errors: number, answered: number, generator: string): string | null {
  const share = percent(errors, errors + answered);
  if (share <= UNANSWERED_LIMIT_PERCENT) return null;
  return `${errors} of ${errors + answered} requests (${shown(share)}%) failed (connection errors, timeouts, bytes ` +
    `that were no response), over the ${UNANSWERED_LIMIT_PERCENT}% limit for requests left unanswered; ${generator} ` +
    "reports no more than that (see loadGenerator.accountsForRequests) under load";
}
