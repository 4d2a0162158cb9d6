// The load engine's WebSocket load: `connections` sockets opened at once (each handshake timed), then `inFlight`
// binary messages in flight on each; every echo, in the warm-up and in the measured window, is compared byte for byte
// with the message it answers, and the latency of valid measured echoes is counted in microseconds. Failures — a
// handshake that fails, a socket the server drops, an echo that never comes, a wrong echo — are counted apart.

import { EngineHistogram } from "./_engine_histogram.ts";
import type { PhaseCounts } from "./_engine_http_load.ts";
import { type Arrival, type RatePhase, Schedule } from "./_engine_schedule.ts";
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
  /** The open model: messages due on a schedule (the warm-up first, not measured), spread over the sockets. */
  readonly open?: { readonly phases: readonly RatePhase[]; readonly arrival: Arrival; readonly seed: number };
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
  /** Open model: the measured phases (`responses` are echoes). */
  readonly phases?: PhaseCounts[];
}

type Phase = "connect" | "warmup" | "measure" | "done";

/** A message sent more than this after it was due is missed (the load fell behind; see the HTTP load). */
const MISSED_AFTER_MS = 10;

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
  const open = job.open;
  const measured = (p: number) => open ? open.phases[p].measured : true;
  const phases = (open?.phases ?? []).map((p) => ({
    counts: {
      durationMs: p.durationMs,
      fromRate: p.fromRate,
      toRate: p.toRate,
      scheduled: 0,
      responses: 0,
      validResponses: 0,
      missedConnections: 0,
      missedClient: 0,
      histogram: [] as [number, number][],
    },
    histogram: new EngineHistogram(),
  }));
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
    /** Open model: when each outstanding message was due, and its phase, oldest first. */
    readonly dueAt: number[] = [];
    readonly duePhase: number[] = [];
    dueHead = 0;
    #head = new Uint8Array(0);

    constructor(id: number) {
      this.id = id;
    }

    get outstanding(): number {
      return this.nextSend - this.nextEcho;
    }

    /** When the oldest outstanding message went out (closed model) or was due (open model). */
    get oldest(): number {
      return open ? this.dueAt[this.dueHead] : this.sentAt[this.nextEcho % job.inFlight];
    }

    /** Open model: sends a message due at `at`. */
    sendDue(at: number, p: number): void {
      this.dueAt.push(at);
      this.duePhase.push(p);
      const frame = this.frames.frame(this.id, this.nextSend >>> 0);
      this.nextSend++;
      if (measured(p)) sent++;
      this.transport?.write(frame);
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
      if (open) {
        this.#dueEcho(wrong);
        return;
      }
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

    /** Open model: an echo of the oldest message due; its latency runs from when it was due. */
    #dueEcho(wrong: string | null): void {
      const at = this.dueAt[this.dueHead];
      const p = this.duePhase[this.dueHead++];
      if (this.dueHead > 1024 && this.dueHead * 2 > this.dueAt.length) {
        this.dueAt.splice(0, this.dueHead);
        this.duePhase.splice(0, this.dueHead);
        this.dueHead = 0;
      }
      if (wrong !== null) {
        mismatches++;
        fail(`socket ${this.id} message ${this.nextEcho - 1}: ${wrong}`);
      }
      if (!measured(p)) {
        if (wrong === null) warmupMessages++;
        return;
      }
      received++;
      phases[p].counts.responses++;
      if (wrong !== null) return;
      const us = Math.round((performance.now() - at) * 1000);
      valid++;
      histogram.record(us);
      phases[p].counts.validResponses++;
      phases[p].histogram.record(us);
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
      if (now - s.oldest > timeoutMs) {
        timeouts++;
        fail(`socket ${s.id} message ${s.nextEcho}: no echo within ${job.timeoutSec} s`);
        s.closing = true;
        s.lost("timed out");
      }
    }
  }, Math.min(250, timeoutMs / 4));

  /** Open model: sends every message when due, round-robin over the live sockets, then waits for the last echoes. */
  const runSchedule = (
    model: NonNullable<EngineWsJob["open"]>,
    live: Socket[],
    measuredFrom: number,
  ): Promise<{ startedAt: number; windowStartMs: number }> =>
    new Promise((resolve) => {
      const schedule = new Schedule(model.phases, model.arrival, model.seed);
      const startedAt = performance.now();
      let windowStartMs = 0;
      let next = schedule.next();
      let nextPhase = schedule.phase;
      let turn = 0;
      phase = "measure";
      const pump = () => {
        const now = performance.now() - startedAt;
        if (windowStartMs === 0 && now >= measuredFrom) windowStartMs = Date.now();
        while (next !== null && next <= now) {
          let s: Socket | undefined;
          for (let i = 0; i < live.length && !s; i++) {
            const candidate = live[(turn + i) % live.length];
            if (!candidate.gone) {
              s = candidate;
              turn = (turn + i + 1) % live.length;
            }
          }
          if (!s) break;
          if (measured(nextPhase)) {
            phases[nextPhase].counts.scheduled++;
            if (now - next > MISSED_AFTER_MS) phases[nextPhase].counts.missedClient++;
          }
          s.sendDue(startedAt + next, nextPhase);
          next = schedule.next();
          nextPhase = schedule.phase;
        }
        if (next !== null && live.some((s) => !s.gone)) {
          setTimeout(pump, Math.max(0, next - (performance.now() - startedAt) - 1));
          return;
        }
        const graceUntil = performance.now() + Math.min(timeoutMs, 2000);
        const settleEchoes = () => {
          if (live.every((s) => s.gone || s.outstanding === 0) || performance.now() >= graceUntil) {
            resolve({ startedAt, windowStartMs: windowStartMs || Date.now() });
          } else setTimeout(settleEchoes, 5);
        };
        settleEchoes();
      };
      pump();
    });

  /**
   * Closes every socket and returns the counts; in the open model messages of measured phases still unanswered count
   * as timeouts, and the counts come phase by phase too.
   */
  const closeAndCount = (
    windowStartMs: number,
    durationMs: number,
    cpuBefore: number | null,
    cpuAfter: number | null,
  ): EngineWsCounts => {
    phase = "done";
    clearInterval(watchdog);
    for (const s of sockets) {
      for (let i = s.dueHead; i < s.duePhase.length; i++) if (measured(s.duePhase[i])) timeouts++;
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
      ...(open
        ? {
          phases: phases.filter((_, i) => measured(i)).map((p) => ({ ...p.counts, histogram: p.histogram.sparse() })),
        }
        : {}),
    };
  };

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
  if (open && live.length > 0) {
    const measuredFrom = open.phases.filter((p) => !p.measured).reduce((a, p) => a + p.durationMs, 0);
    const cpuBefore = cpuUs();
    const { windowStartMs } = await runSchedule(open, live, measuredFrom);
    const durationMs = open.phases.filter((p) => p.measured).reduce((a, p) => a + p.durationMs, 0);
    const cpuAfter = cpuUs();
    return closeAndCount(windowStartMs, durationMs, cpuBefore, cpuAfter);
  }
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
  return closeAndCount(windowStartMs, durationMs, cpuBefore, cpuUs());
}
