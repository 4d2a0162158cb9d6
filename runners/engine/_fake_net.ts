// A network for the engine's tests: a Connect that hands every connection to the test, which reads what the engine
// wrote, answers with any bytes split any way, or closes it like a server would. Not part of the engine's program.

import type { Connect, Handlers } from "./_transport.ts";

/** One connection the engine opened, seen from the server's side. */
export class FakeSocket {
  /** Requests written, decoded, in order; and as bytes. */
  readonly written: string[] = [];
  readonly writtenBytes: Uint8Array[] = [];
  /** Whether either side closed it. */
  closed = false;
  /** Whether the engine closed it (rather than the server). */
  closedByClient = false;
  readonly #handlers: Handlers;

  /** A connection reporting to the engine's `handlers`. */
  constructor(handlers: Handlers) {
    this.#handlers = handlers;
  }

  /** The server accepts: the engine may write. */
  accept(): void {
    this.#handlers.open({
      write: (bytes) => {
        if (this.closed) return;
        this.written.push(new TextDecoder().decode(bytes));
        this.writtenBytes.push(bytes.slice());
      },
      close: () => {
        if (this.closed) return;
        this.closed = this.closedByClient = true;
        queueMicrotask(() => this.#handlers.closed());
      },
    });
  }

  /** The server sends `bytes` (text or raw). */
  send(bytes: string | Uint8Array): void {
    if (!this.closed) this.#handlers.data(typeof bytes === "string" ? new TextEncoder().encode(bytes) : bytes);
  }

  /** The server closes the connection. */
  hangUp(): void {
    if (this.closed) return;
    this.closed = true;
    this.#handlers.closed();
  }
}

/** Every connection the engine opens, in order; accepted at once unless `acceptAtOnce` is false. */
export class FakeNet {
  readonly sockets: FakeSocket[] = [];
  readonly #accept: boolean;

  /** A network that accepts every connection at once, or leaves it to the test. */
  constructor(acceptAtOnce = true) {
    this.#accept = acceptAtOnce;
  }

  /** The engine's way in. */
  readonly connect: Connect = (_hostname, _port, handlers) => {
    const socket = new FakeSocket(handlers);
    this.sockets.push(socket);
    if (this.#accept) socket.accept();
  };

  /** Connections still open. */
  get open(): FakeSocket[] {
    return this.sockets.filter((s) => !s.closed);
  }
}
