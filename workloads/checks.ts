/**
 * Checks of a real HTTP exchange against its request's expectation, shared by
 * verification before load, the parity check across runtimes and workloads'
 * own `verify` hooks.
 *
 * @module
 */

import { CAPTURE, type Check, type HttpExchange, type HttpRequestSpec } from "./types.ts";
import { sameMediaType } from "./media_type.ts";
import { headerRules, headerRuleText, headerTest } from "./expected_headers.ts";

/**
 * `GET /users?page=2`: how a request is named in checks and errors (long paths cut at 40 characters).
 *
 * @param request The request.
 * @returns Method and path.
 *
 * @example How a GET of / is named
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { requestLabel } from "@rtbench/rtbench/workloads";
 *
 * assertEquals(requestLabel({ path: "/", expect: { status: 200, contentType: "text/plain" } }), "GET /");
 * ```
 */
export function requestLabel(request: HttpRequestSpec): string {
  const path = request.path.length > 40 ? request.path.slice(0, 37) + "..." : request.path;
  return `${request.method ?? "GET"} ${path}`;
}

/** Whether a `transfer-encoding` value is chunked alone, the one transfer coding the load engine reads too. */
function isChunked(value: string | undefined): boolean {
  return value?.trim().toLowerCase() === "chunked";
}

/**
 * Checks one exchange against its request's expectation: status, content-type (as a media type), content-length (none
 * where the body is chunked; any, over no body, for a HEAD), the headers it names and body.
 *
 * @param x The exchange: the request sent and the response received.
 * @returns One check per part of the expectation, named after the request.
 *
 * @example A body that differs fails its check
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { checkExchange } from "@rtbench/rtbench/workloads";
 *
 * const checks = checkExchange({
 *   request: { path: "/", expect: { status: 200, contentType: "text/plain", body: "ok" } },
 *   status: 200,
 *   headers: { "content-type": "text/plain", "content-length": "2" },
 *   body: "no",
 *   bodyBytes: 2,
 * });
 * assertEquals(checks.filter((c) => !c.passed).map((c) => c.name), ["GET / body"]);
 * ```
 *
 * @example A chunked body needs no content-length; any other body does
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { checkExchange } from "@rtbench/rtbench/workloads";
 *
 * const request = { path: "/", expect: { status: 200, contentType: "text/plain", body: "ok" } };
 * const failed = (headers: Record<string, string>) =>
 *   checkExchange({ request, status: 200, headers: { "content-type": "text/plain", ...headers }, body: "ok", bodyBytes: 2 })
 *     .filter((c) => !c.passed).map((c) => c.name);
 * assertEquals(failed({ "transfer-encoding": "chunked" }), []);
 * assertEquals(failed({}), ["GET / content-length"]);
 * assertEquals(failed({ "transfer-encoding": "gzip, chunked" }), ["GET / content-length"]);
 * ```
 *
 * @example A header the expectation names, by pattern
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { checkExchange } from "@rtbench/rtbench/workloads";
 *
 * const request = { path: "/", expect: { status: 200, contentType: "text/plain", headers: { "X-Powered-By": /bench\w+/ } } };
 * const headers = { "content-type": "text/plain;charset=utf-8", "content-length": "0", "x-powered-by": "express" };
 * const failed = checkExchange({ request, status: 200, headers, body: "", bodyBytes: 0 }).filter((c) => !c.passed);
 * assertEquals(failed.map((c) => [c.name, c.expected, c.actual]), [["GET / x-powered-by", "/bench\\w+/", "express"]]);
 * ```
 */
export function checkExchange(x: HttpExchange): Check[] {
  const e = x.request.expect;
  const label = requestLabel(x.request);
  const checks: Check[] = [
    { name: `${label} status`, passed: x.status === e.status, expected: e.status, actual: x.status },
    {
      name: `${label} content-type`,
      // Compared as media types; an expected content-type of "" means none is sent (a 204 has no body to describe).
      passed: sameMediaType(e.contentType, x.headers["content-type"]),
      expected: e.contentType,
      actual: x.headers["content-type"] ?? null,
    },
    {
      name: `${label} content-length`,
      // None is right where the framing says how long the body is: a 204 has none (RFC 9110 §8.6), and a chunked body
      // frames itself (RFC 9112 §6.1), read whole here or the exchange would have failed. The answer to a HEAD has
      // no body, and any length it names is the GET's (RFC 9110 §9.3.2).
      passed: x.headers["content-length"] === String(x.bodyBytes) ||
        (x.request.method === "HEAD" && x.bodyBytes === 0) ||
        (x.headers["content-length"] === undefined &&
          ((x.status === 204 && x.bodyBytes === 0) || isChunked(x.headers["transfer-encoding"]))),
      expected: x.bodyBytes,
      actual: x.headers["content-length"] ?? null,
    },
  ];
  for (const rule of headerRules(e.headers)) {
    const actual = x.headers[rule.name];
    checks.push({
      name: `${label} ${rule.name}`,
      passed: headerTest(rule)(actual),
      // The value as it is, like the content-type's; a pattern between slashes.
      expected: rule.value ?? headerRuleText(rule),
      actual: actual ?? null,
    });
  }
  if (e.body !== undefined) {
    checks.push({ name: `${label} body`, passed: x.body === e.body, expected: e.body, actual: x.body.slice(0, 500) });
  }
  if (e.bodyPattern !== undefined) {
    checks.push({
      name: `${label} body pattern`,
      passed: new RegExp(`^(?:${e.bodyPattern})$`).test(x.body),
      expected: `/${e.bodyPattern}/`,
      actual: x.body.slice(0, 500),
    });
  }
  return checks;
}

/**
 * The distinct requests of a traffic, in first-seen order: what verification and the parity check send, so that
 * every request the load will send has been answered right once (a traffic may repeat a request to weight it).
 * A request that sets or uses a captured value ({@linkcode HttpRequestSpec.capture}) is left out: it means something
 * only in its connection's sequence, which the workload's own `verify` walks (rest-api creates, reads, updates and
 * deletes a user, and checks each step in the database).
 *
 * @param requests The traffic's requests.
 * @returns Each distinct request (same method, path, headers and body) once, captures aside.
 *
 * @example A request repeated to weight it is verified once
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { distinctRequests } from "@rtbench/rtbench/workloads";
 *
 * const a = { path: "/a", expect: { status: 200, contentType: "text/plain" } };
 * const b = { path: "/b", expect: { status: 200, contentType: "text/plain" } };
 * assertEquals(distinctRequests([a, b, { ...a }, b]), [a, b]);
 * ```
 */
export function distinctRequests(requests: readonly HttpRequestSpec[]): HttpRequestSpec[] {
  const seen = new Set<string>();
  return requests.filter((r) => {
    if (r.capture !== undefined || `${r.path}${r.expect.bodyPattern ?? ""}`.includes(CAPTURE)) return false;
    const key = JSON.stringify([r.method ?? "GET", r.path, r.headers ?? null, r.body ?? null]);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
