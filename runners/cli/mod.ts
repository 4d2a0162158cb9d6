/**
 * What the command line shares with the development tools (`runners/dev/`):
 * the one flag parser, the flag names of `run()`'s request, and the checks of
 * the files a command writes. The commands themselves are `main.ts`.
 *
 * @module
 */

export { type Flags, type FlagSpec, numberFlag, type NumberRule, strictArgs, strictFlags } from "./_flags.ts";
export { flagOf, namingFlags, SETTING_FLAGS, withFlagNames } from "./_flag_names.ts";
export { checkWritable, removeEmptyFolders } from "./_out.ts";
export { isUsageError, UsageError } from "./_usage.ts";
