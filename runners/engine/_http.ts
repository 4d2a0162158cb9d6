// The load engine's HTTP/1.1 side, free of I/O so that it runs the same on Bun and on Deno and can be tested on
// bytes: requests encoded once, responses parsed strictly (content-length and chunked framing, pipelined responses
// back to back, responses split across reads, interim 1xx responses read past) and every one checked against its
// request's expectation.
// Nothing is allocated per response unless a response straddles two reads or its body must be matched by a pattern.

import { sameMediaType } from "../../workloads/media_type.ts";
import { type HeaderRule, headerRuleText, headerTest } from "../../workloads/expected_headers.ts";

/** What one request must get back, with the bytes it is compared against. */
export interface EngineExpectation {
  /** Exact status. */
  readonly status: number;
  /** The content-type, compared as a media type (`text/plain` matches `text/plain; charset=UTF-8`). */
  readonly contentType: string;
  /** Headers the response must carry, each by exact value or pattern. */
  readonly headers?: readonly HeaderRule[];
  /** Exact body, when fixed. */
  readonly body?: string;
  /** A regular expression (source) the whole body must match, when it varies. */
  readonly bodyPattern?: string;
  /** Every `"<key>":<n>,"<value>":<m>` of the body must have `m === values[n]`, and there must be one. */
  readonly lookup?: { readonly key: string; readonly value: string; readonly values: readonly number[] };
}

/** One request as the engine sends it: the whole request, encoded once, and its expectation. */
export interface EngineRequest {
  /** The request bytes as text (ASCII headers, UTF-8 body); may hold {@linkcode CAPTURE} in its request line. */
  readonly raw: string;
  /** What its response must be; its `bodyPattern` may hold {@linkcode CAPTURE}. */
  readonly expect: EngineExpectation;
  /** A regular expression (source) whose first group, taken from a valid response, the connection keeps. */
  readonly capture?: string;
}

/** Where a request's line and expected pattern take the value its connection captured. */
export const CAPTURE = "{{capture}}";

/** Whether a request can only be sent with a captured value. */
export function usesCapture(r: EngineRequest): boolean {
  return r.raw.includes(CAPTURE) || (r.expect.bodyPattern?.includes(CAPTURE) ?? false);
}

/** A captured value as it goes into a regular expression. */
function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/**
 * An HTTP/1.1 request as bytes: request line, `Host`, the request's own
 * headers, `Content-Length` when it has a body, then the body.
 */
export function encodeRequest(
  host: string,
  method: string,
  path: string,
  headers: Readonly<Record<string, string>> = {},
  body?: string,
): string {
  let head = `${method} ${path} HTTP/1.1\r\nHost: ${host}\r\n`;
  for (const [name, value] of Object.entries(headers)) {
    if (name.toLowerCase() !== "host" && name.toLowerCase() !== "content-length") head += `${name}: ${value}\r\n`;
  }
  if (body !== undefined) head += `Content-Length: ${encoder.encode(body).length}\r\n`;
  return `${head}\r\n${body ?? ""}`;
}

import { MISMATCH, NON_2XX, VALID } from "./tally.ts";

/** How a response compared with its expectation (the verdicts every answer of the engine gets). */
export { MISMATCH, NON_2XX, VALID };

/** An expectation compiled for comparison on bytes. */
interface Compiled {
  readonly status: number;
  readonly contentType: Uint8Array;
  /**
   * The last content-type of another spelling found to be the expected media type: a server sends one spelling every
   * time, so after its first response the check is one comparison of bytes again.
   */
  typeSeen: Uint8Array | null;
  /** The headers it names; null for none (most traffic: the parser then looks at no other header). */
  readonly headers: readonly CompiledHeader[] | null;
  readonly body: Uint8Array | null;
  pattern: RegExp | null;
  readonly expect: EngineExpectation;
  /** The capture's regular expression, when this request's valid responses set the connection's value. */
  readonly capture: RegExp | null;
  /** Whether `pattern` holds the captured value (compiled again whenever it changes). */
  readonly templated: boolean;
  /** Whether the request is `HEAD`: its answer has no body. */
  readonly head: boolean;
  /** The lookup's pairs, as a global regular expression, and the values by key. */
  readonly lookup: { readonly pairs: RegExp; readonly values: readonly number[] } | null;
}

