// Bad input on the command line, without the measuring layers: the reading commands (report, compare, trend) and the
// flag parser throw the base layer's UsageError, as the library does (its RequestError is one too).

import { UsageError } from "../base/mod.ts";

export { UsageError };

/** Whether `error` is bad input (exit 2, one line): a usage error of the command line or of the library. */
export function isUsageError(error: unknown): error is UsageError {
  return error instanceof UsageError;
}
