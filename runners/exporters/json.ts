/**
 * The JSON exporter: the result document itself, exactly as the result file
 * holds it (it validates against `bench_result.schema.json`).
 *
 * @module
 */

import type { BenchResult } from "../result.ts";

/**
 * Renders a result as the schema's JSON, two-space indented, with a final newline.
 *
 * @example
 * ```ts ignore
 * import { formatJson } from "./json.ts";
 * console.log(formatJson(result) === (await Deno.readTextFile("results/run.json"))); // true
 * ```
 */
export function formatJson(result: BenchResult): string {
  return JSON.stringify(result, null, 2) + "\n";
}