/** An expected header, compiled: where the parser keeps its value, and the value's bytes or its test. */
interface CompiledHeader {
  readonly rule: HeaderRule;
  /** Its index among the names the parser watches. */
  readonly slot: number;
  /** The exact value's bytes; null for a pattern. */
  readonly value: Uint8Array | null;
  readonly test: (value: string | undefined) => boolean;
  /** The last value the pattern passed, compared as bytes first (a server that sends one value each time). */
  seen: Uint8Array | null;
}

function compile(e: EngineExpectation, capture: string | undefined, raw: string, watched: readonly string[]): Compiled {
  const templated = e.bodyPattern?.includes(CAPTURE) ?? false;
  const headers = (e.headers ?? []).map((rule): CompiledHeader => ({
    rule,
    slot: watched.indexOf(rule.name),
    value: rule.pattern === undefined ? encoder.encode(rule.value) : null,
    test: headerTest(rule),
    seen: null,
  }));
  return {
    headers: headers.length > 0 ? headers : null,
    head: raw.startsWith("HEAD "),
    status: e.status,
    contentType: encoder.encode(e.contentType),
    typeSeen: null,
    body: e.body === undefined ? null : encoder.encode(e.body),
    pattern: e.bodyPattern === undefined || templated ? null : new RegExp(`^(?:${e.bodyPattern})$`),
    expect: e,
    capture: capture === undefined ? null : new RegExp(capture),
    templated,
    lookup: e.lookup === undefined ? null : {
      pairs: new RegExp(`"${escapeRegExp(e.lookup.key)}":(\\d+),"${escapeRegExp(e.lookup.value)}":(-?\\d+)`, "g"),
      values: e.lookup.values,
    },
  };
}

/** Whether `text` holds at least one pair of the lookup's, each with the value its key must have. */
function lookupHolds(text: string, lookup: NonNullable<Compiled["lookup"]>): boolean {
  let pairs = 0;
  for (const m of text.matchAll(lookup.pairs)) {
    pairs++;
    if (lookup.values[Number(m[1])] !== Number(m[2])) return false;
  }
  return pairs > 0;
}

/** Receives every parsed response of a connection, in order. */
export interface ResponseSink {
  /** One response to request `index` of the rotation: its verdict and size in bytes (headers and body). */
  response(index: number, verdict: number, bytes: number): void;
  /** Describes the first mismatch (called until it returns false, so a description is built once). */
  wantsMismatch(): boolean;
  /** The description of a mismatching response. */
  mismatch(text: string): void;
  /** A whole response of `bytes` came when no request was in flight (`next()` gave -1): it answers nothing. */
  unasked(bytes: number): void;
  /** Whether the next valid response's body is wanted (see {@linkcode ResponseSink.sample}). */
  wantsSample?(): boolean;
  /** The body of a valid response to request `index` of the rotation, kept to be checked after the load. */
  sample?(index: number, body: string): void;
  /**
   * The rotation index of the request the next response answers, without taking it (-1 when none is in flight):
   * asked only where a request is `HEAD`, whose answer has no body whatever its head says (RFC 9110 §9.3.2).
   */
  upcoming?(): number;
}

// A response with no content-type header matches an expected content-type of "" (a 204 carries none).
const CR = 13, LF = 10, COLON = 58, SPACE = 32, TAB = 9, COMMA = 44;

function lower(b: number): number {
  return b >= 65 && b <= 90 ? b + 32 : b;
}

/** Whether `buf[at..]` starts with the lower-case ASCII `name` followed by a colon, case-insensitively. */
function headerIs(buf: Uint8Array, at: number, end: number, name: Uint8Array): boolean {
  if (at + name.length >= end || buf[at + name.length] !== COLON) return false;
  for (let i = 0; i < name.length; i++) if (lower(buf[at + i]) !== name[i]) return false;
  return true;
}

