/**
 * Temporary files and directories rtbench creates, tracked so that every exit
 * path removes them: `removeTemp` on the normal path, `removeAllTempsSync` when
 * the harness leaves early (a signal, an uncaught error), and the children
 * reaper when the harness is killed outright.
 *
 * @module
 */

import { tellReaper } from "./_process.ts";

const owned = new Set<string>();

/** Options of {@linkcode makeTempDir} and {@linkcode makeTempFile}. */
export interface TempOptions {
  /** Name prefix; must start with `rtbench-` (or `.` for staging directories in the cache). */
  readonly prefix: string;
  /** File name suffix. */
  readonly suffix?: string;
  /** Parent directory. @default {the system's temporary directory (TMPDIR)} */
  readonly dir?: string;
}

function own(path: string): string {
  owned.add(path);
  tellReaper({ path });
  return path;
}

/**
 * Creates a private temporary directory that rtbench removes at exit, however it exits.
 *
 * @example
 * ```ts ignore
 * import { makeTempDir, removeTemp } from "./_temp.ts";
 * const dir = await makeTempDir({ prefix: "rtbench-example-" });
 * await removeTemp(dir);
 * ```
 */
export async function makeTempDir(options: TempOptions): Promise<string> {
  return own(await Deno.makeTempDir(options));
}

/**
 * Creates a temporary file that rtbench removes at exit, however it exits.
 *
 * @example
 * ```ts ignore
 * import { makeTempFile, removeTemp } from "./_temp.ts";
 * const file = await makeTempFile({ prefix: "rtbench-example-", suffix: ".lua" });
 * await removeTemp(file);
 * ```
 */
export async function makeTempFile(options: TempOptions): Promise<string> {
  return own(await Deno.makeTempFile(options));
}

/**
 * Removes a temporary path made by {@linkcode makeTempDir} or
 * {@linkcode makeTempFile} (recursively); a path already gone is fine.
 *
 * @example
 * ```ts ignore
 * import { makeTempDir, removeTemp } from "./_temp.ts";
 * await removeTemp(await makeTempDir({ prefix: "rtbench-example-" }));
 * ```
 */
export async function removeTemp(path: string): Promise<void> {
  await Deno.remove(path, { recursive: true }).catch(() => {/* already gone */});
  // Forgotten only once gone, so that an exit during the removal still removes it.
  if (owned.delete(path)) tellReaper({ removed: path });
}

/**
 * Removes every temporary path still owned, synchronously; for exit paths
 * that cannot wait (a signal, an uncaught error).
 *
 * @example
 * ```ts ignore
 * import { removeAllTempsSync } from "./_temp.ts";
 * removeAllTempsSync();
 * ```
 */
export function removeAllTempsSync(): void {
  for (const path of owned) {
    try {
      Deno.removeSync(path, { recursive: true });
    } catch {
      // Already gone.
    }
    owned.delete(path);
    tellReaper({ removed: path });
  }
}

/** Temporary paths currently owned, for tests. */
export function ownedTemps(): string[] {
  return [...owned];
}
