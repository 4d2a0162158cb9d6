// The opening of a load's WebSockets, all at once: each socket reports its handshake's time or why it failed; the load
// starts when every one has, or when the timeout has passed (a socket still opening then is abandoned and failed).

/** What the handshakes need of a socket. */
export interface Opening {
  /** Whether its handshake succeeded. */
  readonly connected: boolean;
  /** Whether it is closed. */
  readonly gone: boolean;
  /** Starts connecting. */
  open(): void;
  /** Gives up on it. */
  abandon(): void;
}

/** The handshakes of one load's sockets; see the module comment. */
export class Handshakes {
  /** Handshake times of the sockets that connected, µs. */
  readonly connectUs: number[] = [];
  /** Sockets whose handshake failed or timed out. */
  failed = 0;
  #pending = 0;
  #settled: () => void = () => {};
  readonly #fail: (why: string) => void;

  /** Handshakes that describe a failure with `fail`. */
  constructor(fail: (why: string) => void) {
    this.#fail = fail;
  }

  /** A socket's handshake took `us`. */
  done(us: number): void {
    this.connectUs.push(us);
    this.#settle();
  }

  /** A socket could not connect: `why`. */
  failure(why: string): void {
    this.failed++;
    this.#fail(why);
    this.#settle();
  }

  #settle(): void {
    if (--this.#pending === 0) this.#settled();
  }

  /** Opens every socket and resolves once each has connected or failed, or after `timeoutMs`. */
  async openAll(sockets: readonly Opening[], timeoutMs: number): Promise<void> {
    if (sockets.length === 0) return;
    this.#pending = sockets.length;
    const all = new Promise<void>((resolve) => this.#settled = resolve);
    for (const s of sockets) s.open();
    const deadline = setTimeout(() => {
      for (const s of sockets) if (!s.connected && !s.gone) s.abandon();
    }, timeoutMs);
    await all;
    clearTimeout(deadline);
  }
}