const CONTENT_LENGTH = encoder.encode("content-length");
const CONTENT_TYPE = encoder.encode("content-type");
const TRANSFER_ENCODING = encoder.encode("transfer-encoding");
const CONNECTION = encoder.encode("connection");

const CLOSE = encoder.encode("close");
const KEEP_ALIVE = encoder.encode("keep-alive");
/** The options {@linkcode connectionOptions} reports, as bits. */
const CLOSE_OPTION = 1, KEEP_ALIVE_OPTION = 2;

/**
 * The `close` and `keep-alive` options a `Connection` field's value, `buf[from..eol]`, lists: a comma-separated list
 * of tokens, any case, blanks around them (read on bytes: Node.js sends `Connection: keep-alive` with every response).
 */
function connectionOptions(buf: Uint8Array, from: number, eol: number): number {
  let options = 0;
  let at = from;
  while (at < eol) {
    while (at < eol && (buf[at] === SPACE || buf[at] === TAB || buf[at] === COMMA)) at++;
    let end = at;
    while (end < eol && buf[end] !== COMMA) end++;
    let last = end;
    while (last > at && (buf[last - 1] === SPACE || buf[last - 1] === TAB)) last--;
    if (isToken(buf, at, last, CLOSE)) options |= CLOSE_OPTION;
    else if (isToken(buf, at, last, KEEP_ALIVE)) options |= KEEP_ALIVE_OPTION;
    at = end;
  }
  return options;
}

/** Whether `buf[from..to]` is the lower-case ASCII `token`, in any case. */
function isToken(buf: Uint8Array, from: number, to: number, token: Uint8Array): boolean {
  if (to - from !== token.length) return false;
  for (let i = 0; i < token.length; i++) if (lower(buf[from + i]) !== token[i]) return false;
  return true;
}

/** Thrown for bytes that are not HTTP/1.1: the connection cannot be trusted any more. */
export class ProtocolError extends Error {}

/**
 * Parses the responses of one connection as they arrive and checks each
 * against the expectation of the request it answers. `expected(i)` names the
 * rotation index of the i-th response (the connection's requests in order).
 */
export class ResponseParser {
  readonly #compiled: readonly Compiled[];
  #pending = new Uint8Array(0);
  #pendingLength = 0;
  #captured: string | null = null;

  /** The value the last capturing request's valid response gave (null before one, or after an invalid one). */
  get captured(): string | null {
    return this.#captured;
  }

