/**
 * A request of a workload's traffic as the load engine's parser takes it: the whole request encoded once, and its
 * expectation as plain data (expected headers as rules: a RegExp does not cross into the engine's processes).
 *
 * @module
 */

import { headerRules, type HttpRequestSpec } from "../../workloads/mod.ts";
import { encodeRequest, type EngineRequest } from "./_http.ts";

/**
 * `spec` encoded for `host`, with its expectation, headers as rules, and its capture.
 *
 * @param host The `Host` header's value (`127.0.0.1:3000`).
 * @param spec The request.
 * @returns The engine's request.
 *
 * @example A pattern becomes its source and flags
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { engineRequest } from "./request.ts";
 *
 * const request = engineRequest("localhost", {
 *   path: "/",
 *   expect: { status: 200, contentType: "text/plain", headers: { "X-Id": /\d+/ } },
 * });
 * assertEquals(request.raw, "GET / HTTP/1.1\r\nHost: localhost\r\n\r\n");
 * assertEquals(request.expect.headers, [{ name: "x-id", pattern: "\\d+", flags: "" }]);
 * ```
 */
export function engineRequest(host: string, spec: HttpRequestSpec): EngineRequest {
  const { headers, ...expect } = spec.expect;
  return {
    raw: encodeRequest(host, spec.method ?? "GET", spec.path, spec.headers, spec.body),
    expect: headers === undefined ? expect : { ...expect, headers: headerRules(headers) },
    ...(spec.capture === undefined ? {} : { capture: spec.capture }),
  };
}
