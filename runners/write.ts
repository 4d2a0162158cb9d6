/**
 * Writes result files atomically (temporary file, then rename) after
 * validating them, so a file on disk is always complete and valid.
 *
 * @module
 */

import type { BenchResult } from "./result.ts";
import { SchemaError, validateResult } from "./schema.ts";
import { disownTemp, ownTemp, removeTemp } from "./_temp.ts";

/**
 * Validates `result` and writes it to `path` via a temporary sibling and a
 * rename; a crash at any moment leaves either the old file or the new one.
 *
 * @example
 * ```ts ignore
 * import { writeResult } from "./write.ts";
 * await writeResult("results/run.json", result);
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
