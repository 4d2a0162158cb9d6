// One HTTP/1.1 connection of the load engine: it sends the next request of the rotation (with the value it captured,
// when the request needs one), pairs each response with the oldest request in flight, has it parsed and checked, and
// reports both to the load. Requests carrying a captured value wait for every answer before them.
// Keep-alive off (`--keep-alive off`), it is a client that opens a new TCP connection for each request: the request
// goes out when the connection is open (its connect timed apart), and once its answer is complete the client closes
// that connection itself, so a server that ignores `Connection: close` holds nothing up. A server's close after the
// answer is the expected end; a close before it is a drop, as with keep-alive.
// Keep-alive on, a response that ends its connection's use (`Connection: close`, HTTP/1.0 without keep-alive, a body
// that runs to the close) ends it: nothing more is sent on it, the client closes it once no answer is owed (requests
// pipelined after that response go unanswered) and the load opens another at once; that close is the one the server
// announced (`announcedCloses`), not a drop.

import type { LoadConnection, LoadEvents } from "./load.ts";
import { InFlight } from "./in_flight.ts";
import { CAPTURE, type EngineRequest, ProtocolError, ResponseParser, type ResponseSink, usesCapture } from "./_http.ts";
import type { Connect, Transport } from "./_transport.ts";

/** The rotation of requests every connection of a load shares, encoded once. */
export class Rotation {
  readonly requests: readonly EngineRequest[];
  readonly encoded: readonly Uint8Array[];
  /** Whether each request carries the connection's captured value (encoded when sent). */
  readonly templated: readonly boolean[];

  /** The rotation of `requests`. */
  constructor(requests: readonly EngineRequest[]) {
    this.requests = requests;
    this.encoded = requests.map((r) => new TextEncoder().encode(r.raw));
    this.templated = requests.map(usesCapture);
    this.anyTemplated = this.templated.includes(true);
  }

  /** Whether any request carries a captured value (most traffic has none: the hot path skips the checks). */
  readonly anyTemplated: boolean;

  /** Request `i`'s bytes, with `captured` in place of the capture mark when it carries one. */
  bytes(i: number, captured: string | null): Uint8Array {
    return this.templated[i] && captured !== null
      ? new TextEncoder().encode(this.requests[i].raw.replaceAll(CAPTURE, () => captured))
      : this.encoded[i];
  }
}

/** Where a connection connects, and how. */
export interface Endpoint {
  readonly hostname: string;
  readonly port: number;
  readonly connect: Connect;
  /** False: a new connection for every request, closed after its answer (`--keep-alive off`). @default {true} */
  readonly keepAlive?: boolean;
  /** The load's clock, which times each new connection's connect (keep-alive off). */
  readonly now?: () => number;
}

/** One HTTP connection; see the module comment. */
export class HttpConnection implements LoadConnection, ResponseSink {
  readonly inFlight: InFlight;
  queued = false;
  closedAt = NaN;
  lastAnswerAt = 0;
  /** Keep-alive off: when the current request's connection began opening, and when the request was written (NaN). */
  connectStartedAt = NaN;
  writtenAt = NaN;
  readonly #rotation: Rotation;
  readonly #capacity: number;
  readonly #endpoint: Endpoint;
  readonly #events: LoadEvents;
  #next: number;
  #parser: ResponseParser;
  #transport: Transport | null = null;
  /** Whether this side is closing the connection (a timeout), so a partial response is not the server's doing. */
  #closing = false;
  /** Whether a response came with no request in flight: pairing cannot be trusted on this connection any more. */
  #unpaired = false;
  /** Whether an answer ended the connection's use (see `ResponseParser.closes`): nothing more is sent; it is closed. */
  #announced = false;
  #pop = () => this.inFlight.shift() ? this.inFlight.index : -1;
  /** Keep-alive off: a new connection per request (the fields below serve this mode only). */
  readonly #perRequest: boolean;
  /** Which of its connections is the current one: what an earlier one reports (closed after its answer) is not. */
  #attempt = 0;
  /** The connection closed after its answer last (its bytes after that answer are unasked). */
  #answeredAttempt = -1;
  #connecting = false;
  /** Closed by a failure (a drop, a timeout, a refused connect) until the load opens it again. */
  #down = false;
  #pending: Uint8Array | null = null;

