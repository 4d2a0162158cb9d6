/**
 * A closed-model run long enough to rank: when a run counts fewer than
 * `MIN_COUNTED_RESPONSES` valid responses (a slow workload such as bcrypt, or
 * a server slower than the window, which counts none), it is measured again,
 * on a fresh server (no work left over from the short attempt), over a longer
 * window; the short attempt's work stays in the run's accounting. A slow
 * server is then a result with its long latency, not an error; a server that
 * gives no response within the request timeout still ends the run.
 *
 * @module
 */

import { MAX_WINDOW_SEC, MIN_COUNTED_RESPONSES, windowToCount } from "../stats/mod.ts";
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
 * import { longerWindow } from "./long_enough.ts";
 * const settings = { durationSec: 2, requestTimeoutSec: 30 } as never;
 * const m = { durationMs: 2000, validResponses: 22, errors: 0, mismatches: 0, non2xx: 0 } as never;
 * console.log(longerWindow(settings, m, 0)); // 11
 * ```
 */
export function longerWindow(settings: RunSettings, m: LoadMeasurement, attempts: number): number | null {
  if (settings.rate !== undefined || settings.phases || settings.sweep || attempts >= RETRIES) return null;
  if (m.mismatches > 0 || m.non2xx > 0) return null;
  const sec = windowToCount(m, settings.requestTimeoutSec);
  return sec !== null && sec * 1000 > m.durationMs ? sec : null;
}

/**
 * The record's warning for a run measured again: what each short attempt counted, and the window that stood.
 *
 * @example
 * ```ts
 * import { windowWarning } from "./long_enough.ts";
 * const short = { durationMs: 2000, validResponses: 22 } as never;
 * const long = { durationMs: 11000, validResponses: 121 } as never;
 * console.log(windowWarning(0, [short], long).code); // window-extended
 * ```
 */
export function windowWarning(run: number, earlier: readonly LoadMeasurement[], last: LoadMeasurement): Warning {
  const counted = earlier.map((m) => `${m.validResponses} in ${m.durationMs / 1000} s`).join(", then ");
  const none = earlier[0]?.validResponses === 0;
  return {
    code: "window-extended",
    message: `run ${run + 1}: ${counted} valid responses: measured again on a fresh server over ` +
      `${last.durationMs / 1000} s (${last.validResponses} valid responses); rtbench counts at least ` +
      `${MIN_COUNTED_RESPONSES} responses a run (windows up to ${MAX_WINDOW_SEC} s) so that counting does not round ` +
      `the figure${none ? ", and a server slower than the window is measured, not failed" : ""}`,
  };
}
