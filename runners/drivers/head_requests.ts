/**
 * HEAD requests, and the load generators that cannot send them. The answer to a HEAD names the length a GET's body
 * would have and carries none (RFC 9110 §9.3.2); a generator that reads it as if that body followed waits for bytes
 * that never come, and counts nothing. wrk 4 and autocannon 9 do (measured here: 0 responses in a second of HEAD on
 * a Deno server that oha and bombardier load at 15,000/s); rtbench's engine, oha and bombardier read the head alone.
 *
 * @module
 */

import type { LoadTarget } from "./types.ts";

/**
 * Why `generator`, one that reads a HEAD's answer as if a body followed, cannot send `target`; null when the target
 * sends no HEAD.
 *
 * @param generator The generator's name, for the sentence.
 * @param target What it would send.
 * @returns The reason, or null.
 *
 * @example
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { headUnread } from "./head_requests.ts";
 *
 * const expect = { status: 200, contentType: "text/plain", body: "" };
 * assertEquals(headUnread("wrk", { baseUrl: "", requests: [{ path: "/", expect }] }), null);
 * assertEquals(
 *   headUnread("wrk", { baseUrl: "", requests: [{ method: "HEAD", path: "/", expect }] }),
 *   "wrk reads the answer to a HEAD as if the body its length names followed, and waits for it",
 * );
 * ```
 */
export function headUnread(generator: string, target: LoadTarget): string | null {
  return target.requests.some((r) => r.method === "HEAD")
    ? `${generator} reads the answer to a HEAD as if the body its length names followed, and waits for it`
    : null;
}
