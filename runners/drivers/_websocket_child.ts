/**
 * The WebSocket load driver process. Reads its job as JSON on stdin, opens
 * the sockets, keeps a fixed number of binary messages in flight on each,
 * verifies every echo byte for byte, and writes one JSON result on stdout.
 * Runs pinned apart from the server, so it is its own process; nothing here
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
import { HISTOGRAM_OPTIONS, percentilesOf } from "../stats/latency.ts";
import { readProcText } from "../platform/procfs.ts";
import type { WebSocketLoadJob, WebSocketMeasurement } from "./websocket.ts";
import { echoMismatch, HEADER_BYTES, messagePattern } from "./_engine_ws.ts";

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

async function cpuSeconds(pid: number | undefined): Promise<number | null> {
  if (pid === undefined) return null;
  const stat = await readProcText(`/proc/${pid}/stat`);
  if (!stat) return null;
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  // utime and stime are fields 14 and 15 of stat(5), in clock ticks (100 per second on Linux).
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

type Phase = "connect" | "warmup" | "measure" | "done";

/** One socket's state: what it sent, in order, and when. */
class Conn {
  socket!: ClientSocket;
  open = false;
  /** Closed by the driver (end of run, timeout): its close is not a drop. */
  closing = false;
  gone = false;
  nextSend = 0;
  nextEcho = 0;
  connectStarted = 0;
  readonly sentAt: Float64Array;
  constructor(readonly id: number, inFlight: number) {
    this.sentAt = new Float64Array(inFlight);
  }
  get outstanding(): number {
    return this.nextSend - this.nextEcho;
  }
}

