// One WebSocket of the load engine: the opening handshake (timed), then binary messages carrying the socket's and the
// message's numbers, each echo paired with the oldest message in flight and compared with it byte for byte; pings
// answered, a close frame or a closed connection reported to the load.

import type { Handshakes } from "./handshakes.ts";
import type { LoadConnection, LoadEvents } from "./load.ts";
import { InFlight } from "./in_flight.ts";
import { pairEcho } from "./ws_pair.ts";
import type { Connect, Transport } from "./_transport.ts";
import {
  closeFrame,
  FrameBuilder,
  FrameParser,
  type FrameSink,
  handshakeResponse,
  pongFrame,
  WebSocketProtocolError,
} from "./ws.ts";

/** What every socket of a load shares: where it connects, the handshake, the message pattern. */
export interface WsSetup {
  readonly hostname: string;
  readonly port: number;
  readonly connect: Connect;
  /** The handshake request, and the `Sec-WebSocket-Accept` it must get back. */
  readonly handshake: Uint8Array;
  readonly accept: string;
  /** The message every frame carries (its first 8 bytes replaced by the socket's and message's numbers). */
  readonly pattern: Uint8Array;
  /** Messages in flight per socket (closed model; the open model sends whenever a message is due). */
  readonly capacity: number;
  /** Where each socket reports its handshake. */
  readonly handshakes: Handshakes;
}

/** One WebSocket; see the module comment. */
export class WsConnection implements LoadConnection, FrameSink {
  readonly id: number;
  readonly inFlight: InFlight;
  queued = false;
  closedAt = NaN;
  lastAnswerAt = 0;
  // A WebSocket keeps its connection: latency runs from each send.
  readonly writtenAt = NaN;
  /** Whether the handshake succeeded (on the socket's current connection). */
  connected = false;
  /** Whether it ever connected (a later failure to connect is a failed reconnect, not a failed socket). */
  #everConnected = false;
  readonly #setup: WsSetup;
  readonly #mask = crypto.getRandomValues(new Uint8Array(4));
  readonly #frames: FrameBuilder;
  #parser = new FrameParser();
  #events: LoadEvents | null = null;
  #transport: Transport | null = null;
  #closing = false;
  #gone = false;
  #nextSend = 0;
  #head = new Uint8Array(0);
  #started = 0;
  #generation = 0;

  /** Socket number `id`, set up by `setup`. */
  constructor(id: number, setup: WsSetup) {
    this.id = id;
    this.#setup = setup;
    this.#frames = new FrameBuilder(setup.pattern, this.#mask);
    this.inFlight = new InFlight(Number.isFinite(setup.capacity) ? setup.capacity : 64);
  }

  /** The load this socket reports to, once its handshake is done. */
  attach(events: LoadEvents): void {
    this.#events = events;
  }

  get gone(): boolean {
    return this.#gone;
  }

  get ready(): boolean {
    return this.connected && !this.#gone && !this.#closing && this.inFlight.length < this.#setup.capacity;
  }

  open(): void {
    this.#started = performance.now();
    this.connected = this.#closing = this.#gone = false;
    this.#parser = new FrameParser();
    this.#head = new Uint8Array(0);
    // Callbacks of an earlier connection of this socket (a close that comes late) must not touch this one.
    const generation = ++this.#generation;
    const current = () => generation === this.#generation;
    this.#setup.connect(this.#setup.hostname, this.#setup.port, {
      open: (t) => {
        if (!current()) return t.close();
        this.#transport = t;
        t.write(this.#setup.handshake);
      },
      data: (chunk) => {
        if (!current()) return;
        try {
          this.#data(chunk);
        } catch (error) {
          if (!(error instanceof WebSocketProtocolError)) throw error;
          if (this.connected) this.#events?.broken(`socket ${this.id}: ${error.message}`);
          // This side ends a socket it cannot read any more, as an HTTP connection is: not a drop by the server.
          this.#closing = this.connected;
          this.#lost(error.message);
        }
      },
      closed: () => current() && this.#lost(this.connected ? "closed" : "closed during the handshake"),
    });
  }

  #data(chunk: Uint8Array): void {
    if (!this.connected) {
      const joined = new Uint8Array(this.#head.length + chunk.length);
      joined.set(this.#head);
      joined.set(chunk, this.#head.length);
      const used = handshakeResponse(joined, this.#setup.accept);
      if (used === 0) {
        this.#head = joined;
        return;
      }
      this.connected = true;
      if (this.#everConnected) this.#events?.opened(this);
      else this.#setup.handshakes.done(Math.round((performance.now() - this.#started) * 1000));
      this.#everConnected = true;
      chunk = joined.subarray(used);
      if (chunk.length === 0) return;
    }
    this.#parser.feed(chunk, this);
    if (this.#events) this.#events.progressed(this);
  }

  send(at: number, phase: number): void {
    const seq = this.#nextSend++;
    this.inFlight.push(seq, at, phase);
    this.#events!.sent(at, phase);
    this.#transport?.write(this.#frames.frame(this.id, seq >>> 0));
  }

  message(data: Uint8Array, text: boolean): void {
    const events = this.#events;
    if (events === null || this.#closing) return;
    pairEcho(this, text ? new TextDecoder().decode(data) : data, this.id, this.#setup.pattern, events);
  }

  ping(data: Uint8Array): void {
    this.#transport?.write(pongFrame(data, this.#mask));
  }

  close(): void {
    if (this.#gone) return;
    this.#closing = true;
    this.#transport?.write(closeFrame(this.#mask));
    this.#gone = true;
    this.#transport?.close();
  }

  abandon(): void {
    this.#closing = true;
    this.#lost(this.connected ? "timed out" : "no handshake in time");
  }

  /** The server's close frame. */
  closeFrame(): void {
    this.#lost("the server sent a close frame");
  }

  #lost(why: string): void {
    if (this.#gone) return;
    this.#gone = true;
    this.#transport?.close();
    if (!this.#everConnected) {
      this.#setup.handshakes.failure(`socket ${this.id} could not connect: ${why}`);
      return;
    }
    if (!this.#closing) {
      this.#events?.failure(
        `socket ${this.id} was closed by the server after ${this.#nextSend - this.inFlight.length} echoes`,
      );
    }
    this.#events?.closed(this, this.#closing ? "us" : this.connected ? "server" : "refused");
  }
}