  #setCaptured(value: string | null): void {
    this.#captured = value;
    for (const c of this.#compiled) {
      if (c.templated) {
        c.pattern = value === null
          ? null
          : new RegExp(`^(?:${c.expect.bodyPattern!.replaceAll(CAPTURE, () => escapeRegExp(value))})$`);
      }
    }
  }

  /** Bytes of a response that has begun but is not complete. */
  get partial(): number {
    return this.#pendingLength;
  }

  /** A parser for responses to `requests` (their expectations, by rotation index). */
  constructor(requests: readonly EngineRequest[]) {
    const watched = [...new Set(requests.flatMap((r) => (r.expect.headers ?? []).map((h) => h.name)))];
    this.#watched = watched.map((name) => encoder.encode(name));
    this.#found = new Int32Array(2 * watched.length);
    this.#counts = new Int32Array(watched.length);
    this.#compiled = requests.map((r) => compile(r.expect, r.capture, r.raw, watched));
    this.#anyHead = this.#compiled.some((c) => c.head);
  }

  /** The names of the headers any expectation checks, lower case (most traffic: none). */
  readonly #watched: readonly Uint8Array[];
  /** Where each watched header's value starts and ends in the last head (valid where its count is not 0). */
  readonly #found: Int32Array;
  /** How many times each watched header came in the last head. */
  readonly #counts: Int32Array;
  /** Where the last head starts and ends (its body's start). */
  #headStart = 0;
  #headEnd = 0;

  /** Whether any request is `HEAD` (most traffic has none: the hot path skips asking). */
  readonly #anyHead: boolean;

  /**
   * Feeds the next bytes of the connection; calls `sink.response` for every
   * complete response, taking request indices from `next()` in order.
   * Returns the number of complete responses.
   */
  feed(chunk: Uint8Array, next: () => number, sink: ResponseSink): number {
    let buf = chunk;
    let start = 0;
    let end = chunk.length;
    if (this.#pendingLength > 0) {
      this.#append(chunk);
      buf = this.#pending;
      end = this.#pendingLength;
    }
    let count = 0;
    while (start < end) {
      const used = this.#one(buf, start, end, next, sink);
      if (used === 0) break;
      start += used;
      count++;
    }
    // Keep what is left of an incomplete response (copied: the chunk's memory may be reused by the transport).
    if (buf === this.#pending) {
      this.#pending.copyWithin(0, start, end);
      this.#pendingLength = end - start;
    } else if (start < end) {
      this.#pendingLength = 0;
      this.#append(chunk.subarray(start, end));
    }
    return count;
  }

  #append(bytes: Uint8Array): void {
    const need = this.#pendingLength + bytes.length;
    if (need > this.#pending.length) {
      const grown = new Uint8Array(Math.max(need, this.#pending.length * 2, 4096));
      grown.set(this.#pending.subarray(0, this.#pendingLength));
      this.#pending = grown;
    }
    this.#pending.set(bytes, this.#pendingLength);
    this.#pendingLength = need;
  }

  // What #head found in the last response's head (fields, not an object: nothing is allocated per response).
  #status = 0;
  #contentLength = -1;
  #chunked = false;
  #typeStart = -1;
  #typeEnd = -1;
  #closes = false;
  #keepAlive = false;

  /**
   * Whether the last response ended its connection's use (RFC 9112 §9.3, §9.6): it said `Connection: close`, or it
   * is HTTP/1.0 without the `keep-alive` option, or its body ran to the close. The client sends nothing more on the
   * connection and closes it once the answers it is owed are in.
   */
  get closes(): boolean {
    return this.#closes;
  }

  /** Parses one response at `start`; returns its length, or 0 when it is not complete yet. */
  #one(buf: Uint8Array, start: number, end: number, next: () => number, sink: ResponseSink): number {
    let at = this.#head(buf, start, end);
    // Interim responses (1xx but 101: 100 Continue, 103 Early Hints) come before the answer to the same request, and
    // a client must read past them even unasked for (RFC 9110 §15.2): no body, no request of their own, their bytes
    // counted with the answer's. Until the answer is whole they are read again with it, as any incomplete response.
    while (at !== 0 && this.#status < 200 && this.#status !== 101) at = this.#head(buf, at, end);
    if (at === 0) return 0;
    let bodyStart = at;
    let bodyEnd: number;
    let total: number;
    let body: Uint8Array | null = null;
    if (this.#anyHead && this.#compiled[sink.upcoming?.() ?? -1]?.head) {
      // The answer to a HEAD: its head alone, whatever length or coding it names.
      bodyEnd = at;
      total = at - start;
    } else if (this.#chunked) {
      const after = this.#chunks(buf, at, end);
      if (after === 0) return 0;
      body = this.#joined;
      bodyStart = 0;
      bodyEnd = body.length;
      total = after - start;
    } else if (this.#contentLength < 0 && this.#hasBody()) {
      // No length and no chunks: the body runs to the end of the connection (HTTP/1.0 style), which that ends.
      if (!this.#atClose) return 0;
      this.#closes = true;
      bodyEnd = end;
      total = end - start;
    } else {
      const length = this.#contentLength < 0 ? 0 : this.#contentLength;
      if (at + length > end) return 0;
      bodyEnd = at + length;
      total = bodyEnd - start;
    }
    const index = next();
    if (index < 0) {
      sink.unasked(total);
      return total;
    }
    this.#judge(index, buf, body ?? buf, bodyStart, bodyEnd, sink);
    sink.response(index, this.#verdict, total);
    return total;
  }

  /** Whether a response of the last head's status carries a body (1xx, 204 and 304 never do). */
  #hasBody(): boolean {
    return this.#status >= 200 && this.#status !== 204 && this.#status !== 304;
  }

  /** Set while the connection's end is being read: a body without length or chunks ends here. */
  #atClose = false;

  /**
   * The connection has closed: completes a response whose body ran to the close (no content-length, not chunked).
   * Returns whether one did; bytes still pending after that are a truncated response.
   */
  finish(next: () => number, sink: ResponseSink): boolean {
    if (this.#pendingLength === 0) return false;
    this.#atClose = true;
    try {
      const used = this.#one(this.#pending, 0, this.#pendingLength, next, sink);
      if (used === 0) return false;
      this.#pendingLength = 0;
      return true;
    } finally {
      this.#atClose = false;
    }
  }

  /** Reads the status line and headers at `start`; returns where the body starts, or 0 when they are incomplete. */
  #head(buf: Uint8Array, start: number, end: number): number {
    // Status line: "HTTP/1.x SSS ..." (or "HTTP/1.x SSS" and its CRLF), checked byte by byte.
    if (end - start < 14) return 0;
    if (!statusLine(buf, start)) {
      throw new ProtocolError(
        `not an HTTP/1.1 response: ${JSON.stringify(decoder.decode(buf.subarray(start, start + 20)))}`,
      );
    }
    this.#status = (buf[start + 9] - 48) * 100 + (buf[start + 10] - 48) * 10 + (buf[start + 11] - 48);
    this.#contentLength = -1;
    this.#chunked = false;
    this.#closes = this.#keepAlive = false;
    this.#typeStart = this.#typeEnd = -1;
    if (this.#watched.length > 0) this.#counts.fill(0);
    this.#headStart = start;
    let at = lineEnd(buf, start, end);
    if (at < 0) return 0;
    at += 2;
    // Header lines until the empty line.
    while (true) {
      if (at + 1 >= end) return 0;
      if (buf[at] === CR && buf[at + 1] === LF) {
        // HTTP/1.0 keeps a connection only when the response says keep-alive.
        if (buf[start + 7] === DIGIT0 && !this.#keepAlive) this.#closes = true;
        this.#headEnd = at + 2;
        return at + 2;
      }
      const eol = lineEnd(buf, at, end);
      if (eol < 0) return 0;
      this.#header(buf, at, eol);
      at = eol + 2;
    }
  }

  /**
   * Takes in one header line, `buf[at..eol]`: the three that matter are kept, the others passed over. A line that is
   * no `name: value` (no colon, an empty name, one starting blank) is not HTTP: the framing cannot be trusted.
   */
  #header(buf: Uint8Array, at: number, eol: number): void {
    // Inline, not isField(): this runs for every header of every response.
    let colon = at;
    while (colon < eol && buf[colon] > SPACE && buf[colon] !== COLON) colon++;
    if (colon === at || buf[colon] !== COLON) notAHeader(buf, at, eol);
    if (this.#watched.length > 0) this.#watch(buf, at, colon, eol);
    const first = lower(buf[at]);
    if (first === 99 /* c */) {
      if (headerIs(buf, at, eol, CONTENT_LENGTH)) {
        const n = contentLength(buf, at + CONTENT_LENGTH.length + 1, eol);
        if (n < 0 || (this.#contentLength >= 0 && n !== this.#contentLength)) {
          throw new ProtocolError(
            `bad content-length: ${JSON.stringify(decoder.decode(buf.subarray(at, eol)))}` +
              (n >= 0 ? ` after ${this.#contentLength}` : ""),
          );
        }
        this.#contentLength = n;
      } else if (headerIs(buf, at, eol, CONTENT_TYPE)) {
        this.#typeStart = valueStart(buf, at + CONTENT_TYPE.length + 1, eol);
        this.#typeEnd = valueEnd(buf, this.#typeStart, eol);
      } else if (headerIs(buf, at, eol, CONNECTION)) {
        const options = connectionOptions(buf, at + CONNECTION.length + 1, eol);
        if (options & CLOSE_OPTION) this.#closes = true;
        if (options & KEEP_ALIVE_OPTION) this.#keepAlive = true;
      }
    } else if (first === 116 /* t */ && headerIs(buf, at, eol, TRANSFER_ENCODING)) {
      // Any transfer coding but chunked alone would need decoding rtbench does not do: refuse it plainly.
      const value = decoder.decode(buf.subarray(at + TRANSFER_ENCODING.length + 1, eol)).trim().toLowerCase();
      if (value !== "chunked") throw new ProtocolError(`unsupported transfer-encoding: ${value}`);
      this.#chunked = true;
    }
  }

  /** Notes where a watched header's value is, `buf[at..eol]` being its line and `colon` the end of its name. */
  #watch(buf: Uint8Array, at: number, colon: number, eol: number): void {
    for (let w = 0; w < this.#watched.length; w++) {
      if (!isToken(buf, at, colon, this.#watched[w])) continue;
      if (this.#counts[w]++ === 0) {
        const from = valueStart(buf, colon + 1, eol);
        this.#found[2 * w] = from;
        this.#found[2 * w + 1] = valueEnd(buf, from, eol);
      }
      return;
    }
  }

  /** A watched header's value in the last head, decoded: null when absent, its values joined by `, ` when repeated. */
  #headerValue(buf: Uint8Array, w: number): string | null {
    if (this.#counts[w] === 0) return null;
    if (this.#counts[w] === 1) return decoder.decode(buf.subarray(this.#found[2 * w], this.#found[2 * w + 1]));
    // Sent more than once (rare): read the head again for every line of it.
    const values: string[] = [];
    let at = lineEnd(buf, this.#headStart, this.#headEnd) + 2;
    while (at < this.#headEnd - 2) {
      const eol = lineEnd(buf, at, this.#headEnd);
      const colon = buf.indexOf(COLON, at);
      if (isToken(buf, at, colon, this.#watched[w])) {
        const from = valueStart(buf, colon + 1, eol);
        values.push(decoder.decode(buf.subarray(from, valueEnd(buf, from, eol))));
      }
      at = eol + 2;
    }
    return values.join(", ");
  }

  /** The first header of `e`'s that the last response does not carry as expected, or null when all are right. */
  #wrongHeader(buf: Uint8Array, e: Compiled): CompiledHeader | null {
    for (const h of e.headers!) {
      const w = h.slot;
      if (this.#counts[w] === 1) {
        const from = this.#found[2 * w], to = this.#found[2 * w + 1];
        if (h.value !== null) {
          if (sameBytes(buf, from, to, h.value)) continue;
          return h;
        }
        if (h.seen !== null && sameBytes(buf, from, to, h.seen)) continue;
        if (!h.test(decoder.decode(buf.subarray(from, to)))) return h;
        h.seen = buf.slice(from, to);
      } else if (!h.test(this.#headerValue(buf, w) ?? undefined)) {
        return h;
      }
    }
    return null;
  }

  /** The last chunked body, joined. */
  #joined = new Uint8Array(0);

  /**
   * Reads a chunked body at `at`; returns where it ends (its chunks joined into `#joined`), or 0 when incomplete.
   * Chunks are joined into a body of their own (rare for benchmark servers; correctness over speed here).
   */
  #chunks(buf: Uint8Array, at: number, end: number): number {
    const parts: Uint8Array[] = [];
    let p = at;
    while (true) {
      const eol = lineEnd(buf, p, end);
      if (eol < 0) return 0;
      const line = decoder.decode(buf.subarray(p, eol));
      const hex = /^([0-9a-fA-F]{1,8})[ \t]*(?:;.*)?$/.exec(line)?.[1];
      if (hex === undefined) throw new ProtocolError(`bad chunk size: ${JSON.stringify(line.slice(0, 40))}`);
      const size = parseInt(hex, 16);
      p = eol + 2;
      if (size === 0) {
        // The trailer section (RFC 9112 §7.1.2): field lines until an empty one, read past like a head's other fields.
        while (true) {
          if (p + 1 >= end) return 0;
          if (buf[p] === CR && buf[p + 1] === LF) break;
          const fieldEnd = lineEnd(buf, p, end);
          if (fieldEnd < 0) return 0;
          if (!isField(buf, p, fieldEnd)) notAHeader(buf, p, fieldEnd);
          p = fieldEnd + 2;
        }
        p += 2;
        break;
      }
      if (p + size + 2 > end) return 0;
      if (buf[p + size] !== CR || buf[p + size + 1] !== LF) {
        throw new ProtocolError(`chunk of ${size} bytes not followed by CRLF: its size is wrong`);
      }
      parts.push(buf.subarray(p, p + size));
      p += size + 2;
    }
    const joined = new Uint8Array(parts.reduce((a, c) => a + c.length, 0));
    let o = 0;
    for (const c of parts) {
      joined.set(c, o);
      o += c.length;
    }
    this.#joined = joined;
    return p;
  }

  /** Whether the last response's content-type is the media type `e` expects: its bytes first, parsed only when new. */
  #typeMatches(buf: Uint8Array, e: Compiled): boolean {
    const from = this.#typeStart, to = this.#typeEnd;
    if (sameBytes(buf, from, to, e.contentType)) return true;
    if (from < 0 || e.contentType.length === 0) return false;
    if (e.typeSeen !== null && sameBytes(buf, from, to, e.typeSeen)) return true;
    if (!sameMediaType(e.expect.contentType, decoder.decode(buf.subarray(from, to)))) return false;
    e.typeSeen = buf.slice(from, to);
    return true;
  }

  /** The verdict of the last response. */
  #verdict = VALID;

  /** Checks the response to request `index` (head in `buf`, body in `bytes[from..to]`); updates the capture. */
  #judge(index: number, buf: Uint8Array, bytes: Uint8Array, from: number, to: number, sink: ResponseSink): void {
    const e = this.#compiled[index];
    const status = this.#status;
    let verdict = VALID;
    if (status < 200 || status > 299) verdict = NON_2XX;
    else if (
      status !== e.status || !this.#typeMatches(buf, e) ||
      (e.headers !== null && this.#wrongHeader(buf, e) !== null) || !bodyMatches(bytes, from, to, e)
    ) {
      verdict = MISMATCH;
    }
    if (e.capture !== null) {
      const found = verdict === VALID ? e.capture.exec(decoder.decode(bytes.subarray(from, to))) : null;
      this.#setCaptured(found?.[1] ?? null);
    }
    if (verdict === VALID && sink.wantsSample?.()) sink.sample!(index, decoder.decode(bytes.subarray(from, to)));
    if (verdict !== VALID && sink.wantsMismatch()) {
      const type = this.#typeStart < 0 ? null : decoder.decode(buf.subarray(this.#typeStart, this.#typeEnd));
      const wrong = e.headers === null ? null : this.#wrongHeader(buf, e);
      const header = wrong && { rule: wrong.rule, actual: this.#headerValue(buf, wrong.slot) };
      sink.mismatch(describe(status, type, header, bytes, from, to, e));
    }
    this.#verdict = verdict;
  }
}

const DIGIT0 = 48, DIGIT9 = 57;
const isDigit = (b: number) => b >= DIGIT0 && b <= DIGIT9;
const HTTP1 = encoder.encode("HTTP/1.");

/** Whether `buf[start..]` opens with a status line: `HTTP/1.<digit> <3 digits>` then a space or the CR. */
function statusLine(buf: Uint8Array, start: number): boolean {
  for (let i = 0; i < HTTP1.length; i++) if (buf[start + i] !== HTTP1[i]) return false;
  return isDigit(buf[start + 7]) && buf[start + 8] === SPACE && isDigit(buf[start + 9]) &&
    isDigit(buf[start + 10]) && isDigit(buf[start + 11]) && (buf[start + 12] === SPACE || buf[start + 12] === CR);
}

/** A content-length value, `buf[from..eol]`: digits between optional blanks; -1 when it is anything else. */
function contentLength(buf: Uint8Array, from: number, eol: number): number {
  let v = from;
  while (v < eol && (buf[v] === SPACE || buf[v] === TAB)) v++;
  const digits = v;
  let n = 0;
  for (; v < eol && isDigit(buf[v]); v++) n = n * 10 + buf[v] - DIGIT0;
  if (v === digits || v - digits > 15) return -1;
  while (v < eol && (buf[v] === SPACE || buf[v] === TAB)) v++;
  return v === eol ? n : -1;
}

/**
 * Whether `buf[at..eol]` is a `name: value` line: a name, then a colon; a blank or a colon first is none, and so is a
 * line without a colon. The scan stops at the first byte that cannot be in a name (this runs for every header).
 */
function isField(buf: Uint8Array, at: number, eol: number): boolean {
  let colon = at;
  while (colon < eol && buf[colon] > SPACE && buf[colon] !== COLON) colon++;
  return colon !== at && buf[colon] === COLON;
}

/** Throws for a header line that is no `name: value` (kept out of the hot path). */
function notAHeader(buf: Uint8Array, at: number, eol: number): never {
  throw new ProtocolError(`not an HTTP header line: ${JSON.stringify(decoder.decode(buf.subarray(at, eol)))}`);
}

/** Where a field's value starts: past the blanks after its colon at `from - 1`. */
function valueStart(buf: Uint8Array, from: number, eol: number): number {
  while (from < eol && (buf[from] === SPACE || buf[from] === TAB)) from++;
  return from;
}

/** Where a field's value starting at `from` ends: before the blanks at the end of its line. */
function valueEnd(buf: Uint8Array, from: number, eol: number): number {
  let to = eol;
  while (to > from && (buf[to - 1] === SPACE || buf[to - 1] === TAB)) to--;
  return to;
}

/** Where the line starting at `from` ends (its CR), or -1 when its CRLF has not arrived. */
function lineEnd(buf: Uint8Array, from: number, end: number): number {
  let i = from;
  while (i < end - 1 && !(buf[i] === CR && buf[i + 1] === LF)) i++;
  return i >= end - 1 ? -1 : i;
}

function sameBytes(buf: Uint8Array, from: number, to: number, expected: Uint8Array): boolean {
  if (from < 0) return expected.length === 0;
  if (to - from !== expected.length) return false;
  for (let i = 0; i < expected.length; i++) if (buf[from + i] !== expected[i]) return false;
  return true;
}

function bodyMatches(buf: Uint8Array, from: number, to: number, e: Compiled): boolean {
  if (e.body !== null && !sameBytes(buf, from, to, e.body)) return false;
  // A templated pattern without a captured value cannot match: its request should not have gone out.
  if (e.templated && e.pattern === null) return false;
  if (e.pattern !== null && !e.pattern.test(decoder.decode(buf.subarray(from, to)))) return false;
  if (e.lookup !== null && !lookupHolds(decoder.decode(buf.subarray(from, to)), e.lookup)) return false;
  return true;
}

function describe(
  status: number,
  contentType: string | null,
  header: { readonly rule: HeaderRule; readonly actual: string | null } | null,
  buf: Uint8Array,
  from: number,
  to: number,
  e: Compiled,
): string {
  const body = decoder.decode(buf.subarray(from, Math.min(to, from + 200)));
  const lookup = e.expect.lookup ? ` with each ${e.expect.lookup.value} the one of its ${e.expect.lookup.key}` : "";
  const want =
    (e.expect.body !== undefined ? JSON.stringify(e.expect.body.slice(0, 80)) : `/${e.expect.bodyPattern}/`) +
    lookup;
  const got = header ? `, ${header.rule.name} ${JSON.stringify(header.actual)}` : "";
  const expected = header ? `, ${header.rule.name} ${headerRuleText(header.rule)}` : "";
  return `status ${status}, content-type ${JSON.stringify(contentType)}${got}, body ${
    JSON.stringify(body)
  }; expected ` +
    `${e.expect.status}, ${JSON.stringify(e.expect.contentType)}${expected}, ${want}`;
}
