/**
 * A closed-model run long enough to rank: when a run counts fewer than
 * `MIN_COUNTED_RESPONSES` valid responses, or `MIN_COUNTED_OVER_SPAN` where its
 * rate is over the counted responses' span (a slow workload such as bcrypt, or
 * a server slower than the window, which counts none), it is measured again,
 * on a fresh server (no work left over from the short attempt), over a longer
 * window, and with the request timeout the server's answer to one request
 * alone predicts for the load's requests in flight (a run whose every request
 * timed out is measured again with it too); the short attempt's work stays in
 * the run's accounting. A slow server is then a result with its long latency,
 * not an error; a server that gives no response within that timeout still
 * ends the run.
 *
 * @module
 */

import { formatSeconds } from "../stats/mod.ts";
import { MAX_WINDOW_SEC, MIN_COUNTED_OVER_SPAN, MIN_COUNTED_RESPONSES, windowToCount } from "../samples/mod.ts";
import type { LoadMeasurement } from "../drivers/mod.ts";
import type { RunSettings, Warning } from "../schema/mod.ts";

/**
 * Attempts after the first, each over a longer window than the one before: the second usually counts enough; more
 * cover a first that counted none, and a busy machine whose rate fell between attempts.
 */
const RETRIES = 4;

/**
 * The window (seconds) to measure the run again over, or null when this attempt stands: it counted enough, it
 * answered wrongly (invalid whatever its length), it is an open-model run or a sweep (latency at a rate, not a
 * count), the attempts are used up, or the window would not grow.
 *
 * @param settings The settings the attempt ran with.
 * @param m What it measured.
 * @param attempts Attempts made before it.
 * @returns Seconds, or null.
 *
 * @example 22 valid responses in 2 s: again over 11 s
 * ```ts
 * import { longerWindow } from "./window_extension.ts";
 * const settings = { durationSec: 2, requestTimeoutSec: 30 } as never;
 * const m = { durationMs: 2000, validResponses: 22, errors: 0, mismatches: 0, non2xx: 0 } as never;
 * console.log(longerWindow(settings, m, 0)); // 11
 * ```
 */
export function longerWindow(
  settings: RunSettings,
  m: LoadMeasurement,
  attempts: number,
  neededTimeoutSec: number = settings.requestTimeoutSec,
): number | null {
  if (settings.rate !== undefined || settings.phases || settings.sweep || attempts >= RETRIES) return null;
  if (m.mismatches > 0 || m.non2xx > 0) return null;
  const timeoutSec = Math.max(settings.requestTimeoutSec, neededTimeoutSec);
  // Nothing answered, every failure a timeout, and one request alone predicts a longer wait than the timeout: a slow
  // server cut off, measured again with that timeout (a connection error, or no longer timeout to give, ends it).
  const cutOff = m.validResponses === 0 && m.timeouts > 0 && m.errors <= m.timeouts;
  if (cutOff && timeoutSec > settings.requestTimeoutSec) {
    return Math.min(MAX_WINDOW_SEC, Math.max(2 * m.durationMs / 1000, timeoutSec));
  }
  const sec = windowToCount(m, timeoutSec);
  return sec !== null && sec * 1000 > m.durationMs ? sec : null;
}

/**
 * The record's warning for a run measured again: what each short attempt counted, and the window that stood.
 *
 * @example
 * ```ts
 * import { windowWarning } from "./window_extension.ts";
 * const short = { durationMs: 2000, validResponses: 22 } as never;
 * const long = { durationMs: 11000, validResponses: 121 } as never;
 * console.log(windowWarning(0, [short], long).code); // window-extended
 * ```
 */
export function windowWarning(run: number, earlier: readonly LoadMeasurement[], last: LoadMeasurement): Warning {
  const counted = earlier.map((m) => `${m.validResponses} in ${formatSeconds(m.durationMs)}`).join(", then ");
  const none = earlier[0]?.validResponses === 0;
  return {
    code: "window-extended",
    message: `run ${run + 1}: ${counted} valid responses: measured again on a fresh server over ` +
      `${formatSeconds(last.durationMs)} (${last.validResponses} valid responses); rtbench counts at least ` +
      `${MIN_COUNTED_RESPONSES} responses a run (${MIN_COUNTED_OVER_SPAN} where the rate is over their span; windows up ` +
      `to ${MAX_WINDOW_SEC} s) so that counting does not round ` +
      `the figure${none ? ", and a server slower than the window is measured, not failed" : ""}`,
  };
}

/** The longest request timeout {@linkcode loadTimeoutSec} gives (the most `--timeout` accepts). */
const MAX_TIMEOUT_SEC = 3600;

/**
 * How many requests' time a load's slowest answer may wait for, per connection: a closed-model server that does one
 * request at a time answers each after the others' (one a connection), after up to as many more left queued by the
 * warm-up, and after requests a client sent again when one timed out (autocannon does; with 3 here, a fifth to a
 * quarter of bcryptjs's requests at 100 connections under autocannon still timed out, with 10 none did).
 */
const QUEUED_PER_CONNECTION = 10;

/**
 * The request timeout a load needs, in seconds: the one asked for, or longer when the server's answer to one request
 * alone predicts a longer wait under the load's requests in flight (see {@linkcode QUEUED_PER_CONNECTION}). A run that
 * counted too few responses, or none because every request timed out, is measured again with it, so that a slow
 * server's latency is measured instead of cut off (a cut-off request is sent again and queues more work). Bounded by
 * what the server showed: a server that answers nothing under load still fails.
 *
 * @param requestTimeoutSec The request timeout asked for (`--timeout`).
 * @param inFlight Requests the load keeps in flight: connections × pipelining.
 * @param aloneMs The slowest of the server's answers to one request alone (verification's).
 * @returns Seconds.
 *
 * @example bcryptjs: 300 ms a hash alone, 100 connections: 10 × 100 × 0.3 s = 300 s, above the 10 s asked for
 * ```ts
 * import { loadTimeoutSec } from "./window_extension.ts";
 * console.log(loadTimeoutSec(10, 100, 300), loadTimeoutSec(10, 100, 2)); // 300 10
 * ```
 */
export function loadTimeoutSec(requestTimeoutSec: number, inFlight: number, aloneMs: number): number {
  const predicted = Math.ceil(QUEUED_PER_CONNECTION * inFlight * aloneMs / 1000);
  return Math.min(MAX_TIMEOUT_SEC, Math.max(requestTimeoutSec, predicted));
}

/**
 * The record's warning for a run measured again with a longer request timeout.
 *
 * @example
 * ```ts
 * import { timeoutWarning } from "./window_extension.ts";
 * const settings = { requestTimeoutSec: 10, connections: 100, pipelining: 1 } as never;
 * console.log(timeoutWarning(0, settings, 90, 300).code); // request-timeout-raised
 * ```
 */
export function timeoutWarning(run: number, settings: RunSettings, usedSec: number, aloneMs: number): Warning {
  const inFlight = settings.connections * settings.pipelining;
  const ms = Math.round(aloneMs);
  return {
    code: "request-timeout-raised",
    message:
      `run ${run + 1}: measured again with a request timeout of ${usedSec} s, not ${settings.requestTimeoutSec} s: ` +
      `one request alone took ${ms} ms, and ${inFlight} requests in flight (with up to as many left by the warm-up) ` +
      `can wait ${QUEUED_PER_CONNECTION} × ${inFlight} × ${ms} ms; a slow server is measured, not cut off`,
  };
}
