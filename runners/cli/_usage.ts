// Bad input on the command line, without the measuring layers: the reading commands (report, compare, trend) and the
// flag parser throw this, and every command recognises bad input by name, so the library's own UsageError and
// RequestError (runners/platform/errors.ts) count as bad input too, whichever module defines them.

/** Bad input: an unknown flag or command, a value out of range, an unreadable file; the message names it. */
export class UsageError extends TypeError {
  /**
   * @param message Names the flag or file and what is allowed.
   * @param options The error's cause, when there is one.
   */
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = "UsageError";
  }
}

/** The names bad input goes by: this module's error, the library's, and the library's error about a request field. */
const USAGE_NAMES: ReadonlySet<string> = new Set(["UsageError", "RequestError"]);

/** Whether `error` is bad input (exit 2, one line): a usage error of the command line or of the library. */
export function isUsageError(error: unknown): error is TypeError {
  return error instanceof TypeError && USAGE_NAMES.has(error.name);
}
