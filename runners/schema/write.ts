/**
 * Writes result files atomically (temporary file, then rename) after
 * validating them, so a file on disk is always complete and valid.
 *
 * @module
 */

import type { BenchResult } from "./result.ts";
import { SchemaError, validateResult } from "./validate.ts";

/**
 * Who answers for the temporary sibling {@linkcode writeResult} writes before the rename, so that a program that
 * exits at any moment still removes it. rtbench's own programs pass the platform's ledger of temporary files
 * (`tempLedger` of `runners/platform/`), which removes what it owns however the program exits.
 *
 * @example Count what was owned
 * ```ts
 * import type { TempOwner } from "@rtbench/rtbench/schema";
 * const owned = new Set<string>();
 * const owner: TempOwner = {
 *   own: (path) => (owned.add(path), path),
 *   disown: (path) => void owned.delete(path),
 *   remove: async (path) => (owned.delete(path), await Deno.remove(path).catch(() => {})),
 * };
 * ```
 */
export interface TempOwner {
  /** Takes the path (its basename starts with `.rtbench-`) before it exists; returns the path to write. */
  own(path: string): string;
  /** Lets go of the path, renamed away. */
  disown(path: string): void;
  /** Removes the path (gone already is fine) and lets go of it. */
  remove(path: string): Promise<void>;
}

/**
 * Options of {@linkcode writeResult}.
 *
 * @example Write under a program's own ledger of temporary files
 * ```ts
 * import { readResultFile, writeResult, type WriteOptions } from "@rtbench/rtbench/schema";
 *
 * const owned = new Set<string>();
 * const options: WriteOptions = {
 *   temps: {
 *     own: (path) => (owned.add(path), path),
 *     disown: (path) => void owned.delete(path),
 *     remove: async (path) => (owned.delete(path), await Deno.remove(path).catch(() => {})),
 *   },
 * };
 * const dir = await Deno.makeTempDir();
 * await writeResult(`${dir}/copy.json`, await readResultFile("fixtures/results/base.json"), options);
 * console.log(owned.size); // 0
 * await Deno.remove(dir, { recursive: true });
 * ```
 */
export interface WriteOptions {
  /**
   * Who answers for the temporary sibling while it exists.
   *
   * @default {the writer itself: removed on a failed write, left behind by an exit during the write}
   */
  readonly temps?: TempOwner;
}

const UNOWNED: TempOwner = {
  own: (path) => path,
  disown: () => {},
  remove: (path) => Deno.remove(path).catch(() => {}),
};

/**
 * Validates `result` and writes it to `path` via a temporary sibling and a
 * rename; a crash at any moment leaves either the old file or the new one.
 *
 * @param path Where to write; a temporary sibling is renamed over it.
 * @param result The result to validate and write.
 * @param options Who answers for the temporary sibling.
 *
 * @example Write a result after validating it
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { readResultFile, writeResult } from "@rtbench/rtbench/runners";
 *
 * const result = await readResultFile("fixtures/results/base.json");
 * const dir = await Deno.makeTempDir();
 * await writeResult(`${dir}/copy.json`, result);
 * assertEquals((await readResultFile(`${dir}/copy.json`)).records.length, 3);
 * await Deno.remove(dir, { recursive: true });
 * ```
 */
export async function writeResult(path: string, result: BenchResult, options: WriteOptions = {}): Promise<void> {
  const issues = validateResult(result);
  if (issues.length > 0) throw new SchemaError(issues);
  const temps = options.temps ?? UNOWNED;
  // A hidden sibling on the same file system (rename is atomic only there).
  const slash = path.lastIndexOf("/");
  const tmp = temps.own(`${path.slice(0, slash + 1)}.rtbench-${path.slice(slash + 1)}.${Deno.pid}.tmp`);
  try {
    await Deno.writeTextFile(tmp, JSON.stringify(result, null, 2) + "\n");
    await Deno.rename(tmp, path);
    temps.disown(tmp);
  } catch (error) {
    await temps.remove(tmp);
    throw error;
  }
}