  /** A connection sending `rotation` from request `first`, `capacity` in flight, reporting to `events`. */
  constructor(rotation: Rotation, first: number, capacity: number, endpoint: Endpoint, events: LoadEvents) {
    this.#rotation = rotation;
    this.#next = first % rotation.requests.length;
    this.#capacity = capacity;
    this.#endpoint = endpoint;
    this.#events = events;
    this.inFlight = new InFlight(capacity);
    this.#parser = new ResponseParser(rotation.requests);
    this.#perRequest = endpoint.keepAlive === false;
  }

  get gone(): boolean {
    return this.#perRequest ? this.#down : this.#transport === null;
  }

  get ready(): boolean {
    if (this.#perRequest) return !this.#down && !this.#connecting && this.inFlight.length === 0;
    if (this.#transport === null || this.#announced || this.inFlight.length >= this.#capacity) return false;
    // A request carrying the captured value waits for every answer before it: one may change the value.
    return !this.#rotation.anyTemplated ||
      !(this.#rotation.templated[this.#skipUncaptured()] && this.inFlight.length > 0);
  }

  open(): void {
    this.#parser = new ResponseParser(this.#rotation.requests);
    this.inFlight.clear();
    this.#announced = false;
    if (this.#perRequest) {
      // Nothing to open yet: each request opens its own connection.
      this.#down = false;
      this.#unpaired = false;
      this.#events.opened(this);
      return;
    }
    this.#endpoint.connect(this.#endpoint.hostname, this.#endpoint.port, {
      open: (t) => {
        this.#transport = t;
        this.#unpaired = false;
        this.#events.opened(this);
      },
      data: (chunk) => this.#data(chunk),
      closed: () => this.#closed(),
    });
  }

  #data(chunk: Uint8Array): void {
    try {
      this.#parser.feed(chunk, this.#pop, this);
    } catch (error) {
      if (!(error instanceof ProtocolError)) throw error;
      this.#events.broken(error.message);
      this.abandon();
      return;
    }
    if (this.#unpaired) this.abandon();
    else if (this.#perRequest && this.inFlight.length === 0) this.#retire();
    else if (!this.#announced) this.#events.progressed(this);
    // Its last answer is in: the client closes the connection, as RFC 9112 §9.6 has it, and the load opens another.
    else if (this.inFlight.length === 0) this.abandon();
  }

  /** Keep-alive off: connects for the request waiting in `#pending`, and writes it once the connection is open. */
  #dial(): void {
    const attempt = ++this.#attempt;
    const now = this.#endpoint.now!;
    this.#connecting = true;
    this.connectStartedAt = now();
    this.writtenAt = NaN;
    this.#endpoint.connect(this.#endpoint.hostname, this.#endpoint.port, {
      open: (t) => {
        if (attempt !== this.#attempt) {
          // Given up on (a timeout) before it opened.
          t.close();
          return;
        }
        this.#connecting = false;
        this.#transport = t;
        this.writtenAt = now();
        this.#events.connected(this, this.writtenAt - this.connectStartedAt);
        const bytes = this.#pending!;
        this.#pending = null;
        t.write(bytes);
      },
      data: (chunk) => {
        if (attempt === this.#attempt) this.#data(chunk);
        else if (attempt === this.#answeredAttempt) {
          // One request went out on this connection and its answer is complete: anything more answers nothing.
          this.#answeredAttempt = -1;
          this.#events.unasked(`${chunk.length} bytes came after the answer on a connection that carried one request`);
        }
      },
      closed: () => {
        if (attempt === this.#attempt) this.#closedPerRequest();
      },
    });
  }

  /** Keep-alive off: the answer is complete; the client closes the connection (whatever the server does) and is free. */
  #retire(): void {
    this.#answeredAttempt = this.#attempt++;
    const t = this.#transport;
    this.#transport = null;
    t?.close();
    this.#events.progressed(this);
  }

  /** Keep-alive off: the current connection closed before the client closed it. */
  #closedPerRequest(): void {
    const opened = this.#transport !== null;
    this.#transport = null;
    this.#connecting = false;
    // A body running to the close is complete now: the connection ended as it should.
    if (opened && this.#end() && this.inFlight.length === 0) {
      this.#answeredAttempt = this.#attempt++;
      this.#events.progressed(this);
      return;
    }
    this.#attempt++;
    this.#down = true;
    this.#events.closed(this, opened ? "server" : "refused");
  }

