/**
 * Time limits for the phases of a record that have no flag of their own, so
 * that no workload hook can hang a suite. Requests have `--timeout`, server
 * start `--start-timeout`, and every load generator a budget of warm-up +
 * duration + `--timeout` + a margin; a workload's hooks get these.
 *
 * @module
 */

import type { Phase } from "../schema/mod.ts";
import { PhaseError } from "./errors.ts";

/**
 * Seconds per workload hook; see {@linkcode HOOK_TIMEOUTS_SEC}.
 *
 * @example Give a slow database setup more time
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { HOOK_TIMEOUTS_SEC, type HookTimeouts } from "@rtbench/rtbench/runners";
 *
 * const limits: HookTimeouts = { ...HOOK_TIMEOUTS_SEC, setup: 900 };
 * assertEquals(limits.setup, 900);
 * ```
 */
export type HookTimeouts = Record<"setup" | "prepare" | "beforeRun" | "verify" | "afterRun" | "dispose", number>;

/**
 * Seconds each workload hook may take before its record errors in the
 * hook's phase (a hook that never settles is abandoned; the processes it
 * started are stopped with the suite).
 *
 * @example Read the default limit of `setup`
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { HOOK_TIMEOUTS_SEC } from "@rtbench/rtbench/runners";
 *
 * assertEquals(HOOK_TIMEOUTS_SEC.setup, 300);
 * ```
 */
export const HOOK_TIMEOUTS_SEC: Readonly<HookTimeouts> = {
  /** `setup`: once per variant (starting a database, seeding it). */
  setup: 300,
  /** A process workload's `prepare` (staging files, an untimed install). */
  prepare: 300,
  /** `beforeRun`, before each run's server starts (reading a counter, resetting a cache). */
  beforeRun: 120,
  /** A workload's and its session's `verify`, beyond `--timeout` per request they send. */
  verify: 60,
  /** `afterRun` checks, with the server stopped. */
  afterRun: 120,
  /** `dispose`: releasing what `setup` or `prepare` acquired. */
  dispose: 60,
};

/**
 * The hook limits in effect: the defaults, with `overrides` (from
 * `run({ hookTimeoutsSec })`) over them.
 *
 * @example
 * ```ts
 * import { hookTimeouts } from "./timeouts.ts";
 * console.log(hookTimeouts({ setup: 5 }).setup); // 5
 * ```
 */
export function hookTimeouts(overrides?: Partial<HookTimeouts>): HookTimeouts {
  return { ...HOOK_TIMEOUTS_SEC, ...overrides };
}

/**
 * Seconds one run of a process workload may take when its plan sets no `runTimeoutMs`.
 *
 * @example A timed process is stopped after ten minutes by default
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { DEFAULT_RUN_TIMEOUT_SEC } from "@rtbench/rtbench/runners";
 *
 * assertEquals(DEFAULT_RUN_TIMEOUT_SEC, 600);
 * ```
 */
export const DEFAULT_RUN_TIMEOUT_SEC = 600;

/**
 * Runs `fn` in `phase`; when it has not settled within `seconds`, rejects with
 * a {@linkcode PhaseError} naming `what` and the limit. Other failures become
 * PhaseErrors of `phase` too; interruptions pass through.
 *
 * @example
 * ```ts
 * import { withinTime } from "./timeouts.ts";
 * try {
 *   await withinTime("setup", "the workload's setup", 0.01, () => new Promise(() => {}));
 * } catch (e) {
 *   console.log((e as Error).message); // the workload's setup did not finish within 0.01 s
 * }
 * ```
 */
export async function withinTime<T>(phase: Phase, what: string, seconds: number, fn: () => Promise<T>): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const limit = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new PhaseError(phase, `${what} did not finish within ${seconds} s`)),
      seconds * 1000,
    );
  });
  try {
    return await Promise.race([fn(), limit]);
  } catch (error) {
    if (error instanceof PhaseError || (error instanceof DOMException && error.name === "AbortError")) throw error;
    throw new PhaseError(phase, error instanceof Error ? error.message : String(error), { cause: error });
  } finally {
    clearTimeout(timer);
  }
}
