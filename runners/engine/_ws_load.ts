// The load engine's WebSocket load: `connections` sockets opened at once (each handshake timed), then `inFlight`
// binary messages in flight on each; every echo, in the warm-up and in the measured window, is compared byte for byte
// with the message it answers, and the latency of valid measured echoes is counted in microseconds. Failures — a
// handshake that fails, a socket the server drops, an echo that never comes, a wrong echo — are counted apart.

import { type Clock, realClock } from "./clock.ts";
import { Load } from "./load.ts";
import type { OpenSchedule } from "./_schedule.ts";
import { type AccountingCounts, type PhaseCounts, Tally } from "./tally.ts";
import { startAt } from "./_http_load.ts";
import { type Connect, connect, cpuEdges, runtime } from "./_transport.ts";
import { Handshakes } from "./handshakes.ts";
import { handshakeRequest, messagePattern } from "./ws.ts";
import { WsConnection, type WsSetup } from "./_ws_conn.ts";

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
  readonly open?: OpenSchedule;
  /** Closed model: how long messages in flight at the window's end may take; a socket past it is hung. */
  readonly hungAfterMs: number;
  /** When every process starts its load, epoch milliseconds (they open their sockets before). */
  readonly startAtEpochMs?: number;
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
  /** How every message of the window ended, beyond the echoes. */
  readonly accounting: AccountingCounts;
}

/** Runs a job: connect every socket, warm up, measure, close (`clock` and `open` for tests). */
export async function driveWebSocket(
  job: EngineWsJob,
  clock: Clock = realClock,
  open: Connect = connect,
): Promise<EngineWsCounts> {
  const tally = new Tally(job.open?.phases ?? []);
  const handshakes = new Handshakes((why) => tally.failure(why));
  const setup: WsSetup = {
    hostname: job.hostname,
    port: job.port,
    connect: open,
    handshake: new TextEncoder().encode(handshakeRequest(`${job.hostname}:${job.port}`, job.path, job.key)),
    accept: job.accept,
    pattern: messagePattern(job.messageSize),
    capacity: job.open ? Infinity : job.inFlight,
    handshakes,
  };
  const sockets = Array.from({ length: job.connections }, (_, i) => new WsConnection(job.firstSocket + i, setup));
  await handshakes.openAll(sockets, job.timeoutSec * 1000);
  const load = new Load(
    {
      warmupMs: job.warmupSec * 1000,
      windowMs: job.messages === null ? job.durationSec * 1000 : Infinity,
      timeoutMs: job.timeoutSec * 1000,
      open: job.open,
      hungAfterMs: job.hungAfterMs,
      answersToEnd: job.messages,
      edges: cpuEdges(tally),
      startAt: startAt(job.startAtEpochMs, clock),
    },
    clock,
    tally,
  );
  const live = sockets.filter((s) => s.connected && !s.gone);
  for (const s of live) s.attach(load);
  if (live.length > 0) await load.run(live, false);
  return {
    connectUs: handshakes.connectUs,
    failedConnections: handshakes.failed,
    droppedSockets: tally.dropped,
    timeouts: tally.timeouts,
    mismatches: tally.mismatches,
    // A wrong echo is named first when there is one: it is what makes the record invalid.
    firstFailure: tally.firstMismatch ?? tally.firstFailure,
    sentMessages: tally.sentInWindow,
    receivedMessages: tally.responses,
    validMessages: tally.validResponses,
    warmupMessages: tally.warmupValidResponses,
    durationMs: live.length > 0 ? Math.round(load.window.durationMs) : 0,
    windowStartMs: live.length > 0 ? load.window.startEpochMs : Date.now(),
    cpuUs: tally.cpuUs,
    histogram: tally.histogram.sparse(),
    runtime,
    ...(job.open ? { phases: tally.phases() } : {}),
    accounting: tally.accounting(),
  };
}
