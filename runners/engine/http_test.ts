import { assertEquals, assertThrows } from "@std/assert";
import {
  encodeRequest,
  type EngineRequest,
  MISMATCH,
  NON_2XX,
  ProtocolError,
  ResponseParser,
  type ResponseSink,
  VALID,
} from "./_http.ts";

const enc = new TextEncoder();
const BODY = '{"message":"Hello, World!"}';
const requests: EngineRequest[] = [
  { raw: "", expect: { status: 200, contentType: "application/json", body: BODY } },
  { raw: "", expect: { status: 201, contentType: "application/json", bodyPattern: '\\{"id":"[0-9a-f]{8}"\\}' } },
];

function response(status: string, type: string, body: string, extra = ""): string {
  return `HTTP/1.1 ${status}\r\nContent-Type: ${type}\r\n${extra}content-length: ${enc.encode(body).length}\r\n` +
    `date: Sun, 22 Nov 2026 00:00:00 GMT\r\n\r\n${body}`;
}

/** Feeds `chunks` to a parser whose requests go 0, 1, 0, 1, ...; returns the verdicts and the first mismatch. */
function parse(chunks: readonly string[]): { verdicts: number[]; bytes: number[]; mismatch: string | null } {
  const parser = new ResponseParser(requests);
  let next = 0;
  const verdicts: number[] = [];
  const bytes: number[] = [];
  let mismatch: string | null = null;
  const sink: ResponseSink = {
    response: (_i, v, b) => {
      verdicts.push(v);
      bytes.push(b);
    },
    wantsMismatch: () => mismatch === null,
    mismatch: (text) => mismatch = text,
    unasked: () => verdicts.push(-1),
  };
  for (const c of chunks) parser.feed(enc.encode(c), () => next++ % 2, sink);
  return { verdicts, bytes, mismatch };
}

const GOOD = response("200 OK", "application/json", BODY);
const CREATED = response("201 Created", "application/json", '{"id":"0a1b2c3d"}');

Deno.test("responses are parsed back to back, and split at every byte boundary", () => {
  const both = GOOD + CREATED;
  assertEquals(parse([both]).verdicts, [VALID, VALID]);
  for (let cut = 1; cut < both.length; cut++) {
    const got = parse([both.slice(0, cut), both.slice(cut)]);
    assertEquals(got.verdicts, [VALID, VALID], `cut at ${cut}`);
    assertEquals(got.bytes, [GOOD.length, CREATED.length]);
  }
});

Deno.test("a wrong body, content-type or status is a mismatch; a non-2xx status is counted apart", () => {
  const cases: [string, number][] = [
    [response("200 OK", "application/json", BODY.replace("!", "?")), MISMATCH],
    [response("200 OK", "text/json", BODY), MISMATCH],
    [response("204 No Content", "application/json", BODY), MISMATCH],
    [response("500 Internal Server Error", "text/plain", "boom"), NON_2XX],
  ];
  for (const [text, verdict] of cases) {
    const got = parse([text]);
    assertEquals(got.verdicts, [verdict], text);
    assertEquals(got.mismatch !== null, true);
  }
  // A body that does not match the pattern, and one that does.
  assertEquals(parse([GOOD, response("201 Created", "application/json", '{"id":"nothex!!"}')]).verdicts, [
    VALID,
    MISMATCH,
  ]);
});

Deno.test("a content-type is compared as a media type: another spelling of the type is valid, another type is not", () => {
  const as = (type: string) => response("200 OK", type, BODY);
  const json = (types: string[]) =>
    parse(types.flatMap((t) => [as(t), CREATED])).verdicts.filter((_, i) => i % 2 === 0);
  assertEquals(
    json(["application/json; charset=UTF-8", "application/json; charset=UTF-8", "Application/JSON", "text/json"]),
    [VALID, VALID, VALID, MISMATCH],
  );
  // The spelling seen last is not taken for a match of another: each new one is parsed.
  assertEquals(json(["application/json;charset=utf-8", "application/jsonx;charset=utf-8"]), [VALID, MISMATCH]);
  // An expectation naming a parameter needs it.
  const strict = new ResponseParser([{
    raw: "",
    expect: { ...requests[0].expect, contentType: "application/json; charset=utf-8" },
  }]);
  const verdicts: number[] = [];
  const sink: ResponseSink = {
    response: (_i, v) => verdicts.push(v),
    wantsMismatch: () => false,
    mismatch: () => {},
    unasked: () => verdicts.push(-1),
  };
  for (const t of ["application/json;charset=UTF-8", "application/json"]) strict.feed(enc.encode(as(t)), () => 0, sink);
  assertEquals(verdicts, [VALID, MISMATCH]);
});

