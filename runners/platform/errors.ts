/**
 * Errors that mean "the user asked for something that cannot be": the CLI
 * prints their message on one line and exits 2.
 *
 * @module
 */

/**
 * Bad input: an unknown flag or workload, a value out of range, an unreadable
 * file. The message names the flag or file and what is allowed.
 *
 * @example Reject a bad flag value
 * ```ts
 * import { UsageError } from "./errors.ts";
 * const error = new UsageError("--connections must be a whole number ≥ 1, got 0");
 * console.log(error instanceof TypeError); // true
 * ```
 */
export class UsageError extends TypeError {
  /**
   * Creates the error; `message` names the flag or file and the allowed values.
   *
   * @param message Names the flag or file and what is allowed.
   * @param options The error's cause, when there is one.
   */
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = "UsageError";
  }
}

/**
 * Bad input to the library, naming the field of the request it is about
 * (`settings.durationSec`, `runtimes`, `hosts.server`) rather than a flag:
 * the command line renders the same error with its flags' names
 * ({@linkcode RequestError.describe}).
 *
 * @example The same error, for a library user and for the command line
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { RequestError } from "./errors.ts";
 *
 * const error = new RequestError("settings.maxRuns", "must be ≥ {settings.minRuns} (5), got 3");
 * assertEquals(error.message, "settings.maxRuns must be ≥ settings.minRuns (5), got 3");
 * const flags: Record<string, string> = { "settings.maxRuns": "--max-runs", "settings.minRuns": "--min-runs" };
 * assertEquals(error.describe((field) => flags[field]), "--max-runs must be ≥ --min-runs (5), got 3");
 * ```
 */
export class RequestError extends UsageError {
  /** The field the error is about, as a path into the request (`settings.durationSec`). */
  readonly field: string;
  /** What is wrong, after the field's name; `{field}` stands for another field's name. */
  readonly problem: string;

  /**
   * Creates the error.
   *
   * @param field The field it is about (`settings.durationSec`, `options.bcrypt-cost`, `hosts.server`).
   * @param problem What is wrong, read after the field's name (`must be a number > 0, got -1`, or `: why`);
   *   `{other.field}` names another field.
   * @param options The error's cause, when there is one.
   */
  constructor(field: string, problem: string, options?: ErrorOptions) {
    super(describeProblem(field, problem, (f) => f), options);
    this.name = "RequestError";
    this.field = field;
    this.problem = problem;
  }

  /**
   * The message with every field named by `name` (the command line passes its flags' names).
   *
   * @param name A field's name for the reader; unknown fields may be returned as they are.
   * @returns One line: the field's name, then the problem.
   *
   * @example Name a field by its flag
   * ```ts
   * import { assertEquals } from "@std/assert";
   * import { RequestError } from "./errors.ts";
   *
   * const error = new RequestError("settings.runs", "must be a whole number ≥ 1, got 0");
   * assertEquals(error.describe((f) => (f === "settings.runs" ? "--runs" : f)), "--runs must be a whole number ≥ 1, got 0");
   * ```
   */
  describe(name: (field: string) => string): string {
    return describeProblem(this.field, this.problem, name);
  }
}

function describeProblem(field: string, problem: string, name: (field: string) => string): string {
  const text = problem.replace(/\{([\w.-]+)\}/g, (_, f: string) => name(f)).trimStart();
  return `${name(field)}${/^[:,]/.test(text) ? "" : " "}${text}`;
}
