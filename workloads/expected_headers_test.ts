// Expected headers (`expect.headers`): the rule verification and the load engine share, and its plain-data form.
import { assertEquals } from "@std/assert";
import { headerRules, headerRuleText, headerTest } from "./expected_headers.ts";
import { checkExchange } from "./checks.ts";
import type { HttpRequestSpec } from "./types.ts";

Deno.test("a string is the exact value, a RegExp must match the whole value; a missing header fails either", () => {
  const [exact, pattern] = headerRules({ "X-Powered-By": "benchmark", "X-Id": /\d+/ }).map(headerTest);
  assertEquals([exact("benchmark"), exact("Benchmark"), exact("benchmark2"), exact(undefined)], [
    true,
    false,
    false,
    false,
  ]);
  assertEquals([pattern("42"), pattern("a42"), pattern("42 "), pattern(undefined)], [true, false, false, false]);
});

Deno.test("a RegExp's flags count but g and y, whose last index would make one test depend on the one before", () => {
  const [rule] = headerRules({ etag: /w\/"[a-f0-9]+"/giy });
  assertEquals(rule, { name: "etag", pattern: 'w\\/"[a-f0-9]+"', flags: "i" });
  const passes = headerTest(rule);
  assertEquals([passes('W/"ab12"'), passes('W/"ab12"'), passes('"ab12"')], [true, true, false]);
  assertEquals(headerRuleText(rule), '/w\\/"[a-f0-9]+"/i');
});

Deno.test("the rules are plain data: they survive JSON as they are", () => {
  const rules = headerRules({ "Cache-Control": /max-age=\d+/, Vary: "accept-encoding" });
  assertEquals(JSON.parse(JSON.stringify(rules)), rules);
  assertEquals(rules.map((r) => r.name), ["cache-control", "vary"]);
});

Deno.test("verification checks each named header, by its lower-case name, beside the body", () => {
  const request: HttpRequestSpec = {
    path: "/id/1",
    expect: { status: 200, contentType: "text/plain", body: "1", headers: { "X-Powered-By": "benchmark" } },
  };
  const answer = (headers: Record<string, string>) =>
    checkExchange({
      request,
      status: 200,
      headers: { "content-type": "text/plain; charset=UTF-8", "content-length": "1", ...headers },
      body: "1",
      bodyBytes: 1,
    }).filter((c) => !c.passed).map((c) => [c.name, c.actual]);
  assertEquals(answer({ "x-powered-by": "benchmark" }), []);
  assertEquals(answer({ "x-powered-by": "express" }), [["GET /id/1 x-powered-by", "express"]]);
  assertEquals(answer({}), [["GET /id/1 x-powered-by", null]]);
});
