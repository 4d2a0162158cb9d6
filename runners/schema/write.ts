/**
 * Writes result files atomically (temporary file, then rename) after
 * validating them, so a file on disk is always complete and valid.
 *
 * @module
 */

import type { BenchResult } from "./result.ts";
import { SchemaError, validateResult } from "./validate.ts";
import { disownTemp, ownTemp, removeTemp } from "../platform/mod.ts";

/**
 * Validates `result` and writes it to `path` via a temporary sibling and a
 * rename; a crash at any moment leaves either the old file or the new one.
 *
 * @param path Where to write; a temporary sibling is renamed over it.
 * @param result The result to validate and write.
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
export async function writeResult(path: string, result: BenchResult): Promise<void> {
  const issues = validateResult(result);
  if (issues.length > 0) throw new SchemaError(issues);
  // A hidden sibling on the same file system (rename is atomic only there), removed however rtbench exits.
  const slash = path.lastIndexOf("/");
  const tmp = ownTemp(`${path.slice(0, slash + 1)}.rtbench-${path.slice(slash + 1)}.${Deno.pid}.tmp`);
  try {
    await Deno.writeTextFile(tmp, JSON.stringify(result, null, 2) + "\n");
    await Deno.rename(tmp, path);
    disownTemp(tmp);
  } catch (error) {
    await removeTemp(tmp);
    throw error;
  }
}
