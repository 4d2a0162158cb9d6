/**
 * Writes result files atomically (temporary file, then rename) after
 * validating them, so a file on disk is always complete and valid.
 *
 * @module
 */

import type { BenchResult } from "./result.ts";
import { SchemaError, validateResult } from "./schema.ts";

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
  const tmp = `${path}.${Deno.pid}.tmp`;
  await Deno.writeTextFile(tmp, JSON.stringify(result, null, 2) + "\n");
  try {
    await Deno.rename(tmp, path);
  } catch (error) {
    await Deno.remove(tmp).catch(() => {});
    throw error;
  }
}
