// Parity across runtimes compares a content type as the expectation does: spellings of one media type are alike.
import { assertEquals } from "@std/assert";
import type { HttpExchange } from "../../workloads/mod.ts";
import { judgeParity } from "./parity.ts";

/** Each runtime's one answer to `GET /`, with its content type. */
function verdicts(expected: string, types: Record<string, string>) {
  const request = { path: "/", expect: { status: 200, contentType: expected, body: "hi" } };
  const seen = (type: string): HttpExchange => ({
    request,
    status: 200,
    headers: { "content-type": type, "content-length": "2" },
    body: "hi",
    bodyBytes: 2,
  });
  const judged = judgeParity(Object.entries(types).map(([runtime, type]) => ({ runtime, exchanges: [seen(type)] })));
  return Object.fromEntries([...judged].map(([runtime, v]) => [runtime, v.invalid === null]));
}

Deno.test("runtimes that spell one media type two ways agree; a parameter the expectation names must agree too", () => {
  const types = { deno: "text/plain;charset=UTF-8", node: "text/plain; charset=utf-8", bun: "text/plain" };
  assertEquals(verdicts("text/plain", types), { deno: true, node: true, bun: true });
  assertEquals(verdicts("text/plain; charset=utf-8", types), { deno: true, node: true, bun: false });
  assertEquals(verdicts("text/plain", { deno: "text/plain", node: "text/html" }), { deno: false, node: false });
});
