/**
 * What a run's load makes of its record, for the kinds that load a server: the first reason it is `invalid` (wrong
 * answers, then the accounting's rules) or null, and the accounting's warnings. Pure functions of the measurements, so
 * the whole chain from a server's bytes to a verdict is tested on the engine's fake network
 * (tests/unit/accounting_matrix_test.ts) as well as against real servers.
 *
 * @module
 */

import type { LoadMeasurement, WebSocketMeasurement } from "../drivers/mod.ts";
import type { Warning } from "../schema/mod.ts";
import { formatSeconds } from "../stats/mod.ts";
import { type AccountingVerdict, judgeAccounting, judgeFailures } from "./accounting.ts";
import { PhaseError } from "./errors.ts";

const NONE: readonly Warning[] = [];

/**
 * Judges an HTTP run: `m` is its measured window, `all` every load of the run (`m`, a sweep's steps, the fixed-rate
 * window, windows measured before a longer one). Wrong answers in any of them, or an answer nobody asked for, make the
 * record invalid; then the window's accounting is judged, or, for a generator without one, its failed requests.
 *
 * @throws {PhaseError} When the window counted no valid response: nothing was measured.
 *
 * @example A window where every request was answered and checked
 * ```ts ignore
 * const verdict = judgeHttpRun(m, [m], 0, "rtbench");
 * if (verdict.invalid) console.log(verdict.invalid);
 * ```
 */
export function judgeHttpRun(
  m: LoadMeasurement,
  all: readonly LoadMeasurement[],
  run: number,
  generator: string,
): AccountingVerdict {
  const mismatches = sum(all, (x) => x.mismatches);
  const non2xx = sum(all, (x) => x.non2xx);
  if (mismatches > 0 || non2xx > 0) {
    const firstMismatch = all.find((x) => x.firstMismatch)?.firstMismatch;
    const first = firstMismatch ? ` (first: ${firstMismatch})` : "";
    return { invalid: `${mismatches} mismatched and ${non2xx} non-2xx responses under load${first}`, warnings: NONE };
  }
  const unasked = sum(all, (x) => x.accounting?.unasked ?? 0);
  if (unasked > 0 && (m.accounting?.unasked ?? 0) === 0) {
    return {
      invalid: `${unasked} answers came with no request in flight (the server answered more than was asked) under load`,
      warnings: NONE,
    };
  }
  if (m.validResponses === 0) {
    throw new PhaseError("measure", `No valid response in ${formatSeconds(m.durationMs)} (${m.errors} errors)`);
  }
  if (!m.accounting) return { invalid: judgeFailures(m.errors, m.responses, generator), warnings: NONE };
  return judgeAccounting(m.accounting, run, "requests");
}

/**
 * One line naming the wrong echoes and failed handshakes the driver counted, or null when there was none; what was
 * left unanswered, unasked or dropped is judged by the accounting, as for HTTP.
 *
 * @example
 * ```ts ignore
 * describeEchoFailures(m); // "3 mismatched echoes under load (first: …)"
 * ```
 */
export function describeEchoFailures(m: WebSocketMeasurement): string | null {
  const parts = [
    [m.mismatches, "mismatched echoes"],
    [m.failedConnections, "failed connections"],
  ].filter(([n]) => (n as number) > 0).map(([n, what]) => `${n} ${what}`);
  if (parts.length === 0) return null;
  return `${parts.join(", ")} under load` + (m.firstFailure ? ` (first: ${m.firstFailure})` : "");
}

/**
 * Judges a WebSocket run: wrong echoes or failed handshakes, then the accounting past its limits (the same rules as
 * HTTP's).
 *
 * @throws {PhaseError} When no socket connected, or no echo came: nothing was measured.
 *
 * @example
 * ```ts ignore
 * const verdict = judgeEchoRun(m, 0);
 * ```
 */
export function judgeEchoRun(m: WebSocketMeasurement, run: number): AccountingVerdict {
  const failures = describeEchoFailures(m);
  if (failures !== null && m.connected > 0) return { invalid: failures, warnings: NONE };
  if (m.connected === 0) {
    throw new PhaseError("measure", `No socket connected (${m.firstFailure ?? "no reason given"})`);
  }
  if (m.accounting && m.accounting.unasked > 0) {
    return { invalid: judgeAccounting(m.accounting, run, "messages").invalid, warnings: NONE };
  }
  if (m.validMessages === 0) throw new PhaseError("measure", `No echo in ${formatSeconds(m.durationMs)}`);
  if (!m.accounting) return { invalid: null, warnings: NONE };
  return judgeAccounting(m.accounting, run, "messages");
}

function sum<T>(items: readonly T[], of: (item: T) => number): number {
  return items.reduce((a, x) => a + of(x), 0);
}
