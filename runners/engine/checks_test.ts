// docs/method.md "What is checked on every response under load": values per key (postgres rows) and responses kept for
// checks after the run (bcrypt), in the engine's parser.
import { assertEquals, assertMatch } from "@std/assert";
import { type EngineRequest, MISMATCH, ResponseParser, type ResponseSink, VALID } from "./_http.ts";
import { Tally } from "./tally.ts";

const enc = new TextEncoder();
const ok = (body: string) =>
  enc.encode(`HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: ${body.length}\r\n\r\n${body}`);

/** Verdicts of `bodies` answered to `request`, and the mismatch described first. */
function verdicts(request: EngineRequest, bodies: string[], tally = new Tally([])) {
  const parser = new ResponseParser([request]);
  const got: number[] = [];
  let first: string | null = null;
  const sink: ResponseSink = {
    response: (_i, v) => got.push(v),
    wantsMismatch: () => first === null,
    mismatch: (text) => first = text,
    unasked: () => got.push(-1),
    wantsSample: () => tally.wantsSample(),
    sample: (index, body) => tally.samples.push({ index, body }),
  };
  for (const b of bodies) parser.feed(ok(b), () => 0, sink);
  return { got, first, tally };
}

// values[id] is the number seeded for id: 1 → 7, 2 → 42.
const ROWS: EngineRequest = {
  raw: "",
  expect: {
    status: 200,
    contentType: "application/json",
    bodyPattern: '\\[?\\{"id":\\d+,"randomNumber":\\d+\\}(,\\{"id":\\d+,"randomNumber":\\d+\\})*\\]?',
    lookup: { key: "id", value: "randomNumber", values: [0, 7, 42] },
  },
};

Deno.test("a row's value must be the one its key holds: right rows pass, one wrong row fails the response", () => {
  const { got, first } = verdicts(ROWS, [
    '{"id":1,"randomNumber":7}',
    '[{"id":1,"randomNumber":7},{"id":2,"randomNumber":42}]',
    '[{"id":1,"randomNumber":7},{"id":2,"randomNumber":41}]',
    '{"id":3,"randomNumber":7}',
  ]);
  assertEquals(got, [VALID, VALID, MISMATCH, MISMATCH]);
  assertMatch(first!, /expected .* with each randomNumber the one of its id$/);
});

Deno.test("the first valid response and every n-th after it are kept with their bodies", () => {
  const tally = new Tally([]);
  tally.sampleEvery = 3;
  const bodies = Array.from({ length: 7 }, (_, i) => `{"id":1,"randomNumber":7}`.replace("}", `${" ".repeat(i)}}`));
  // The body pattern does not allow the spaces: only the first is valid. Keep valid ones only.
  verdicts(ROWS, bodies, tally);
  assertEquals(tally.samples.length, 1);
  const again = new Tally([]);
  again.sampleEvery = 3;
  verdicts(ROWS, Array.from({ length: 7 }, () => '{"id":2,"randomNumber":42}'), again);
  // Valid responses 1, 4 and 7 of 7.
  assertEquals(again.samples.map((s) => s.body), Array(3).fill('{"id":2,"randomNumber":42}'));
});

/** A 200 answer with `headers` (lines without their CRLF) and a fixed body. */
const withHeaders = (...headers: string[]) =>
  `HTTP/1.1 200 OK\r\ncontent-type: text/plain;charset=utf-8\r\n${headers.map((h) => `${h}\r\n`).join("")}` +
  "content-length: 5\r\n\r\n1 bun";

/** Verdicts of `answers` to a rotation of `requests` (0, 1, 0, 1, ...), each fed at once or in `pieces` parts. */
function judged(requests: EngineRequest[], answers: string[], pieces = 1) {
  const parser = new ResponseParser(requests);
  const got: number[] = [];
  const mismatches: string[] = [];
  const sink: ResponseSink = {
    response: (_i, v) => got.push(v),
    wantsMismatch: () => true,
    mismatch: (text) => mismatches.push(text),
    unasked: () => got.push(-1),
  };
  let n = 0;
  const bytes = enc.encode(answers.join(""));
  const cut = Math.ceil(bytes.length / pieces);
  for (let at = 0; at < bytes.length; at += cut) {
    parser.feed(bytes.subarray(at, at + cut), () => n++ % requests.length, sink);
  }
  return { got, mismatches };
}

const ITEM: EngineRequest = {
  raw: "",
  expect: {
    status: 200,
    contentType: "text/plain",
    body: "1 bun",
    headers: [{ name: "x-powered-by", value: "benchmark" }, {
      name: "x-request-id",
      pattern: "[0-9a-f]{4}",
      flags: "",
    }],
  },
};

Deno.test("an expected header is checked on every response: by exact value or pattern, its name in any case", () => {
  const { got, mismatches } = judged([ITEM], [
    withHeaders("X-Powered-By: benchmark", "x-request-id: 00af"),
    withHeaders("x-request-id:   beef  ", "x-powered-by:benchmark"),
    withHeaders("x-powered-by: express", "x-request-id: 00af"),
    withHeaders("x-powered-by: benchmark", "x-request-id: 00afx"),
    withHeaders("x-request-id: 00af"),
  ]);
  assertEquals(got, [VALID, VALID, MISMATCH, MISMATCH, MISMATCH]);
  assertEquals(
    mismatches[0],
    'status 200, content-type "text/plain;charset=utf-8", x-powered-by "express", body "1 bun"; ' +
      'expected 200, "text/plain", x-powered-by "benchmark", "1 bun"',
  );
  assertMatch(mismatches[1], /x-request-id "00afx", .*x-request-id \/\[0-9a-f\]\{4\}\//);
  assertMatch(mismatches[2], /x-powered-by null, /);
});

Deno.test("a header sent twice is read as its values joined, as fetch() reads it for verification", () => {
  const joined: EngineRequest = {
    raw: "",
    expect: { status: 200, contentType: "text/plain", headers: [{ name: "vary", value: "accept, origin" }] },
  };
  assertEquals(judged([joined], [withHeaders("Vary: accept", "vary: origin"), withHeaders("vary: accept")]).got, [
    VALID,
    MISMATCH,
  ]);
});

Deno.test("headers expected of one request are not asked of another, and survive responses cut anywhere", () => {
  const plain: EngineRequest = { raw: "", expect: { status: 200, contentType: "text/plain", body: "1 bun" } };
  const answers = [withHeaders("x-powered-by: benchmark", "x-request-id: 0123"), withHeaders()];
  for (let pieces = 1; pieces <= answers.join("").length; pieces++) {
    assertEquals(judged([ITEM, plain], answers, pieces).got, [VALID, VALID], `${pieces} pieces`);
  }
  assertEquals(judged([ITEM, plain], [withHeaders(), withHeaders()]).got, [MISMATCH, VALID]);
});
