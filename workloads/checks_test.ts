// docs/method.md "Verification before any load": each check of one exchange fails on its own fault and on nothing
// else — status, content-type (as a media type), content-length (none only where the framing says how long), body,
// body pattern, a named header.
import { assertEquals } from "@std/assert";
import { checkExchange } from "./checks.ts";
import type { HttpExchange } from "./types.ts";

const BODY = '{"message":"Hello, World!"}';
const RIGHT: HttpExchange = {
  request: { path: "/", expect: { status: 200, contentType: "application/json", body: BODY } },
  status: 200,
  headers: { "content-type": "application/json; charset=UTF-8", "content-length": String(BODY.length) },
  body: BODY,
  bodyBytes: BODY.length,
};

/** The names of the checks that failed. */
const failed = (x: HttpExchange) => checkExchange(x).filter((c) => !c.passed).map((c) => c.name);

Deno.test("a right exchange passes every check; each wrong part fails its own check alone", () => {
  assertEquals(checkExchange(RIGHT).map((c) => c.name), [
    "GET / status",
    "GET / content-type",
    "GET / content-length",
    "GET / body",
  ]);
  assertEquals(failed(RIGHT), []);
  assertEquals(failed({ ...RIGHT, status: 201 }), ["GET / status"]);
  assertEquals(failed({ ...RIGHT, headers: { ...RIGHT.headers, "content-type": "text/plain" } }), [
    "GET / content-type",
  ]);
  assertEquals(failed({ ...RIGHT, headers: { ...RIGHT.headers, "content-length": "26" } }), ["GET / content-length"]);
  const body = '{"message":"Hello, world!"}';
  assertEquals(failed({ ...RIGHT, body }), ["GET / body"]);
});

Deno.test("no content-length passes only where the framing says how long: chunked, or a 204 without a body", () => {
  const { "content-length": _, ...unframed } = RIGHT.headers;
  assertEquals(failed({ ...RIGHT, headers: unframed }), ["GET / content-length"]);
  assertEquals(failed({ ...RIGHT, headers: { ...unframed, "transfer-encoding": "chunked" } }), []);
  const noContent = { path: "/", expect: { status: 204, contentType: "" } };
  assertEquals(failed({ request: noContent, status: 204, headers: {}, body: "", bodyBytes: 0 }), []);
});

Deno.test("a body pattern and a named header are checked when the expectation has them", () => {
  const request = {
    path: "/id/1",
    expect: { status: 200, contentType: "text/plain", bodyPattern: "1 [a-z]+", headers: { "x-powered-by": "bench" } },
  };
  const right = {
    request,
    status: 200,
    headers: { "content-type": "text/plain", "content-length": "5", "x-powered-by": "bench" },
    body: "1 bun",
    bodyBytes: 5,
  };
  assertEquals(failed(right), []);
  assertEquals(failed({ ...right, body: "1 Bun" }), ["GET /id/1 body pattern"]);
  assertEquals(failed({ ...right, headers: { ...right.headers, "x-powered-by": "other" } }), [
    "GET /id/1 x-powered-by",
  ]);
});