  #closed(): void {
    const opened = this.#transport !== null || this.#closing;
    this.#transport = null;
    if (!this.#closing) this.#end();
    // An announced close is no drop, whichever side closed first; requests still in flight on it go unanswered.
    const how = this.#announced ? "announced" : this.#closing ? "us" : opened ? "server" : "refused";
    this.#closing = false;
    this.#events.closed(this, how);
  }

  /**
   * The server closed the connection: a body running to the close is complete (returns true); anything else pending
   * is cut short.
   */
  #end(): boolean {
    try {
      if (this.#parser.finish(this.#pop, this)) {
        if (!this.#perRequest) this.#events.progressed(this);
        return true;
      }
    } catch (error) {
      if (!(error instanceof ProtocolError)) throw error;
      this.#events.broken(error.message);
      return false;
    }
    // The server closed the connection in the middle of a response: what it sent is a wrong, truncated answer.
    if (this.#parser.partial > 0) {
      this.#events.broken(`truncated response: the server closed the connection after ${this.#parser.partial} bytes`);
    }
    return false;
  }

  /** Passes over requests that need a captured value the connection does not hold; returns the next to send. */
  #skipUncaptured(): number {
    const n = this.#rotation.requests.length;
    const templated = this.#rotation.templated;
    for (let i = 0; i < n && templated[this.#next] && this.#parser.captured === null; i++) {
      this.#next = this.#next + 1 === n ? 0 : this.#next + 1;
    }
    return this.#next;
  }

  send(at: number, phase: number): void {
    const rotation = this.#rotation;
    const next = rotation.anyTemplated ? this.#skipUncaptured() : this.#next;
    this.inFlight.push(next, at, phase);
    this.#events.sent(at, phase);
    const bytes = rotation.anyTemplated ? rotation.bytes(next, this.#parser.captured) : rotation.encoded[next];
    this.#next = next + 1 === this.#rotation.requests.length ? 0 : next + 1;
    if (this.#perRequest) {
      this.#pending = bytes;
      this.#dial();
    } else {
      this.#transport!.write(bytes);
    }
  }

  upcoming(): number {
    return this.inFlight.length > 0 ? this.inFlight.indexOfOldest : -1;
  }

  response(index: number, verdict: number, bytes: number): void {
    if (this.#parser.closes && !this.#perRequest) this.#announced = true;
    this.#events.answered(this, verdict, bytes, this.inFlight.at, this.inFlight.phase, index);
  }

  unasked(bytes: number): void {
    this.#unpaired = true;
    this.#events.unasked(`a response (${bytes} bytes) came with no request in flight`);
  }

  wantsSample(): boolean {
    return this.#events.tally.wantsSample();
  }

  sample(index: number, body: string): void {
    this.#events.tally.samples.push({ index, body });
  }

  wantsMismatch(): boolean {
    return this.#events.wantsMismatch();
  }

  mismatch(text: string): void {
    this.#events.mismatch(text);
  }

  abandon(): void {
    if (this.#perRequest) {
      // Whether it is connecting or open, this connection is done: the load hears of it now, not from its close.
      this.#attempt++;
      this.#connecting = false;
      this.#down = true;
      this.#pending = null;
      this.close();
      this.#events.closed(this, "us");
      return;
    }
    this.#closing = true;
    this.#transport?.close();
    this.#transport = null;
  }

  close(): void {
    if (this.#perRequest) {
      this.#attempt++;
      const t = this.#transport;
      this.#transport = null;
      t?.close();
      return;
    }
    this.#closing = true;
    this.#transport?.close();
  }
}
