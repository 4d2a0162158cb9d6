// One keep-alive HTTP/1.1 connection of the load engine: it sends the next request of the rotation (with the value it
// captured, when the request needs one), pairs each response with the oldest request in flight, has it parsed and
// checked, and reports both to the load. Requests carrying a captured value wait for every answer before them.

import type { LoadConnection, LoadEvents } from "./_engine_load.ts";
import { InFlight } from "./_engine_in_flight.ts";
import {
  CAPTURE,
  type EngineRequest,
  ProtocolError,
  ResponseParser,
  type ResponseSink,
  usesCapture,
} from "./_engine_http.ts";
import type { Connect, Transport } from "./_engine_transport.ts";

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
}

/** One HTTP connection; see the module comment. */
export class HttpConnection implements LoadConnection, ResponseSink {
  readonly inFlight: InFlight;
  queued = false;
  closedAt = NaN;
  lastAnswerAt = 0;
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
  #pop = () => this.inFlight.shift() ? this.inFlight.index : -1;

  /** A connection sending `rotation` from request `first`, `capacity` in flight, reporting to `events`. */
  constructor(rotation: Rotation, first: number, capacity: number, endpoint: Endpoint, events: LoadEvents) {
    this.#rotation = rotation;
    this.#next = first % rotation.requests.length;
    this.#capacity = capacity;
    this.#endpoint = endpoint;
    this.#events = events;
    this.inFlight = new InFlight(capacity);
    this.#parser = new ResponseParser(rotation.requests);
  }

  get gone(): boolean {
    return this.#transport === null;
  }

  get ready(): boolean {
    if (this.#transport === null || this.inFlight.length >= this.#capacity) return false;
    // A request carrying the captured value waits for every answer before it: one may change the value.
    return !this.#rotation.anyTemplated ||
      !(this.#rotation.templated[this.#skipUncaptured()] && this.inFlight.length > 0);
  }

  open(): void {
    this.#parser = new ResponseParser(this.#rotation.requests);
    this.inFlight.clear();
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
    else this.#events.progressed(this);
  }

  #closed(): void {
    const opened = this.#transport !== null || this.#closing;
    this.#transport = null;
    if (!this.#closing) this.#end();
    const how = this.#closing ? "us" : opened ? "server" : "refused";
    this.#closing = false;
    this.#events.closed(this, how);
  }

  /** The server closed the connection: a body running to the close is complete; anything else pending is cut short. */
  #end(): void {
    try {
      if (this.#parser.finish(this.#pop, this)) {
        this.#events.progressed(this);
        return;
      }
    } catch (error) {
      if (!(error instanceof ProtocolError)) throw error;
      this.#events.broken(error.message);
      return;
    }
    // The server closed the connection in the middle of a response: what it sent is a wrong, truncated answer.
    if (this.#parser.partial > 0) {
      this.#events.broken(`truncated response: the server closed the connection after ${this.#parser.partial} bytes`);
    }
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
    this.#transport!.write(
      rotation.anyTemplated ? rotation.bytes(next, this.#parser.captured) : rotation.encoded[next],
    );
    this.#next = next + 1 === this.#rotation.requests.length ? 0 : next + 1;
  }

  response(index: number, verdict: number, bytes: number): void {
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
    this.#closing = true;
    this.#transport?.close();
    this.#transport = null;
  }

  close(): void {
    this.#closing = true;
    this.#transport?.close();
  }
}
