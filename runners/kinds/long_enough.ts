/**
 * A closed-model measurement long enough to rank: when a run counts fewer
 * than `MIN_COUNTED_RESPONSES` valid responses (a slow workload such as
 * bcrypt, or a server slower than the window, which counts none), the same
 * running server is measured again over a longer window; the short attempt
 * served as warm-up, and its work stays in the run's accounting. A slow
 * server is then a result with its long latency, not an error; a server that
 * gives no response at all still ends the run.
 *
 * @module
 */

import { MAX_WINDOW_SEC, MIN_COUNTED_RESPONSES, windowToCount } from "../stats/counted_rate.ts";
import type { LoadGenerator, LoadMeasurement, LoadRunOptions, LoadTarget } from "../drivers/types.ts";
import type { RunSettings, Warning } from "../schema/result.ts";

/** A measurement, with the shorter attempts before it (their work is the server's, their counts are not samples). */
export interface LongEnough {
  /** The measurement the run reports. */
  readonly measurement: LoadMeasurement;
  /** Earlier attempts on the same server, oldest first. */
  readonly earlier: readonly LoadMeasurement[];
  /** Why the window was extended, for the record; null when the first attempt stood. */
  readonly warning: Warning | null;
}

/**
 * Attempts after the first, each over a longer window than the one before: the second usually counts enough; more
 * cover a first that counted none, and a busy machine whose rate fell between attempts.
 */
const RETRIES = 4;

/**
 * Measures with `generator`, then again over a longer window while the run counts too few valid responses.
 * Open-model runs (a rate or phases) stand as they are: their figure is latency at a rate, not a count.
 *
 * @param generator The record's load generator.
 * @param target The server and its traffic.
 * @param settings The record's settings; `durationSec` is the first window.
 * @param options Pinning, signal and spawned processes, passed to every attempt.
 * @param run The run, from 0, for the warning.
 * @returns The last attempt, the ones before it, and a warning when there were any.
 *
 * @example
 * ```ts ignore
 * import { measureLongEnough } from "./long_enough.ts";
 * const { measurement, earlier } = await measureLongEnough(generator, target, settings, options, 0);
 * ```
 */
export async function measureLongEnough(
  generator: LoadGenerator,
  target: LoadTarget,
  settings: RunSettings,
  options: LoadRunOptions,
  run: number,
): Promise<LongEnough> {
  let measurement = await generator.run(target, settings, options);
  if (settings.rate !== undefined || settings.phases) return { measurement, earlier: [], warning: null };
  const earlier: LoadMeasurement[] = [];
  for (let i = 0; i < RETRIES; i++) {
    // A wrong answer makes the run invalid whatever its length.
    if (measurement.mismatches > 0 || measurement.non2xx > 0) break;
    const sec = windowToCount(measurement, settings.requestTimeoutSec);
    if (sec === null || sec * 1000 <= measurement.durationMs) break;
    options.signal?.throwIfAborted();
    earlier.push(measurement);
    measurement = await generator.run(target, { ...settings, durationSec: sec }, options);
  }
  if (earlier.length === 0) return { measurement, earlier, warning: null };
  const first = earlier[0];
  const counted = earlier.map((m) => `${m.validResponses} in ${m.durationMs / 1000} s`).join(", then ");
  return {
    measurement,
    earlier,
    warning: {
      code: "window-extended",
      message: `run ${run + 1}: ${counted}: measured again on the same server over ` +
        `${measurement.durationMs / 1000} s (${measurement.validResponses} valid responses); rtbench counts at ` +
        `least ${MIN_COUNTED_RESPONSES} responses a run (windows up to ${MAX_WINDOW_SEC} s) so that counting does ` +
        `not round the figure${first.validResponses === 0 ? ", and a server slower than the window is measured" : ""}`,
    },
  };
}
