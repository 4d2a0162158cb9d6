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
