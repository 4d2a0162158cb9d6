/**
 * `http-json`: every request gets `{"message":"Hello, World!"}` as
 * `application/json`. Measures the runtime's HTTP stack and little else.
 *
 * @module
 */

import type { HttpWorkload, ServerSource, Skip } from "./types.ts";

/** The exact body every server returns. */
export const HELLO_BODY: string = JSON.stringify({ message: "Hello, World!" });

const SERVERS: Record<string, string> = {
  deno: "../servers/deno/http_json.ts",
  node: "../servers/node/http_json.mjs",
  bun: "../servers/bun/http_json.ts",
  go: "../servers/go/http_json.go",
  rust: "../servers/rust/http_json.rs",
};

/**
 * The HTTP JSON hello workload: `node:http`, `Deno.serve` and `Bun.serve`
 * answering `GET /` with the same 27 bytes.
 *
 * @example Read the expected response
 * ```ts
 * import { httpJson } from "./http_json.ts";
 * const ctx = { variant: "default", options: {}, settings: {} as never, tempDir: "", signal: new AbortController().signal };
 * console.log(httpJson.traffic(ctx).requests[0].expect.body); // {"message":"Hello, World!"}
 * ```
 */
export const httpJson: HttpWorkload = {
  name: "http-json",
  description: 'HTTP GET / answered with {"message":"Hello, World!"} as application/json',
  kind: "http",
  variants: [{ name: "default", description: "the runtime's idiomatic HTTP server" }],
  server(runtime: string): ServerSource | Skip {
    const path = SERVERS[runtime];
    return path ? { entry: new URL(path, import.meta.url) } : { skip: `no http-json server for ${runtime}` };
  },
  traffic() {
    return {
      requests: [{
        method: "GET",
        path: "/",
        expect: { status: 200, contentType: "application/json", body: HELLO_BODY },
      }],
    };
  },
};
