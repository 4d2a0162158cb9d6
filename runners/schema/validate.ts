/**
 * The result schema as an object and its validation: the one check every file rtbench reads or writes passes.
 *
 * @module
 */

import schemaJson from "./bench_result.schema.json" with { type: "json" };
// Compiled ahead from the schema (runners/dev/schema_json.ts), so that no process pays Ajv's compile.
import { validate } from "./validator.js";
import type { BenchResult } from "./result.ts";

/**
 * The JSON Schema (draft-07) of a result file, as an object.
 *
 * @example Read the schema's title
 * ```ts
 * import { benchResultSchema } from "./validate.ts";
 * console.log(benchResultSchema.title); // "rtbench BenchResult"
 * ```
 */
export const benchResultSchema: Readonly<Record<string, unknown>> & { readonly title: string } = schemaJson;

/**
 * One reason a document does not match the schema.
 *
 * @example The issues of a document
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { type SchemaIssue, validateResult } from "@rtbench/rtbench/schema";
 *
 * const issues: SchemaIssue[] = validateResult({ schemaVersion: 1 });
 * assertEquals(issues[0], { path: "/suite", message: "is required" });
 * ```
 */
export interface SchemaIssue {
  /** JSON Pointer of the offending field, for example `/records/0/status`. */
  readonly path: string;
  /** What is wrong there. */
  readonly message: string;
}

/**
 * Thrown by {@linkcode parseResult}; the message starts with the path of the first bad field.
 *
 * @example Report the first bad field
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { parseResult, SchemaError } from "@rtbench/rtbench/schema";
 *
 * try {
 *   parseResult('{"schemaVersion": 2}');
 * } catch (error) {
 *   if (!(error instanceof SchemaError)) throw error;
 *   assertEquals(error.issues.length > 1, true);
 *   assertEquals(error.message.startsWith("Invalid result at /"), true);
 * }
 * ```
 */
export class SchemaError extends TypeError {
  /** Every issue found. */
  readonly issues: readonly SchemaIssue[];
  /**
   * Creates the error from the issues found.
   *
   * @param issues Every issue found; the first is named in the message.
   */
  constructor(issues: readonly SchemaIssue[]) {
    const first = issues[0];
    super(first ? `Invalid result at ${first.path || "/"}: ${first.message}` : "Invalid result");
    this.name = "SchemaError";
    this.issues = issues;
  }
}

/**
 * Checks a value against the result schema and lists every issue (empty when valid).
 *
 * @param value A parsed document, of any type.
 * @returns Every issue found, in document order; empty when `value` is a valid result.
 *
 * @example Validate a parsed file
 * ```ts
 * import { validateResult } from "./validate.ts";
 * const issues = validateResult({ schemaVersion: 1 });
 * console.log(issues.length > 0); // true
 * ```
 */
export function validateResult(value: unknown): SchemaIssue[] {
  if (validate(value)) return [];
  return (validate.errors ?? []).map((e) => {
    const params = e.params as { additionalProperty?: string; missingProperty?: string };
    if (e.keyword === "required") {
      return { path: `${e.instancePath}/${params.missingProperty}`, message: "is required" };
    }
    if (e.keyword === "additionalProperties") {
      return { path: `${e.instancePath}/${params.additionalProperty}`, message: "is not a field of the schema" };
    }
    return { path: e.instancePath, message: e.message ?? e.keyword };
  });
}

/**
 * Validates unknown JSON (a string or a parsed value) and returns it typed, or
 * throws {@linkcode SchemaError} naming the path of the first bad field.
 *
 * @param json A result as JSON text, or already parsed.
 * @returns The same document, typed.
 *
 * @example Parse a result file
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { parseResult } from "@rtbench/rtbench/schema";
 *
 * const result = parseResult(await Deno.readTextFile("fixtures/results/base.json"));
 * assertEquals(result.records.map((r) => r.runtime.name), ["deno", "node", "bun"]);
 * ```
 *
 * @example Name the first bad field
 * ```ts
 * import { assertThrows } from "@std/assert";
 * import { parseResult } from "@rtbench/rtbench/schema";
 *
 * const result = JSON.parse(await Deno.readTextFile("fixtures/results/base.json"));
 * result.records[1].status = "fast";
 * assertThrows(() => parseResult(result), TypeError, "Invalid result at /records/1/status");
 * ```
 */
export function parseResult(json: unknown): BenchResult {
  let value = json;
  if (typeof json === "string") {
    try {
      value = JSON.parse(json);
    } catch (error) {
      throw new SchemaError([{ path: "", message: `not JSON (${(error as Error).message})` }]);
    }
  }
  const issues = validateResult(value);
  if (issues.length > 0) throw new SchemaError(issues);
  return value as BenchResult;
}
