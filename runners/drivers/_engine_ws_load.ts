// The load engine's WebSocket load: `connections` sockets opened at once (each handshake timed), then `inFlight`
// binary messages in flight on each; every echo, in the warm-up and in the measured window, is compared byte for byte
// with the message it answers, and the latency of valid measured echoes is counted in microseconds. Failures — a
// handshake that fails, a socket the server drops, an echo that never comes, a wrong echo — are counted apart.

import { EngineHistogram } from "./_engine_histogram.ts";
import { connect, runtime, type Transport } from "./_engine_transport.ts";
import {
  closeFrame,
  echoMismatch,
  FrameBuilder,
  FrameParser,
  type FrameSink,
  handshakeRequest,
  handshakeResponse,
  messagePattern,
  pongFrame,
  WebSocketProtocolError,
} from "./_engine_ws.ts";

/** What the harness asks one engine process to do for a WebSocket echo server. */
export interface EngineWsJob {
  /** `websocket`. */
  readonly kind: "websocket";
  /** Server address and the path of the echo endpoint. */
  readonly hostname: string;
  readonly port: number;
  readonly path: string;
  /** The handshake's `Sec-WebSocket-Key` and the `Sec-WebSocket-Accept` it must get back. */
  readonly key: string;
  readonly accept: string;
  /** Sockets this process holds; their numbers start at `firstSocket`. */
  readonly connections: number;
  readonly firstSocket: number;
  /** Messages in flight per socket, and bytes per message (at least 8). */
  readonly inFlight: number;
  readonly messageSize: number;
  /** Seconds of warm-up, then seconds measured unless `messages` valid echoes end the window first. */
  readonly warmupSec: number;
  readonly durationSec: number;
  readonly messages: number | null;
  /** A handshake or an echo taking longer is a timeout. */
  readonly timeoutSec: number;
}

/** What one engine process measured on a WebSocket server. */
export interface EngineWsCounts {
  readonly connectUs: number[];
  readonly failedConnections: number;
  readonly droppedSockets: number;
  readonly timeouts: number;
  readonly mismatches: number;
  readonly firstFailure: string | null;
  readonly sentMessages: number;
  readonly receivedMessages: number;
  readonly validMessages: number;
  readonly warmupMessages: number;
  readonly durationMs: number;
  readonly windowStartMs: number;
  /** CPU this process used in the measured window, microseconds. */
  readonly cpuUs: number | null;
  readonly histogram: [number, number][];
  readonly runtime: string;
}

type Phase = "connect" | "warmup" | "measure" | "done";

/** CPU time of this process in microseconds, where the runtime can tell. */
function cpuUs(): number | null {
  const p = (globalThis as { process?: { cpuUsage?(): { user: number; system: number } } }).process;
  const u = p?.cpuUsage?.();
  return u ? u.user + u.system : null;
}