Deno.test("a truncated response is not counted until it is complete", () => {
  const got = parse([GOOD.slice(0, -3)]);
  assertEquals(got.verdicts, []);
});

Deno.test("chunked responses are joined before their body is checked", () => {
  const head = "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n";
  const chunked = `${head}5\r\n{"mes\r\n16\r\nsage":"Hello, World!"}\r\n0\r\n\r\n`;
  assertEquals(parse([chunked, CREATED]).verdicts, [VALID, VALID]);
  assertEquals(parse([chunked.slice(0, 40), chunked.slice(40), CREATED]).verdicts, [VALID, VALID]);
});

// docs/method.md, the engine's "HTTP." item: "chunked bodies (a trailer section read past)", "interim responses
// (`103 Early Hints`, `100 Continue`: any 1xx but 101) read past to the answer they precede, which is the one counted".
Deno.test("interim responses (1xx but 101) are read past, split anywhere: the answer after them is the request's", () => {
  const hints = "HTTP/1.1 103 Early Hints\r\nLink: </style.css>; rel=preload\r\n\r\n";
  const interim = "HTTP/1.1 100 Continue\r\n\r\n" + hints;
  const both = interim + GOOD + hints + CREATED;
  for (let cut = 1; cut < both.length; cut++) {
    const got = parse([both.slice(0, cut), both.slice(cut)]);
    assertEquals(got.verdicts, [VALID, VALID], `cut at ${cut}`);
    assertEquals(got.bytes, [interim.length + GOOD.length, hints.length + CREATED.length], `cut at ${cut}`);
  }
  // Interim responses alone answer nothing; 101 is a final status, and not the 200 asked for.
  assertEquals(parse([interim]).verdicts, []);
  assertEquals(parse(["HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\n\r\n"]).verdicts, [NON_2XX]);
});

Deno.test("a chunked body's trailer section is read past; a trailer line that is no field is not HTTP", () => {
  const head = "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n";
  const body = `${head}1b\r\n${BODY}\r\n0\r\n`;
  const trailed = `${body}Server-Timing: app;dur=1\r\nX-Checksum: abc\r\n\r\n`;
  for (let cut = 1; cut < trailed.length; cut++) {
    assertEquals(parse([trailed.slice(0, cut), trailed.slice(cut), CREATED]).verdicts, [VALID, VALID], `cut ${cut}`);
  }
  assertThrows(() => parse([`${body}no field here\r\n\r\n`]), ProtocolError);
});

// docs/method.md "Dropped connections": "an answer that ends its connection's use (`Connection: close`, HTTP/1.0
// without `keep-alive`) …".
Deno.test("a response's Connection: close is read as an option among others, in any case; HTTP/1.0 closes unless kept", () => {
  /** Whether one response, in `version` with the `extra` header lines, ends its connection's use. */
  const closes = (extra: string, version = "HTTP/1.1") => {
    const parser = new ResponseParser(requests);
    const sink: ResponseSink = {
      response: () => {},
      wantsMismatch: () => false,
      mismatch: () => {},
      unasked: () => {},
    };
    const text = response("200 OK", "application/json", BODY, extra).replace("HTTP/1.1", version);
    parser.feed(enc.encode(text), () => 0, sink);
    return parser.closes;
  };
  for (const value of ["close", "Close", "keep-alive, CLOSE", " upgrade ,\tclose\t", "close,"]) {
    assertEquals(closes(`Connection: ${value}\r\n`), true, value);
  }
  for (const value of ["keep-alive", "closed", "x-close", "clos", "keep-alive, close-later", ""]) {
    assertEquals(closes(`Connection: ${value}\r\n`), false, value);
  }
  // HTTP/1.0 closes unless it says keep-alive (RFC 9112 §9.3).
  const v10 = (extra: string) => closes(extra, "HTTP/1.0");
  assertEquals([v10(""), v10("Connection: Keep-Alive\r\n"), v10("Connection: keep-alive, close\r\n")], [
    true,
    false,
    true,
  ]);
  // Per response: the next one, without the option, does not close.
  const parser = new ResponseParser(requests);
  const seen: boolean[] = [];
  const sink: ResponseSink = {
    response: () => seen.push(parser.closes),
    wantsMismatch: () => false,
    mismatch: () => {},
    unasked: () => {},
  };
  parser.feed(enc.encode(response("200 OK", "application/json", BODY, "connection: close\r\n") + GOOD), () => 0, sink);
  assertEquals(seen, [true, false]);
});

