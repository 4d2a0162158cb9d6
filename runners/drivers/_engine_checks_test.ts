// docs/method.md "What is checked on every response under load": values per key (postgres rows) and responses kept for
// checks after the run (bcrypt), in the engine's parser.
import { assertEquals, assertMatch } from "@std/assert";
import { type EngineRequest, MISMATCH, ResponseParser, type ResponseSink, VALID } from "./_engine_http.ts";
import { Tally } from "./_engine_tally.ts";

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
