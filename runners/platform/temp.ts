/**
 * Temporary files and directories rtbench creates, tracked so that every exit
 * path removes them: `removeTemp` on the normal path, `removeAllTempsSync` when
 * the harness leaves early (a signal, an uncaught error), and the children
 * reaper, which reads them in the process's ledger, when the harness is killed
 * outright.
 *
 * @module
 */

import { recordOwned } from "./ledger.ts";
import { removeTree } from "./remove_tree.ts";

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
  // Absolute, so that the reaper (and any later change of directory) names the same file.
  const absolute = path.startsWith("/") ? path : `${Deno.cwd()}/${path}`;
  owned.add(absolute);
  recordOwned({ path: absolute });
  return absolute;
}

/**
 * Creates a private temporary directory that rtbench removes at exit, however it exits.
 *
 * @example
 * ```ts ignore
 * import { makeTempDir, removeTemp } from "./temp.ts";
 * const dir = await makeTempDir({ prefix: "rtbench-example-" });
 * await removeTemp(dir);
 * ```
 */
export async function makeTempDir(options: TempOptions): Promise<string> {
  const path = reserve(options);
  if (path === null) return own(await Deno.makeTempDir(options));
  await Deno.mkdir(path, { mode: 0o700 });
  return path;
}

/**
 * Creates a temporary file that rtbench removes at exit, however it exits.
 *
 * @example
 * ```ts ignore
 * import { makeTempFile, removeTemp } from "./temp.ts";
 * const file = await makeTempFile({ prefix: "rtbench-example-", suffix: ".lua" });
 * await removeTemp(file);
 * ```
 */
export async function makeTempFile(options: TempOptions): Promise<string> {
  const path = reserve(options);
  if (path === null) return own(await Deno.makeTempFile(options));
  await Deno.writeFile(path, new Uint8Array(), { createNew: true, mode: 0o600 });
  return path;
}

/**
 * Picks a fresh temporary name and records it in the ledger BEFORE the path
 * exists, so that a harness killed at any moment leaves nothing behind; null
 * where TMPDIR cannot be read (no --allow-env), in which case the path is
 * created first and recorded right after.
 */
function reserve(options: TempOptions): string | null {
  let dir = options.dir;
  if (dir === undefined) {
    try {
      dir = Deno.env.get("TMPDIR") || "/tmp";
    } catch {
      return null;
    }
  }
  const random = [...crypto.getRandomValues(new Uint8Array(8))].map((b) => b.toString(16).padStart(2, "0")).join("");
  return own(`${dir}/${options.prefix}${random}${options.suffix ?? ""}`);
}

/**
 * Removes a temporary path made by {@linkcode makeTempDir} or
 * {@linkcode makeTempFile} (recursively); a path already gone is fine.
 *
 * @example
 * ```ts ignore
 * import { makeTempDir, removeTemp } from "./temp.ts";
 * await removeTemp(await makeTempDir({ prefix: "rtbench-example-" }));
 * ```
 */
export async function removeTemp(path: string): Promise<void> {
  await removeTree(path);
  // Forgotten only once gone, so that an exit during the removal still removes it.
  if (owned.delete(path)) recordOwned({ removed: path });
}

/**
 * Owns a path the caller is about to create beside a file it writes (its
 * basename must start with `.rtbench-`), so that an exit before the caller
 * removes or renames it still removes it. Returns the path.
 *
 * @example
 * ```ts ignore
 * import { disownTemp, ownTemp } from "./temp.ts";
 * const tmp = ownTemp(`results/.rtbench-r.json.${Deno.pid}.tmp`);
 * await Deno.writeTextFile(tmp, "{}");
 * await Deno.rename(tmp, "results/r.json");
 * disownTemp(tmp);
 * ```
 */
export function ownTemp(path: string): string {
  if (!/(^|\/)\.rtbench-[^/]*$/.test(path)) throw new RangeError(`Not a temporary sibling: ${path}`);
  return own(path);
}

/**
 * Forgets a path from {@linkcode ownTemp} that is gone or renamed, without touching it.
 *
 * @example
 * ```ts ignore
 * import { disownTemp } from "./temp.ts";
 * disownTemp(`results/.rtbench-r.json.${Deno.pid}.tmp`);
 * ```
 */
export function disownTemp(path: string): void {
  if (owned.delete(path)) recordOwned({ removed: path });
}

/**
 * The temporary files this ledger answers for, as the result writer takes them (`TempOwner` of the schema):
 * {@linkcode ownTemp}, {@linkcode disownTemp}, {@linkcode removeTemp}.
 *
 * @example Write a result whose temporary sibling the ledger owns
 * ```ts ignore
 * import { writeResult } from "../schema/mod.ts";
 * import { tempLedger } from "./temp.ts";
 * await writeResult("results/r.json", result, { temps: tempLedger });
 * ```
 */
export const tempLedger: {
  readonly own: (path: string) => string;
  readonly disown: (path: string) => void;
  readonly remove: (path: string) => Promise<void>;
} = { own: ownTemp, disown: disownTemp, remove: removeTemp };

/**
 * Removes every temporary path still owned, synchronously; for exit paths
 * that cannot wait (a signal, an uncaught error).
 *
 * @example
 * ```ts ignore
 * import { removeAllTempsSync } from "./temp.ts";
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
    recordOwned({ removed: path });
  }
}

/** Temporary paths currently owned, for tests. */
export function ownedTemps(): string[] {
  return [...owned];
}