// docs/method.md "The load engine", HTTP: "the answer to a `HEAD` is its head alone".
Deno.test("the answer to a HEAD is its head alone, whatever length it names; the GET after it reads its body", () => {
  const rotation: EngineRequest[] = [
    { raw: "HEAD / HTTP/1.1\r\n\r\n", expect: { status: 200, contentType: "application/json", body: "" } },
    { raw: "GET / HTTP/1.1\r\n\r\n", expect: { status: 200, contentType: "application/json", body: BODY } },
  ];
  const headAnswer = GOOD.slice(0, GOOD.indexOf("\r\n\r\n") + 4);
  const both = headAnswer + GOOD + headAnswer + GOOD;
  for (let cut = 1; cut < both.length; cut++) {
    const parser = new ResponseParser(rotation);
    const inFlight = [0, 1, 0, 1];
    const got: [number, number, number][] = [];
    const sink: ResponseSink = {
      response: (i, v, b) => got.push([i, v, b]),
      wantsMismatch: () => false,
      mismatch: () => {},
      unasked: () => got.push([-1, -1, -1]),
      upcoming: () => inFlight[0] ?? -1,
    };
    const next = () => inFlight.shift() ?? -1;
    for (const part of [both.slice(0, cut), both.slice(cut)]) parser.feed(enc.encode(part), next, sink);
    const expected = [[0, VALID, headAnswer.length], [1, VALID, GOOD.length]];
    assertEquals(got, [...expected, ...expected], `cut at ${cut}`);
  }
});

Deno.test("bytes that are not HTTP/1.1 stop the connection", () => {
  assertThrows(() => parse(["garbage garbage garbage\r\n\r\n"]), ProtocolError);
});

Deno.test("requests are encoded with Host, their headers and a content-length for a body", () => {
  assertEquals(encodeRequest("127.0.0.1:8080", "GET", "/"), "GET / HTTP/1.1\r\nHost: 127.0.0.1:8080\r\n\r\n");
  assertEquals(
    encodeRequest("h", "POST", "/users", { "content-type": "application/json" }, '{"n":"é"}'),
    'POST /users HTTP/1.1\r\nHost: h\r\ncontent-type: application/json\r\nContent-Length: 10\r\n\r\n{"n":"é"}',
  );
});

Deno.test("a capture from a valid response fills later expectations; without one they cannot match", () => {
  const flow: EngineRequest[] = [
    {
      raw: "",
      capture: '^\\{"id":(\\d+)',
      expect: { status: 201, contentType: "application/json", bodyPattern: '\\{"id":\\d+\\}' },
    },
    { raw: "", expect: { status: 200, contentType: "application/json", bodyPattern: '\\{"id":{{capture}}\\}' } },
    { raw: "", expect: { status: 204, contentType: "", body: "" } },
  ];
  const parser = new ResponseParser(flow);
  const verdicts: number[] = [];
  const sink: ResponseSink = {
    response: (_i, v) => verdicts.push(v),
    wantsMismatch: () => false,
    mismatch: () => {},
    unasked: () => {},
  };
  const feed = (index: number, text: string) => parser.feed(enc.encode(text), () => index, sink);
  // Before any capture, a templated expectation matches nothing.
  feed(1, response("200 OK", "application/json", '{"id":7}'));
  feed(0, response("201 Created", "application/json", '{"id":7}'));
  assertEquals(parser.captured, "7");
  feed(1, response("200 OK", "application/json", '{"id":7}'));
  feed(1, response("200 OK", "application/json", '{"id":8}'));
  // A 204 without a content-type matches the expected "".
  feed(2, "HTTP/1.1 204 No Content\r\ndate: Sun, 22 Nov 2026 00:00:00 GMT\r\n\r\n");
  assertEquals(verdicts, [MISMATCH, VALID, VALID, MISMATCH, VALID]);
  // An invalid answer to the capturing request drops the value: nothing after it can claim the old resource.
  feed(0, response("500 Internal Server Error", "application/json", "{}"));
  assertEquals(parser.captured, null);
});

