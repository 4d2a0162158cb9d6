/**
 * The JSON exporter: the result document itself, exactly as the result file
 * holds it (it validates against `bench_result.schema.json`).
 *
 * @module
 */

import type { BenchResult } from "../schema/mod.ts";

/**
 * Renders a result as the schema's JSON, two-space indented, with a final newline.
 *
 * @param result A finished result.
 * @returns The result as indented JSON with a final newline.
 *
 * @example The JSON of a result is the result file
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { formatJson, parseResult } from "@rtbench/rtbench";
 *
 * const text = await Deno.readTextFile("fixtures/results/base.json");
 * assertEquals(formatJson(parseResult(text)), text);
 * ```
 */
export function formatJson(result: BenchResult): string {
  return JSON.stringify(result, null, 2) + "\n";
}
