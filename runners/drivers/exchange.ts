/**
 * One HTTP exchange, outside any load: send a request, read the whole
 * response. Verification and the parity check look at real responses this way.
 *
 * @module
 */

import { type HttpExchange, type HttpRequestSpec, requestLabel } from "../../workloads/mod.ts";

/** Sends one request and reads the whole response. */
export async function exchange(
  baseUrl: string,
  request: HttpRequestSpec,
  timeoutMs: number,
  signal?: AbortSignal,
): Promise<HttpExchange> {
  const timeout = AbortSignal.timeout(timeoutMs);
  const label = requestLabel(request);
  let response: Response;
  let bytes: Uint8Array;
  try {
    response = await fetch(new URL(request.path, baseUrl), {
      method: request.method ?? "GET",
      headers: request.headers as Record<string, string> | undefined,
      body: request.body,
      signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
    });
    bytes = new Uint8Array(await response.arrayBuffer());
  } catch (error) {
    signal?.throwIfAborted();
    // A server that accepts the connection and never answers ends here: say so, with the flag that sets the limit.
    if (timeout.aborted) throw new Error(`${label}: no response within ${timeoutMs / 1000} s (--timeout)`);
    throw new Error(`${label}: ${(error as Error).message}`, { cause: error });
  }
  const headers: Record<string, string> = {};
  response.headers.forEach((value, name) => headers[name] = value);
  return { request, status: response.status, headers, body: new TextDecoder().decode(bytes), bodyBytes: bytes.length };
}
