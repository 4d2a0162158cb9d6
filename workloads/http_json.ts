/**
 * `http-json`: every request gets `{"message":"Hello, World!"}` as
 * `application/json`. Measures the runtime's HTTP stack and little else.
 *
 * @module
 */

import { deployedEnv, FRAMEWORK_DEPENDENCIES, FRAMEWORKS, frameworkServer, frameworkVersions } from "./_frameworks.ts";
import type { HttpWorkload, ServerSource, Skip, WorkloadContext, WorkloadSession } from "./types.ts";

/** The exact body every server returns. */
export const HELLO_BODY: string = JSON.stringify({ message: "Hello, World!" });

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
  // The frameworks run when named (`--variant express,hono`): the default suite keeps one record per runtime.
  variants: Object.entries(FRAMEWORKS).map(([name, f]) =>
    name === "default"
      ? { name, description: "the runtime's idiomatic HTTP server" }
      : { name, description: f.description, optional: true }
  ),
  dependencies: FRAMEWORK_DEPENDENCIES,
  // After each run, a window at a rate every runtime holds on a 2-core machine (the slowest, Node.js, answered 40,000–
  // 90,000/s on a quiet one, 15,000–35,000/s on a busy one that still held 20,000/s in every run) counts the server's
  // CPU time per request; a slower machine needs a lower --cpu-rate.
  // Five rounds, not the quick profile's three: its paired ratios head the overview, and an interval's half-width is
  // t·s/√n, 2.78/√5 = 1.24 times the rounds' spread against 4.30/√3 = 2.48 over three (docs/method.md).
  defaults: { cpuRate: 20_000, idleConnections: 1000, runs: 5 },
  server(runtime: string, variant: string): ServerSource | Skip {
    return frameworkServer("http_json", runtime, variant);
  },
  traffic(ctx: WorkloadContext) {
    return {
      requests: [{
        method: "GET",
        path: "/",
        expect: {
          status: 200,
          contentType: FRAMEWORKS[ctx.variant]?.contentType ?? "application/json",
          body: HELLO_BODY,
        },
      }],
    };
  },
  async setup(ctx: WorkloadContext): Promise<WorkloadSession> {
    return { env: deployedEnv(ctx.variant), facts: await frameworkVersions(ctx.variant, ctx.nodeModules) };
  },
};
