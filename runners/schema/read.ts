/**
 * Reads a stored result file for `report` and `compare`, turning every way
 * it can be wrong (missing, unreadable, not JSON, not a result) into one
 * {@linkcode UsageError} line that names the file.
 *
 * @module
 */

import { UsageError } from "../base/mod.ts";
import type { BenchResult } from "./result.ts";
import { parseResult, SchemaError } from "./validate.ts";

/**
 * Reads and validates a result file.
 *
 * @param path The file to read.
 * @returns The result, validated against the schema.
 *
 * @example Read a stored result
 * ```ts
 * import { assertEquals, assertRejects } from "@std/assert";
 * import { readResultFile, UsageError } from "@rtbench/rtbench/runners";
 *
 * const result = await readResultFile("fixtures/results/base.json");
 * assertEquals(result.records.length, 3);
 * await assertRejects(() => readResultFile("no/such.json"), UsageError, "Cannot read no/such.json: no such file");
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