/** Runs the job and returns the measurement. */
export async function drive(job: WebSocketLoadJob): Promise<WebSocketMeasurement> {
  const pattern = Buffer.from(messagePattern(job.messageSize));
  const timeoutMs = job.timeoutSec * 1000;
  const open = job.client === "ws" ? openWs : openNative;
  const histogram = hdr.build(HISTOGRAM_OPTIONS);
  const connectTimes: number[] = [];
  let phase: Phase = "connect";
  let failedConnections = 0;
  let dropped = 0;
  let timeouts = 0;
  let mismatches = 0;
  let firstFailure: string | null = null;
  let warmupMessages = 0;
  let sent = 0;
  let received = 0;
  let valid = 0;
  let endWindow: () => void = () => {};
  const fail = (what: string) => firstFailure ??= what;

  const send = (c: Conn) => {
    const data = Buffer.allocUnsafe(job.messageSize);
    pattern.copy(data, HEADER_BYTES, HEADER_BYTES);
    data.writeUInt32LE(c.id, 0);
    data.writeUInt32LE(c.nextSend >>> 0, 4);
    c.sentAt[c.nextSend % job.inFlight] = performance.now();
    c.nextSend++;
    if (phase === "measure") sent++;
    c.socket.send(data);
  };

  const conns = Array.from({ length: job.connections }, (_, i) => new Conn(i, job.inFlight));
  let pending = conns.length;
  let connected!: () => void;
  const allSettled = new Promise<void>((resolve) => connected = resolve);
  const settle = () => {
    if (--pending === 0) connected();
  };
  const lost = (c: Conn, why: string) => {
    if (c.gone) return;
    c.gone = true;
    if (!c.open) {
      failedConnections++;
      fail(`socket ${c.id} could not connect: ${why}`);
      settle();
      return;
    }
    if (c.closing || phase === "done") return;
    dropped++;
    fail(`socket ${c.id} was closed by the server after ${c.nextEcho} echoes`);
    if (conns.every((x) => x.gone)) endWindow();
  };

  for (const c of conns) {
    c.connectStarted = performance.now();
    let lastError = "closed during the handshake";
    c.socket = open(job.url, {
      open() {
        c.open = true;
        connectTimes.push(performance.now() - c.connectStarted);
        settle();
      },
      message(data) {
        if (phase === "done" || c.closing || c.outstanding === 0) {
          if (c.outstanding === 0 && phase !== "done") {
            mismatches++;
            fail(`socket ${c.id} received a message it did not send`);
          }
          return;
        }
        const seq = c.nextEcho++;
        const wrong = echoMismatch(data, pattern, c.id, seq >>> 0);
        if (phase === "measure") received++;
        if (wrong !== null) {
          mismatches++;
          fail(`socket ${c.id} message ${seq}: ${wrong}`);
        } else if (phase === "measure") {
          valid++;
          const us = (performance.now() - c.sentAt[seq % job.inFlight]) * 1000;
          histogram.recordValue(Math.max(1, Math.round(us)));
          if (job.messages !== null && valid >= job.messages) endWindow();
        } else {
          warmupMessages++;
        }
        if (phase === "warmup" || phase === "measure") send(c);
      },
      close() {
        lost(c, lastError);
      },
      error(message) {
        lastError = message;
      },
    });
  }

  const connectDeadline = setTimeout(() => {
    for (const c of conns) {
      if (!c.open && !c.gone) {
        c.closing = true;
        lost(c, `no handshake within ${job.timeoutSec} s`);
        c.socket.terminate();
      }
    }
  }, timeoutMs);
  await allSettled;
  clearTimeout(connectDeadline);
  const connectMs = connectTimes.length > 0 ? Math.max(...connectTimes) : 0;

  // A socket whose oldest message waited longer than the timeout is counted and closed.
  const watchdog = setInterval(() => {
    const now = performance.now();
    for (const c of conns) {
      if (c.gone || c.closing || c.outstanding === 0) continue;
      if (now - c.sentAt[c.nextEcho % job.inFlight] > timeoutMs) {
        timeouts++;
        fail(`socket ${c.id} message ${c.nextEcho}: no echo within ${job.timeoutSec} s`);
        c.closing = true;
        c.gone = true;
        c.socket.terminate();
        if (conns.every((x) => x.gone)) endWindow();
      }
    }
  }, Math.min(250, timeoutMs / 4));

  const live = conns.filter((c) => c.open && !c.gone);
  // Ending the measured window sets the phase at once: echoes already queued
  // in this turn of the event loop must not count.
  const run = (ms: number | null, after?: Phase) =>
    new Promise<void>((resolve) => {
      const finish = () => {
        clearTimeout(timer);
        endWindow = () => {};
        if (after) phase = after;
        resolve();
      };
      const timer = ms === null ? undefined : setTimeout(finish, ms);
      endWindow = finish;
      if (conns.every((x) => x.gone)) finish();
    });

  if (live.length > 0 && job.warmupSec > 0) {
    phase = "warmup";
    for (const c of live) for (let i = 0; i < job.inFlight; i++) send(c);
    await run(job.warmupSec * 1000);
  }
  const cpuReadStarted = performance.now();
  const [cpuBefore, serverCpuBefore] = await Promise.all([cpuSeconds(Deno.pid), cpuSeconds(job.serverPid)]);
  const started = performance.now();
  if (live.length > 0) {
    const wasWarm = phase === "warmup";
    phase = "measure";
    if (!wasWarm) { for (const c of live) for (let i = 0; i < job.inFlight; i++) send(c); }
    await run(job.messages === null ? job.durationSec * 1000 : null, "done");
  }
  const durationMs = performance.now() - started;
  phase = "done";
  const [cpuAfter, serverCpuAfter] = await Promise.all([cpuSeconds(Deno.pid), cpuSeconds(job.serverPid)]);
  // Reading /proc may take a while when the event loop is busy with late echoes. The reads happened somewhere
  // between these timestamps: dividing by the longest possible span never overstates the CPU share.
  const cpuSpanSec = (performance.now() - cpuReadStarted) / 1000;
  clearInterval(watchdog);

  // Close politely, then cut whatever has not closed within a second.
  for (const c of conns) {
    if (c.gone) continue;
    c.closing = true;
    c.socket.close();
  }
  const closeBy = performance.now() + 1000;
  while (conns.some((c) => !c.gone) && performance.now() < closeBy) await new Promise((r) => setTimeout(r, 10));
  for (const c of conns) if (!c.gone) c.socket.terminate();

  const seconds = durationMs / 1000;
  connectTimes.sort((a, b) => a - b);
  return {
    durationMs: Math.round(durationMs),
    connections: job.connections,
    connected: connectTimes.length,
    connectMedianUs: connectTimes.length > 0
      ? Math.round(connectTimes[Math.floor((connectTimes.length - 1) / 2)] * 1000)
      : null,
    connectMaxUs: connectTimes.length > 0 ? Math.round(connectMs * 1000) : null,
    sentMessages: sent,
    receivedMessages: received,
    validMessages: valid,
    messagesPerSecond: seconds > 0 ? Math.round((valid / seconds) * 100) / 100 : 0,
    sentMessagesPerSecond: seconds > 0 ? Math.round((sent / seconds) * 100) / 100 : 0,
    bytesPerSecond: seconds > 0 ? Math.round((valid * job.messageSize) / seconds) : 0,
    failedConnections,
    droppedSockets: dropped,
    timeouts,
    mismatches,
    firstFailure,
    latencyUs: percentilesOf(histogram),
    latencyHistogram: histogram.totalCount > 0 ? hdr.encodeIntoCompressedBase64(histogram) : null,
    warmupMessages,
    clientCpuPercent: cpuBefore === null || cpuAfter === null || seconds <= 0
      ? null
      : Math.round(((cpuAfter - cpuBefore) / cpuSpanSec) * 1000) / 10,
    serverCpuPercent: serverCpuBefore === null || serverCpuAfter === null || seconds <= 0
      ? null
      : Math.round(((serverCpuAfter - serverCpuBefore) / cpuSpanSec) * 1000) / 10,
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
