/**
 * The headers an expectation names (`HttpExpectation.headers`) as plain data a load generator's own process
 * can take (a RegExp does not survive JSON), and the one rule that checks a value against each: a string is the exact
 * value, a pattern must match the whole value. Names are compared in any case.
 *
 * This module imports nothing: the load engine's program uses it as verification does.
 *
 * @module
 */

/**
 * One expected header: its name in lower case and either the exact value or a pattern's source and flags.
 *
 * @example The rules of an expectation
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { headerRules } from "@rtbench/rtbench/workloads";
 *
 * assertEquals(headerRules({ "X-Powered-By": "rtbench", "x-request-id": /[0-9a-f]{8}/i }), [
 *   { name: "x-powered-by", value: "rtbench" },
 *   { name: "x-request-id", pattern: "[0-9a-f]{8}", flags: "i" },
 * ]);
 * ```
 */
export interface HeaderRule {
  /** The header's name, lower case. */
  readonly name: string;
  /** The exact value (blanks around it aside, as HTTP strips them). */
  readonly value?: string;
  /** The source of a regular expression the whole value must match. */
  readonly pattern?: string;
  /** The pattern's flags (`i`, `s`, `u`, ...), without `g` and `y`, which would make a test depend on the last one. */
  readonly flags?: string;
}

/**
 * The rules of an expectation's `headers`, in its order.
 *
 * @param headers Name (any case) → exact value, or a RegExp the whole value must match; absent means none.
 * @returns One rule per header, JSON-safe.
 *
 * @example No headers, no rules
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { headerRules } from "@rtbench/rtbench/workloads";
 *
 * assertEquals(headerRules(undefined), []);
 * ```
 */
export function headerRules(headers: Readonly<Record<string, string | RegExp>> | undefined): HeaderRule[] {
  return Object.entries(headers ?? {}).map(([name, expected]) =>
    typeof expected === "string"
      ? { name: name.toLowerCase(), value: expected }
      : { name: name.toLowerCase(), pattern: expected.source, flags: expected.flags.replace(/[gy]/g, "") }
  );
}

/**
 * A test of a header's value against a rule, compiled once: the exact value, or the pattern over the whole value.
 *
 * @param rule The rule.
 * @returns Whether a value (undefined: the header is missing) passes.
 *
 * @example A pattern must match the whole value
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { headerTest } from "@rtbench/rtbench/workloads";
 *
 * const passes = headerTest({ name: "x-id", pattern: "\\d+" });
 * assertEquals([passes("42"), passes("42a"), passes(undefined)], [true, false, false]);
 * ```
 */
export function headerTest(rule: HeaderRule): (value: string | undefined) => boolean {
  if (rule.pattern === undefined) return (value) => value === rule.value;
  const pattern = new RegExp(`^(?:${rule.pattern})$`, rule.flags);
  return (value) => value !== undefined && pattern.test(value);
}

/**
 * A rule's expected value as checks and messages show it: the value in quotes, or the pattern between slashes.
 *
 * @param rule The rule.
 * @returns For example `"rtbench"` or `/[0-9a-f]{8}/i`.
 *
 * @example A pattern between slashes
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { headerRuleText } from "@rtbench/rtbench/workloads";
 *
 * assertEquals(headerRuleText({ name: "x-id", pattern: "\\d+", flags: "" }), "/\\d+/");
 * ```
 */
export function headerRuleText(rule: HeaderRule): string {
  return rule.pattern === undefined ? JSON.stringify(rule.value) : `/${rule.pattern}/${rule.flags ?? ""}`;
}
