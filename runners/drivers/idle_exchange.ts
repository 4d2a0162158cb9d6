/**
 * One HTTP/1.1 exchange on a connection the caller opened and keeps open: the request encoded as the load engine
 * encodes it, the response read and judged by the engine's own parser (framing, interim responses, status,
 * content-type, headers, body), so a response checked here is checked as every response under load is.
 *
 * @module
 */

import type { HttpRequestSpec } from "../../workloads/mod.ts";
import { engineRequest, ProtocolError, ResponseParser, type ResponseSink, VALID } from "../engine/mod.ts";

/** What one exchange on a held connection came to. */
export interface HeldExchange {
  /** Whether a whole response came back, right or wrong (the server did the request's work). */
  readonly answered: boolean;
  /** What was wrong with the response, or why none came whole; null for the response expected. */
  readonly problem: string | null;
}

const encoder = new TextEncoder();

/**
 * Sends `request` on `conn` and reads its one response, checked against the request's expectation; an answer with
 * no request in flight, bytes that are not HTTP/1.1 or a close before the whole response are problems. Reads until
 * the response is whole or the connection closes: the caller bounds the wait (by closing the connection).
 *
 * @param conn A connection the caller opened and keeps (keep-alive: it stays open after the exchange).
 * @param host The `Host` header's value.
 * @param request The request, with its expectation.
 * @returns Whether it was answered, and what was wrong.
 *
 * @example One exchange on a connection to a server that answers right
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { exchangeOnConnection } from "./idle_exchange.ts";
 *
 * await using server = Deno.serve({ port: 0, onListen() {} }, () => Response.json({ ok: true }));
 * const conn = await Deno.connect({ port: server.addr.port });
 * const request = { path: "/", expect: { status: 200, contentType: "application/json", body: '{"ok":true}' } };
 * assertEquals(await exchangeOnConnection(conn, "localhost", request), { answered: true, problem: null });
 * conn.close();
 * ```
 */
export async function exchangeOnConnection(
  conn: Deno.Conn,
  host: string,
  request: HttpRequestSpec,
): Promise<HeldExchange> {
  const { raw, expect } = engineRequest(host, request);
  const parser = new ResponseParser([{ raw, expect }]);
  let asked = true;
  const next = () => asked ? (asked = false, 0) : -1;
  let verdict = -1;
  let problem: string | null = null;
  const sink: ResponseSink = {
    response: (_index, v) => verdict = v,
    wantsMismatch: () => problem === null,
    mismatch: (text) => problem = text,
    unasked: () => problem ??= "a second response came to one request",
    upcoming: () => asked ? 0 : -1,
  };
  await conn.write(encoder.encode(raw));
  const buffer = new Uint8Array(64 * 1024);
  try {
    while (verdict < 0) {
      const n = await conn.read(buffer);
      if (n === null) {
        if (parser.finish(next, sink)) break;
        return { answered: false, problem: "the connection closed before a whole response" };
      }
      parser.feed(buffer.subarray(0, n), next, sink);
    }
  } catch (error) {
    if (!(error instanceof ProtocolError)) throw error;
    return { answered: verdict >= 0, problem: error.message };
  }
  // A wrong response was described (wantsMismatch); a right one has a problem only if a second one followed it.
  return { answered: true, problem: verdict === VALID ? problem : problem ?? "a wrong response" };
}
