/**
 * How a record ends early: skipped (the runtime cannot do the variant),
 * errored in a named phase, or invalid (the server answered, but wrongly).
 * Every kind and the suite throw and catch these.
 *
 * @module
 */

import type { Check, Phase } from "../schema/mod.ts";

/** Thrown by a kind runner when the runtime cannot do this workload or variant. */
export class SkipRecord extends Error {
  /** Creates the signal; `reason` is recorded as the skip reason. */
  constructor(reason: string) {
    super(reason);
    this.name = "SkipRecord";
  }
}

/** A record failed: `errored` (something broke) in a phase. */
export class PhaseError extends Error {
  /** Phase the record was in. */
  readonly phase: Phase;
  /** Creates the error; `cause` keeps the original error. */
  constructor(phase: Phase, message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = "PhaseError";
    this.phase = phase;
  }
}

/** A record is `invalid`: the server answered, but not what the workload demands. */
export class InvalidError extends PhaseError {
  /** Creates the error. */
  constructor(phase: Phase, message: string) {
    super(phase, message);
    this.name = "InvalidError";
  }
}

/**
 * Runs `fn`, turning any failure that is not already a {@linkcode PhaseError}
 * into one for `phase`. Interruptions (AbortError) pass through unchanged.
 */
export async function inPhase<T>(phase: Phase, fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (error) {
    if (error instanceof PhaseError || (error instanceof DOMException && error.name === "AbortError")) throw error;
    throw new PhaseError(phase, error instanceof Error ? error.message : String(error), { cause: error });
  }
}

/** One line naming every failed check, for an error message. */
export function describeFailures(checks: readonly Check[]): string {
  return checks.filter((c) => !c.passed).map((c) => {
    const seen = c.actual === undefined ? "" : `: got ${JSON.stringify(c.actual)}`;
    const want = c.expected === undefined ? "" : `, expected ${JSON.stringify(c.expected)}`;
    return `${c.name}${seen}${want}`;
  }).join("; ");
}

/**
 * Keeps a run's checks on the record — every check of the record's first
 * checked run, only the failed ones of later runs — and throws an
 * {@linkcode InvalidError} in `phase` when one failed.
 *
 * @param outcome Where the record's checks are kept.
 * @param checks This run's checks.
 * @param first Whether this is the first run whose checks the record keeps.
 * @param phase The phase a failure makes the record invalid in.
 * @param describe Turns the failures' description into the error message.
 *
 * @example A failed check ends the record
 * ```ts
 * import { assertThrows } from "@std/assert";
 * import { InvalidError, keepChecks } from "./errors.ts";
 *
 * const outcome = { checks: [] };
 * assertThrows(() => keepChecks(outcome, [{ name: "body", passed: false }], true, "verify"), InvalidError, "body");
 * ```
 */
export function keepChecks(
  outcome: { checks: Check[] },
  checks: readonly Check[],
  first: boolean,
  phase: Phase,
  describe: (failures: string) => string = (failures) => failures,
): void {
  const failed = checks.filter((c) => !c.passed);
  outcome.checks.push(...(first ? checks : failed));
  if (failed.length > 0) throw new InvalidError(phase, describe(describeFailures(failed)));
}
