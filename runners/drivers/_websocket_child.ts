/**
 * The WebSocket load driver process for Deno's own WebSocket and the `ws`
 * package. Reads its job as JSON on stdin, opens the sockets, keeps a fixed
 * number of binary messages in flight on each, verifies every echo byte for
 * byte, and writes one JSON result on stdout. It runs the load engine's own
 * load (its window, pump, timeouts and tally); only the socket differs. Runs
 * pinned apart from the server, so it is its own process; nothing here
 * prints to stdout but the result.
 *
 * Every message carries its socket number and sequence number in its first
 * 8 bytes, so that a corrupted, stale, duplicated or reordered echo is a
 * mismatch; the rest is a fixed pattern holding every byte value.
 *
 * @module
 */

import { Buffer } from "node:buffer";
import WebSocket from "ws";
import * as hdr from "hdr-histogram-js";
import { percentilesOf } from "../samples/latency.ts";
import { round } from "../stats/round.ts";
import type { WebSocketLoadJob, WebSocketMeasurement } from "./websocket.ts";
import { HEADER_BYTES, messagePattern } from "../engine/ws.ts";
import { realClock } from "../engine/clock.ts";
import { Handshakes, type Opening } from "../engine/handshakes.ts";
import { InFlight } from "../engine/in_flight.ts";
import { pairEcho } from "../engine/ws_pair.ts";
import { Load, type LoadConnection, type LoadEvents } from "../engine/load.ts";
import { histogramOf } from "../engine/merge.ts";
import { Tally } from "../engine/tally.ts";
import { hungAfterMs, mergeAccounting } from "./accounting.ts";

/** The job's hung bound: its own, or the default for its window and timeout. */
function hungMs(job: WebSocketLoadJob): number {
  return job.hungAfterMs ?? hungAfterMs(job.durationSec * 1000, job.timeoutSec * 1000);
}

/** How one socket reports to the driver, whichever client library carries it. */
interface Events {
  open(): void;
  message(data: Buffer | string): void;
  close(): void;
  error(message: string): void;
}

/** The part of a client socket the driver uses. */
interface ClientSocket {
  send(data: Buffer): void;
  close(): void;
  terminate(): void;
}

function openWs(url: string, on: Events): ClientSocket {
  const socket = new WebSocket(url, { perMessageDeflate: false });
  socket.on("open", on.open);
  socket.on("message", (data: Buffer, isBinary: boolean) => on.message(isBinary ? data : data.toString()));
  socket.on("close", on.close);
  socket.on("error", (error: Error) => on.error(error.message));
  return {
    send: (data) => socket.send(data),
    close: () => socket.close(1000),
    terminate: () => socket.terminate(),
  };
}

function openNative(url: string, on: Events): ClientSocket {
  const socket = new globalThis.WebSocket(url);
  socket.binaryType = "arraybuffer";
  socket.onopen = on.open;
  socket.onmessage = (event) =>
    on.message(typeof event.data === "string" ? event.data : Buffer.from(event.data as ArrayBuffer));
  socket.onclose = on.close;
  socket.onerror = (event) => on.error((event as ErrorEvent).message ?? "error");
  return {
    send: (data) => socket.send(data),
    close: () => socket.close(1000),
    terminate: () => socket.close(),
  };
}

/** CPU seconds process `pid` has used, from /proc (read synchronously: it is read at the window's edges). */
function cpuSeconds(pid: number | undefined): number | null {
  if (pid === undefined) return null;
  try {
    const stat = Deno.readTextFileSync(`/proc/${pid}/stat`);
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    // utime and stime are fields 14 and 15 of stat(5), in clock ticks (100 per second on Linux).
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return null;
  }
}

/** What every socket of the run shares. */
interface Setup {
  readonly job: WebSocketLoadJob;
  readonly pattern: Buffer;
  readonly handshakes: Handshakes;
}

