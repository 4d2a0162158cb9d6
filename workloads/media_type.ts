/**
 * Content types compared as media types (RFC 9110 §8.3.1): type and subtype in any case, parameters by name in any case
 * and order, a `charset` value in any case, a quoted value the same as the bare one, blanks around `;` ignored. An
 * expected type that names no parameter matches the type with any parameters.
 *
 * This module imports nothing: the load engine's program and the autocannon process use it as verification does.
 *
 * @module
 */

const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/** The essence (`type/subtype`, lower case) and the parameters of a media type; null when `value` is not one. */
function parse(value: string): { essence: string; parameters: [string, string][] } | null {
  const semicolon = value.indexOf(";");
  const essence = (semicolon < 0 ? value : value.slice(0, semicolon)).trim().toLowerCase();
  const slash = essence.indexOf("/");
  if (slash < 0 || !TOKEN.test(essence.slice(0, slash)) || !TOKEN.test(essence.slice(slash + 1))) return null;
  const parameters: [string, string][] = [];
  let at = semicolon < 0 ? value.length : semicolon + 1;
  while (at < value.length) {
    const end = nextSemicolon(value, at);
    const part = value.slice(at, end).trim();
    at = end + 1;
    if (part === "") continue;
    const equals = part.indexOf("=");
    if (equals <= 0) return null;
    const name = part.slice(0, equals).trim().toLowerCase();
    let raw = part.slice(equals + 1).trim();
    if (raw.startsWith('"')) {
      if (raw.length < 2 || !raw.endsWith('"')) return null;
      raw = raw.slice(1, -1).replace(/\\(.)/g, "$1");
    }
    parameters.push([name, name === "charset" ? raw.toLowerCase() : raw]);
  }
  return { essence, parameters };
}

/** Where the parameter starting at `from` ends: the next `;` outside a quoted string, or the end. */
function nextSemicolon(value: string, from: number): number {
  let quoted = false;
  for (let i = from; i < value.length; i++) {
    const c = value[i];
    if (quoted && c === "\\") i++;
    else if (c === '"') quoted = !quoted;
    else if (c === ";" && !quoted) return i;
  }
  return value.length;
}

/**
 * One spelling of a media type: the essence in lower case, then (with `parameters`) each parameter as `;name=value`
 * sorted by name, its value quoted only where it must be. A value that is no media type is returned as it is.
 */
function mediaTypeKey(value: string, parameters: boolean): string {
  const parsed = parse(value);
  if (parsed === null) return value;
  if (!parameters) return parsed.essence;
  const sorted = parsed.parameters.sort(([a], [b]) => a < b ? -1 : a > b ? 1 : 0);
  const quoted = (v: string) => TOKEN.test(v) ? v : `"${v.replace(/["\\]/g, "\\$&")}"`;
  return parsed.essence + sorted.map(([name, v]) => `;${name}=${quoted(v)}`).join("");
}

/**
 * Whether a response's `content-type` is the media type expected: the same text, or the same media type (see the
 * module's rules). An expected `""` means no content-type at all (a 204 carries none).
 *
 * @param expected The expectation's content type, for example `text/plain` or `text/html; charset=utf-8`.
 * @param actual The response's `content-type` value; undefined when it sent none.
 * @returns Whether they match.
 *
 * @example `text/plain` matches the spellings servers send
 * ```ts
 * import { assert } from "@std/assert";
 * import { sameMediaType } from "@rtbench/rtbench/workloads";
 *
 * assert(sameMediaType("text/plain", "text/plain;charset=utf-8"));
 * assert(sameMediaType("text/plain; charset=utf-8", "Text/Plain;Charset=\"UTF-8\""));
 * assert(!sameMediaType("text/plain; charset=utf-8", "text/plain"));
 * assert(!sameMediaType("text/plain", "text/html"));
 * ```
 */
export function sameMediaType(expected: string, actual: string | undefined): boolean {
  if (actual === undefined || expected === "" || actual === expected) return (actual ?? "") === expected;
  return comparedMediaType(actual, expected) === mediaTypeKey(expected, true);
}

/**
 * What of a content type an expectation compares, in one spelling: the essence in lower case, then, where `expected`
 * names parameters, every parameter as `;name=value` sorted by name (a `charset` value in lower case). Two responses
 * with the same form are alike for that expectation.
 *
 * @param actual A response's `content-type` value.
 * @param expected The expectation's content type.
 * @returns The comparable form; `actual` as it is when it is no media type.
 *
 * @example Two servers' spellings of one media type
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { comparedMediaType } from "@rtbench/rtbench/workloads";
 *
 * assertEquals(comparedMediaType("Text/Plain; Charset=UTF-8", "text/plain; charset=utf-8"), "text/plain;charset=utf-8");
 * assertEquals(comparedMediaType("text/plain;charset=utf-8", "text/plain"), "text/plain");
 * ```
 */
export function comparedMediaType(actual: string, expected: string): string {
  return mediaTypeKey(actual, (parse(expected)?.parameters.length ?? 0) > 0);
}
