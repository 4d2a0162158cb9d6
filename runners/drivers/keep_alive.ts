/**
 * `--keep-alive off`, one way for every load generator that sends its requests as the workload gives them: each
 * request carries `Connection: close`, so that the server closes the connection after its answer and the next request
 * goes out on a new one.
 *
 * @module
 */

import type { HttpRequestSpec } from "../../workloads/mod.ts";
import type { LoadSettings } from "./types.ts";

/**
 * Whether a load is asked to send every request on a new connection (`--keep-alive off`).
 *
 * @param settings The load's settings.
 * @returns True with keep-alive off.
 *
 * @example Keep-alive is on unless a setting says otherwise
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { closesConnections } from "./keep_alive.ts";
 *
 * const s = { durationSec: 1, warmupSec: 0, connections: 1, pipelining: 1, requestTimeoutSec: 1 };
 * assertEquals([closesConnections(s), closesConnections({ ...s, keepAlive: false })], [false, true]);
 * ```
 */
export function closesConnections(settings: LoadSettings): boolean {
  return settings.keepAlive === false;
}

/**
 * The requests as a load with `settings` sends them: with keep-alive off, each with `Connection: close` (any
 * `Connection` header of the workload's own replaced); otherwise as they are.
 *
 * @param requests The workload's requests.
 * @param settings The load's settings.
 * @returns The requests to send.
 *
 * @example
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { requestsFor } from "./keep_alive.ts";
 *
 * const s = { durationSec: 1, warmupSec: 0, connections: 1, pipelining: 1, requestTimeoutSec: 1, keepAlive: false };
 * const spec = { path: "/", headers: { connection: "keep-alive" }, expect: { status: 200, contentType: "" } };
 * assertEquals(requestsFor([spec], s)[0].headers, { Connection: "close" });
 * ```
 */
export function requestsFor(requests: readonly HttpRequestSpec[], settings: LoadSettings): readonly HttpRequestSpec[] {
  if (!closesConnections(settings)) return requests;
  return requests.map((r) => ({
    ...r,
    headers: {
      ...Object.fromEntries(Object.entries(r.headers ?? {}).filter(([name]) => name.toLowerCase() !== "connection")),
      Connection: "close",
    },
  }));
}
