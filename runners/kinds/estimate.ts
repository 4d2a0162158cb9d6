/**
 * How long one record of each kind is expected to take, for the progress display's first estimate of a suite (the
 * display then corrects it by the pace of the records that finished). The constants are what a record spent outside
 * its windows in a default suite on a busy 2-core machine (`deno task bench`, 4 min 58 s, the README's sample).
 *
 * @module
 */

import { parsePhases } from "../drivers/mod.ts";
import type { RunSettings } from "../schema/mod.ts";
import { runPlan } from "../stats/mod.ts";
import { atRateSec } from "./cpu_rate.ts";

/**
 * Seconds a served run spends outside its windows: the server's start and verification, the load generator's start,
 * the idle connections' memory after a record's first run and the server's stop. Measured 0.6–1.3 s a run (http-json
 * 0.85 s, bcrypt 1.25 s with its hashes verified in the harness).
 */
const SERVED_RUN_SEC = 0.9;

/**
 * Seconds a process record spends besides its minimum measured time: preparing (a script, a project), warm-ups and
 * judging. Start-up took 1.5 s a record with 1 s measured, fs 2.3–2.5 s with one run, install 0.7–5 s.
 */
const PROCESS_RECORD_SEC = 1.5;

/** Seconds a micro-benchmark run spends besides tinybench's time: the runtime's start with its script (0.15 s here). */
const MICRO_RUN_SEC = 0.15;

/** Seconds a run of a kind without an estimate of its own is taken to spend around its warm-up and window. */
const ANY_RUN_SEC = 1.5;

/**
 * A record of a kind without an estimate of its own: per run, its warm-up and window and 1.5 s around them.
 *
 * @example Three runs of 0.5 s + 1 s
 * ```ts
 * import { runsEstimateSec } from "./estimate.ts";
 * console.log(runsEstimateSec({ runs: 3, warmupSec: 0.5, durationSec: 1 } as never)); // 9
 * ```
 */
export function runsEstimateSec(settings: RunSettings): number {
  return runPlan(settings).min * (settings.warmupSec + settings.durationSec + ANY_RUN_SEC);
}

/**
 * A served record (HTTP, WebSocket): per run, the warm-up and window (a sweep's peak and each of its rates, or the
 * open model's phases), the fixed-rate window of `--cpu-rate` and what a run spends around them.
 *
 * @example http-json in the quick profile: 5 runs of 0.5 s + 1 s, 1.25 s at 20,000/s and 0.9 s around them
 * ```ts
 * import { assertAlmostEquals } from "@std/assert";
 * import { servedEstimateSec } from "./estimate.ts";
 *
 * const settings = { runs: 5, warmupSec: 0.5, durationSec: 1, cpuRate: 20_000 } as never;
 * assertAlmostEquals(servedEstimateSec(settings), 5 * (1.5 + 1.25 + 0.9));
 * ```
 */
export function servedEstimateSec(settings: RunSettings): number {
  const window = settings.warmupSec + settings.durationSec;
  const load = settings.sweep
    ? (1 + (settings.sweepSteps ?? 10)) * window
    : settings.phases
    ? parsePhases(settings.phases).reduce((a, p) => a + p.durationSec, 0)
    : window;
  return runPlan(settings).min * (load + atRateSec(settings) + SERVED_RUN_SEC);
}

/**
 * A process record (start-up, install, fs): its minimum measured time, however many runs fill it, and its preparation.
 *
 * @example Start-up in the quick profile: at least 1 s of runs
 * ```ts
 * import { processEstimateSec } from "./estimate.ts";
 * console.log(processEstimateSec({ runs: 10, warmupSec: 0, durationSec: 1 } as never)); // 2.5
 * ```
 */
export function processEstimateSec(settings: RunSettings): number {
  return settings.durationSec + PROCESS_RECORD_SEC;
}

/**
 * A micro-benchmark record: per run, tinybench's warm-up and time, and the runtime's start.
 *
 * @example Three runs of 0.1 s + 0.5 s
 * ```ts
 * import { assertAlmostEquals } from "@std/assert";
 * import { microEstimateSec } from "./estimate.ts";
 * assertAlmostEquals(microEstimateSec({ runs: 3, warmupSec: 0.1, durationSec: 0.5 } as never), 2.25);
 * ```
 */
export function microEstimateSec(settings: RunSettings): number {
  return runPlan(settings).min * (settings.warmupSec + settings.durationSec + MICRO_RUN_SEC);
}