/** One client socket as a connection of the engine's load. */
class ClientConnection implements LoadConnection, Opening {
  readonly inFlight: InFlight;
  queued = false;
  closedAt = NaN;
  lastAnswerAt = 0;
  // A WebSocket keeps its connection: latency runs from each send.
  readonly writtenAt = NaN;
  connected = false;
  #everConnected = false;
  #generation = 0;
  #socket: ClientSocket | null = null;
  #events: LoadEvents | null = null;
  #closing = false;
  #gone = false;
  #nextSend = 0;
  #lastError = "closed during the handshake";

  constructor(readonly id: number, readonly setup: Setup) {
    this.inFlight = new InFlight(setup.job.inFlight);
  }

  attach(events: LoadEvents): void {
    this.#events = events;
  }

  get gone(): boolean {
    return this.#gone;
  }

  get ready(): boolean {
    return this.connected && !this.#gone && !this.#closing && this.inFlight.length < this.setup.job.inFlight;
  }

  open(): void {
    const started = performance.now();
    const open = this.setup.job.client === "ws" ? openWs : openNative;
    this.connected = this.#closing = this.#gone = false;
    // Events of an earlier socket (a close that comes late) must not touch this one.
    const generation = ++this.#generation;
    const current = () => generation === this.#generation;
    this.#socket = open(this.setup.job.url, {
      open: () => {
        if (!current()) return;
        this.connected = true;
        if (this.#everConnected) this.#events?.opened(this);
        else this.setup.handshakes.done(Math.round((performance.now() - started) * 1000));
        this.#everConnected = true;
      },
      message: (data) => current() && this.#message(data),
      close: () => current() && this.#lost(),
      error: (message) => this.#lastError = message,
    });
  }

  send(at: number, phase: number): void {
    const data = Buffer.allocUnsafe(this.setup.job.messageSize);
    this.setup.pattern.copy(data, HEADER_BYTES, HEADER_BYTES);
    const seq = this.#nextSend++;
    data.writeUInt32LE(this.id, 0);
    data.writeUInt32LE(seq >>> 0, 4);
    this.inFlight.push(seq, at, phase);
    this.#events!.sent(at, phase);
    this.#socket!.send(data);
  }

  #message(data: Buffer | string): void {
    const events = this.#events;
    if (events === null || this.#closing) return;
    pairEcho(this, data, this.id, this.setup.pattern, events);
    events.progressed(this);
  }

  abandon(): void {
    this.#closing = true;
    this.#socket?.terminate();
    this.#lost();
  }

  close(): void {
    if (this.#gone || this.#closing) return;
    this.#closing = true;
    this.#socket?.close();
  }

  /** Ends a socket that did not close politely in time. */
  terminate(): void {
    if (!this.#gone) this.#socket?.terminate();
    this.#gone = true;
  }

  #lost(): void {
    if (this.#gone) return;
    this.#gone = true;
    if (!this.#everConnected) {
      this.setup.handshakes.failure(`socket ${this.id} could not connect: ${this.#lastError}`);
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

/** CPU seconds of the driver and of the job's server over the window (read at its edges). */
function cpuWindow(job: WebSocketLoadJob) {
  const at = { client: null as number | null, server: null as number | null, openedMs: 0, endedMs: 0 };
  const delta = { client: null as number | null, server: null as number | null };
  const edges = {
    open() {
      at.client = cpuSeconds(Deno.pid);
      at.server = cpuSeconds(job.serverPid);
      at.openedMs = performance.now();
    },
    end() {
      const client = cpuSeconds(Deno.pid), server = cpuSeconds(job.serverPid);
      at.endedMs = performance.now();
      if (at.client !== null && client !== null) delta.client = client - at.client;
      if (at.server !== null && server !== null) delta.server = server - at.server;
    },
  };
  const percent = (seconds: number | null) => {
    const span = (at.endedMs - at.openedMs) / 1000;
    return seconds === null || span <= 0 ? null : round(seconds / span * 100, 1);
  };
  return { edges, client: () => percent(delta.client), server: () => percent(delta.server) };
}

/** Runs the job and returns the measurement. */
export async function drive(job: WebSocketLoadJob): Promise<WebSocketMeasurement> {
  const tally = new Tally([]);
  const handshakes = new Handshakes((why) => tally.failure(why));
  const setup: Setup = { job, pattern: Buffer.from(messagePattern(job.messageSize)), handshakes };
  const conns = Array.from({ length: job.connections }, (_, i) => new ClientConnection(i, setup));
  await handshakes.openAll(conns, job.timeoutSec * 1000);
  const cpu = cpuWindow(job);
  const load = new Load(
    {
      warmupMs: job.warmupSec * 1000,
      windowMs: job.messages === null ? job.durationSec * 1000 : Infinity,
      timeoutMs: job.timeoutSec * 1000,
      answersToEnd: job.messages,
      hungAfterMs: hungMs(job),
      edges: cpu.edges,
    },
    realClock,
    tally,
  );
  const live = conns.filter((c) => c.connected && !c.gone);
  for (const c of live) c.attach(load);
  if (live.length > 0) await load.run(live, false);
  // Closed politely by the load; whatever has not closed within a second is cut.
  const closeBy = performance.now() + 1000;
  while (conns.some((c) => !c.gone) && performance.now() < closeBy) await new Promise((r) => setTimeout(r, 10));
  for (const c of conns) c.terminate();
  return measurement(job, tally, load, handshakes, live.length > 0, cpu);
}

/** What the run measured, as the harness reads it. */
function measurement(
  job: WebSocketLoadJob,
  tally: Tally,
  load: Load,
  handshakes: Handshakes,
  ran: boolean,
  cpu: ReturnType<typeof cpuWindow>,
): WebSocketMeasurement {
  const durationMs = ran ? Math.round(load.window.durationMs) : 0;
  const seconds = durationMs / 1000;
  const connect = [...handshakes.connectUs].sort((a, b) => a - b);
  const h = histogramOf([{ histogram: tally.histogram.sparse() }]);
  const valid = tally.validResponses;
  return {
    durationMs,
    connections: job.connections,
    connected: connect.length,
    connectMedianUs: connect.length > 0 ? connect[Math.floor((connect.length - 1) / 2)] : null,
    connectMaxUs: connect.length > 0 ? connect.at(-1)! : null,
    sentMessages: tally.sentInWindow,
    receivedMessages: tally.responses,
    validMessages: valid,
    messagesPerSecond: seconds > 0 ? round(valid / seconds, 2) : 0,
    sentMessagesPerSecond: seconds > 0 ? round(tally.sentInWindow / seconds, 2) : 0,
    bytesPerSecond: seconds > 0 ? Math.round((valid * job.messageSize) / seconds) : 0,
    failedConnections: handshakes.failed,
    droppedSockets: tally.dropped,
    timeouts: tally.timeouts,
    mismatches: tally.mismatches,
    firstFailure: tally.firstMismatch ?? tally.firstFailure,
    latencyUs: percentilesOf(h),
    latencyHistogram: h.totalCount > 0 ? hdr.encodeIntoCompressedBase64(h) : null,
    warmupMessages: tally.warmupValidResponses,
    clientCpuPercent: ran ? cpu.client() : null,
    serverCpuPercent: ran ? cpu.server() : null,
    windowStartMs: ran ? load.window.startEpochMs : Date.now(),
    accounting: mergeAccounting([tally.accounting()], tally.responses, hungMs(job), job.timeoutSec * 1000),
  };
}

async function main(): Promise<void> {
  const job = JSON.parse(await new Response(Deno.stdin.readable).text()) as WebSocketLoadJob;
  const measurement = await drive(job);
  // stdout carries only the result.
  await Deno.stdout.write(new TextEncoder().encode(JSON.stringify(measurement)));
  // Sockets the server never closed would keep the event loop alive.
  Deno.exit(0);
}

if (import.meta.main) await main();
