/**
 * Reads a stored result file for `report` and `compare`, turning every way
 * it can be wrong (missing, unreadable, not JSON, not a result) into one
 * {@linkcode UsageError} line that names the file.
 *
 * @module
 */

import { UsageError } from "./errors.ts";
import type { BenchResult } from "./result.ts";
import { parseResult, SchemaError } from "./schema.ts";

/**
 * Reads and validates a result file.
 *
 * @example
 * ```ts ignore
 * import { readResultFile } from "./read_result.ts";
 * const result = await readResultFile("results/rtbench-20261121-141203.json");
 * console.log(result.records.length);
 * ```
 */
export async function readResultFile(path: string): Promise<BenchResult> {
  let text: string;
  try {
    text = await Deno.readTextFile(path);
  } catch (error) {
    const reason = error instanceof Deno.errors.NotFound
      ? "no such file"
      : error instanceof Deno.errors.IsADirectory
      ? "is a directory"
      : (error as Error).message.split(":")[0];
    throw new UsageError(`Cannot read ${path}: ${reason}`);
  }
  try {
    return parseResult(text);
  } catch (error) {
    if (error instanceof SchemaError) throw new UsageError(`${path} is not an rtbench result: ${error.message}`);
    throw error;
  }
}