// docs/method.md "Every request accounted for": bytes that only look like HTTP are not an answer. Each of these
// responses carries the body the pattern wants (`{"id":"0a1b2c3d"}`, 17 bytes), so a lenient parser would count it
// valid.
Deno.test("malformed framing is a protocol error, even where the body would pass", () => {
  const body = '{"id":"0a1b2c3d"}';
  const head = (lines: string) => `HTTP/1.1 201 Created\r\ncontent-type: application/json\r\n${lines}\r\n`;
  const chunkedHead = head("transfer-encoding: chunked\r\n");
  const malformed: [string, string][] = [
    [
      "status line that is not HTTP/1.x",
      `HTXP-1.1 201 Created\r\ncontent-type: application/json\r\ncontent-length: 17\r\n\r\n${body}`,
    ],
    [
      "status code not three digits",
      `HTTP/1.1 2O1 Created\r\ncontent-type: application/json\r\ncontent-length: 17\r\n\r\n${body}`,
    ],
    ["content-length with trailing garbage", head("content-length: 17abc\r\n") + body],
    ["empty content-length", head("content-length: \r\n") + body],
    ["negative content-length", head("content-length: -17\r\n") + body],
    ["two content-lengths that differ", head("content-length: 17\r\ncontent-length: 19\r\n") + body],
    ["a header line without a colon", head("content-length: 17\r\nthis is no header\r\n") + body],
    ["a header line with an empty name", head(": x\r\ncontent-length: 17\r\n") + body],
    ["chunk size that is not hex", `${chunkedHead}0x11\r\n${body}\r\n0\r\n\r\n`],
    ["chunk size with a sign", `${chunkedHead}+11\r\n${body}\r\n0\r\n\r\n`],
    ["chunk data longer than its size", `${chunkedHead}10\r\n${body}\r\n0\r\n\r\n`],
    ["chunk data not followed by CRLF", `${chunkedHead}11\r\n${body}XY0\r\n\r\n`],
  ];
  for (const [what, text] of malformed) {
    const parser = new ResponseParser(requests);
    const verdicts: number[] = [];
    const sink: ResponseSink = {
      response: (_i, v) => verdicts.push(v),
      wantsMismatch: () => false,
      mismatch: () => {},
      unasked: () => verdicts.push(-1),
    };
    assertThrows(() => parser.feed(enc.encode(text + GOOD), () => 1, sink), ProtocolError, undefined, what);
    assertEquals(verdicts, [], what);
  }
  // The same bytes framed right are valid: identical content-lengths, chunk extensions, upper-case hex.
  const fine = [
    head("content-length: 17\r\ncontent-length: 17\r\n") + body,
    head("Content-Length:\t17 \r\n") + body,
    `${chunkedHead}C;ext=1\r\n${body.slice(0, 12)}\r\n5\r\n${body.slice(12)}\r\n0\r\n\r\n`,
  ];
  for (const text of fine) {
    const got: number[] = [];
    const sink: ResponseSink = {
      response: (_i, v) => got.push(v),
      wantsMismatch: () => false,
      mismatch: () => {},
      unasked: () => got.push(-1),
    };
    new ResponseParser(requests).feed(enc.encode(text), () => 1, sink);
    assertEquals(got, [VALID], text);
  }
});
