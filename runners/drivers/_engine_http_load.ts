// The load engine's HTTP load: `connections` keep-alive HTTP/1.1 connections to one server, each with `pipelining`
// requests in flight (the closed model: the next request goes out when a response is complete); every response, in
// the warm-up and in the measured window, is checked against its request's expectation; latency of valid responses
// in the measured window is counted in microseconds.

import { EngineHistogram } from "./_engine_histogram.ts";
import { connect, runtime, type Transport } from "./_engine_transport.ts";
import {
  type EngineRequest,
  MISMATCH,
  NON_2XX,
  ProtocolError,
  ResponseParser,
  type ResponseSink,
} from "./_engine_http.ts";

/** What the harness asks one engine process to do for an HTTP server. */
export interface EngineJob {
  /** `http`. */
  readonly kind: "http";
  /** Server address. */
  readonly hostname: string;
  readonly port: number;
  /** The requests of the rotation, encoded, with their expectations. */
  readonly requests: readonly EngineRequest[];
  /** Connections this process holds. */
  readonly connections: number;
  /** Requests in flight per connection. */
  readonly pipelining: number;
  /** Seconds of warm-up, then seconds measured. */
  readonly warmupSec: number;
  readonly durationSec: number;
  /** A request outstanding this long is a timeout; its connection is closed and opened again. */
  readonly timeoutSec: number;
  /** Where this process's first connection starts in the rotation (processes spread over it). */
  readonly firstRequest: number;
}

/** What one engine process measured. */
export interface EngineCounts {
  /** Responses completed in the measured window, valid or not. */
  responses: number;
  /** Of those, the valid ones. */
  validResponses: number;
  /** Responses, in warm-up or measured window, whose status was not 2xx. */
  non2xx: number;
  /** 2xx responses, in warm-up or measured window, that differed from the expectation. */
  mismatches: number;
  /** Connection errors in the measured window (timeouts included). */
  errors: number;
  /** Requests in the measured window that timed out. */
  timeouts: number;
  /** Bytes of measured responses. */
  bytes: number;
  /** Responses completed during the warm-up. */
  warmupResponses: number;
  /** Length of the measured window. */
  durationMs: number;
  /** When it began (epoch milliseconds). */
  windowStartMs: number;
  /** The first response that was not valid, described. */
  firstMismatch: string | null;
  /** Non-zero counts of the latency histogram (µs) of valid measured responses, `[index, count]`. */
  histogram: [number, number][];
  /** The runtime the engine ran on, `bun 1.4.5` or `deno 2.9.6`. */
  runtime: string;
}