/** Runs a job: connect every socket, warm up, measure, close. */
export async function driveWebSocket(job: EngineWsJob): Promise<EngineWsCounts> {
  const pattern = messagePattern(job.messageSize);
  const timeoutMs = job.timeoutSec * 1000;
  const histogram = new EngineHistogram();
  const handshake = new TextEncoder().encode(handshakeRequest(`${job.hostname}:${job.port}`, job.path, job.key));
  const connectUs: number[] = [];
  let phase: Phase = "connect";
  let failedConnections = 0, dropped = 0, timeouts = 0, mismatches = 0;
  let sent = 0, received = 0, valid = 0, warmupMessages = 0;
  let firstFailure: string | null = null;
  let endWindow: () => void = () => {};
  const fail = (what: string) => firstFailure ??= what;
  let pending = job.connections;
  let settled!: () => void;
  const allSettled = new Promise<void>((resolve) => settled = resolve);
  const settle = () => {
    if (--pending === 0) settled();
  };

  class Socket implements FrameSink {
    readonly id: number;
    readonly sentAt = new Float64Array(job.inFlight);
    readonly mask = crypto.getRandomValues(new Uint8Array(4));
    readonly frames = new FrameBuilder(pattern, this.mask);
    readonly parser = new FrameParser();
    transport: Transport | null = null;
    open = false;
    closing = false;
    gone = false;
    nextSend = 0;
    nextEcho = 0;
    started = performance.now();
    #head = new Uint8Array(0);

    constructor(id: number) {
      this.id = id;
    }

    get outstanding(): number {
      return this.nextSend - this.nextEcho;
    }

    send(): void {
      this.sentAt[this.nextSend % job.inFlight] = performance.now();
      const frame = this.frames.frame(this.id, this.nextSend >>> 0);
      this.nextSend++;
      if (phase === "measure") sent++;
      this.transport?.write(frame);
    }

    data(chunk: Uint8Array): void {
      if (!this.open) {
        const joined = new Uint8Array(this.#head.length + chunk.length);
        joined.set(this.#head);
        joined.set(chunk, this.#head.length);
        const used = handshakeResponse(joined, job.accept);
        if (used === 0) {
          this.#head = joined;
          return;
        }
        this.open = true;
        connectUs.push(Math.round((performance.now() - this.started) * 1000));
        settle();
        chunk = joined.subarray(used);
        if (chunk.length === 0) return;
      }
      this.parser.feed(chunk, this);
    }

    message(data: Uint8Array, text: boolean): void {
      if (phase === "done" || this.closing) return;
      if (this.outstanding === 0) {
        mismatches++;
        fail(`socket ${this.id} received a message it did not send`);
        return;
      }
      const seq = this.nextEcho++;
      const wrong = echoMismatch(text ? new TextDecoder().decode(data) : data, pattern, this.id, seq >>> 0);
      if (phase === "measure") received++;
      if (wrong !== null) {
        mismatches++;
        fail(`socket ${this.id} message ${seq}: ${wrong}`);
      } else if (phase === "measure") {
        valid++;
        histogram.record(Math.round((performance.now() - this.sentAt[seq % job.inFlight]) * 1000));
        if (job.messages !== null && valid >= job.messages) endWindow();
      } else {
        warmupMessages++;
      }
      if (phase === "warmup" || phase === "measure") this.send();
    }

    ping(data: Uint8Array): void {
      this.transport?.write(pongFrame(data, this.mask));
    }

    close(): void {
      this.lost("the server sent a close frame");
    }

    lost(why: string): void {
      if (this.gone) return;
      this.gone = true;
      this.transport?.close();
      if (!this.open) {
        failedConnections++;
        fail(`socket ${this.id} could not connect: ${why}`);
        settle();
        return;
      }
      if (this.closing || phase === "done") return;
      dropped++;
      fail(`socket ${this.id} was closed by the server after ${this.nextEcho} echoes`);
      if (sockets.every((s) => s.gone)) endWindow();
    }
  }

  const sockets = Array.from({ length: job.connections }, (_, i) => new Socket(job.firstSocket + i));
  for (const s of sockets) {
    connect(job.hostname, job.port, {
      open: (t) => {
        s.transport = t;
        t.write(handshake);
      },
      data: (chunk) => {
        try {
          s.data(chunk);
        } catch (error) {
          if (!(error instanceof WebSocketProtocolError)) throw error;
          if (s.open) mismatches++;
          s.lost(error.message);
        }
      },
      closed: () => s.lost("closed during the handshake"),
    });
  }
  const connectDeadline = setTimeout(() => {
    for (const s of sockets) if (!s.open && !s.gone) s.lost(`no handshake within ${job.timeoutSec} s`);
  }, timeoutMs);
  await allSettled;
  clearTimeout(connectDeadline);

  // A socket whose oldest message waited longer than the timeout is counted and closed.
  const watchdog = setInterval(() => {
    const now = performance.now();
    for (const s of sockets) {
      if (s.gone || s.closing || s.outstanding === 0) continue;
      if (now - s.sentAt[s.nextEcho % job.inFlight] > timeoutMs) {
        timeouts++;
        fail(`socket ${s.id} message ${s.nextEcho}: no echo within ${job.timeoutSec} s`);
        s.closing = true;
        s.lost("timed out");
      }
    }
  }, Math.min(250, timeoutMs / 4));

  const live = sockets.filter((s) => s.open && !s.gone);
  // Ending a window sets the phase at once: echoes already queued in this turn of the event loop must not count.
  const window = (ms: number | null, after?: Phase) =>
    new Promise<void>((resolve) => {
      const finish = () => {
        clearTimeout(timer);
        endWindow = () => {};
        if (after) phase = after;
        resolve();
      };
      const timer = ms === null ? undefined : setTimeout(finish, ms);
      endWindow = finish;
      if (sockets.every((s) => s.gone)) finish();
    });
  if (live.length > 0 && job.warmupSec > 0) {
    phase = "warmup";
    for (const s of live) for (let i = 0; i < job.inFlight; i++) s.send();
    await window(job.warmupSec * 1000);
  }
  const cpuBefore = cpuUs();
  const windowStartMs = Date.now();
  const started = performance.now();
  if (live.length > 0) {
    const wasWarm = phase === "warmup";
    phase = "measure";
    if (!wasWarm) { for (const s of live) for (let i = 0; i < job.inFlight; i++) s.send(); }
    await window(job.messages === null ? job.durationSec * 1000 : null, "done");
  }
  const durationMs = performance.now() - started;
  const cpuAfter = cpuUs();
  phase = "done";
  clearInterval(watchdog);
  for (const s of sockets) {
    if (s.gone) continue;
    s.closing = true;
    s.transport?.write(closeFrame(s.mask));
    s.gone = true;
    s.transport?.close();
  }
  return {
    connectUs,
    failedConnections,
    droppedSockets: dropped,
    timeouts,
    mismatches,
    firstFailure,
    sentMessages: sent,
    receivedMessages: received,
    validMessages: valid,
    warmupMessages,
    durationMs: Math.round(durationMs),
    windowStartMs,
    cpuUs: cpuBefore === null || cpuAfter === null ? null : cpuAfter - cpuBefore,
    histogram: histogram.sparse(),
    runtime,
  };
}