/** Runs a job to the end of its measured window and returns what it counted. */
export function driveHttp(job: EngineJob): Promise<EngineCounts> {
  const encoded = job.requests.map((r) => new TextEncoder().encode(r.raw));
  const n = encoded.length;
  const histogram = new EngineHistogram();
  const counts: EngineCounts = {
    responses: 0,
    validResponses: 0,
    non2xx: 0,
    mismatches: 0,
    errors: 0,
    timeouts: 0,
    bytes: 0,
    warmupResponses: 0,
    durationMs: job.durationSec * 1000,
    windowStartMs: 0,
    firstMismatch: null,
    histogram: [],
    runtime,
  };
  const started = performance.now();
  const measureFrom = started + job.warmupSec * 1000;
  const measureTo = measureFrom + job.durationSec * 1000;
  const timeoutMs = job.timeoutSec * 1000;
  let stopping = false;
  const connections: Connection[] = [];

  class Connection implements ResponseSink {
    // In-flight requests, oldest first, in a ring: rotation index and send time.
    readonly #index = new Int32Array(job.pipelining);
    readonly #sent = new Float64Array(job.pipelining);
    #head = 0;
    #inFlight = 0;
    #next: number;
    #sentAt = 0;
    #parser = new ResponseParser(job.requests);
    #transport: Transport | null = null;
    /** Whether this side is closing the connection (a timeout), so a partial response is not the server's doing. */
    #closing = false;
    #pop = () => {
      const i = this.#index[this.#head];
      this.#sentAt = this.#sent[this.#head];
      this.#head = (this.#head + 1) % job.pipelining;
      this.#inFlight--;
      return i;
    };

    constructor(first: number) {
      this.#next = first % n;
    }

    open(): void {
      this.#parser = new ResponseParser(job.requests);
      this.#head = 0;
      this.#inFlight = 0;
      connect(job.hostname, job.port, {
        open: (t) => {
          this.#transport = t;
          this.#fill();
        },
        data: (chunk) => {
          try {
            this.#parser.feed(chunk, this.#pop, this);
          } catch (error) {
            if (!(error instanceof ProtocolError)) throw error;
            this.mismatch(error.message);
            counts.mismatches++;
            this.#transport?.close();
            return;
          }
          this.#fill();
        },
        closed: () => {
          this.#transport = null;
          if (stopping) return;
          // The server closed the connection in the middle of a response: what it sent is a wrong, truncated answer.
          if (!this.#closing && this.#parser.partial > 0) {
            counts.mismatches++;
            this.mismatch(`truncated response: the server closed the connection after ${this.#parser.partial} bytes`);
          }
          this.#closing = false;
          if (performance.now() >= measureFrom) counts.errors++;
          // Open again, a moment later, so that a server refusing connections is not spun against.
          setTimeout(() => this.open(), 10);
        },
      });
    }

    /** Sends requests until `pipelining` are in flight. */
    #fill(): void {
      const t = this.#transport;
      if (!t || stopping) return;
      while (this.#inFlight < job.pipelining) {
        const slot = (this.#head + this.#inFlight) % job.pipelining;
        this.#index[slot] = this.#next;
        this.#sent[slot] = performance.now();
        this.#inFlight++;
        t.write(encoded[this.#next]);
        this.#next = this.#next + 1 === n ? 0 : this.#next + 1;
      }
    }

    response(_index: number, verdict: number, bytes: number): void {
      const now = performance.now();
      if (verdict === NON_2XX) counts.non2xx++;
      else if (verdict === MISMATCH) counts.mismatches++;
      if (now < measureFrom) {
        counts.warmupResponses++;
        return;
      }
      if (now > measureTo) return;
      counts.responses++;
      counts.bytes += bytes;
      if (verdict === 0) {
        counts.validResponses++;
        histogram.record(Math.round((now - this.#sentAt) * 1000));
      }
    }

    wantsMismatch(): boolean {
      return counts.firstMismatch === null;
    }

    mismatch(text: string): void {
      counts.firstMismatch ??= text;
    }

    /** Closes the connection when its oldest request has waited longer than the timeout. */
    checkTimeout(now: number): void {
      if (this.#inFlight > 0 && now - this.#sent[this.#head] > timeoutMs) {
        if (now >= measureFrom) counts.timeouts++;
        this.#closing = true;
        this.#transport?.close();
      }
    }

    close(): void {
      this.#transport?.close();
    }
  }

  for (let c = 0; c < job.connections; c++) {
    const conn = new Connection(job.firstRequest + c);
    connections.push(conn);
    conn.open();
  }
  return new Promise((resolve) => {
    const windowStart = setTimeout(() => counts.windowStartMs = Date.now(), job.warmupSec * 1000);
    const watchdog = setInterval(() => {
      const now = performance.now();
      for (const c of connections) c.checkTimeout(now);
    }, 100);
    setTimeout(() => {
      stopping = true;
      clearInterval(watchdog);
      clearTimeout(windowStart);
      counts.windowStartMs ||= Date.now() - job.durationSec * 1000;
      for (const c of connections) c.close();
      counts.histogram = histogram.sparse();
      resolve(counts);
    }, measureTo - started);
  });
}
