// The load engine's HTTP load: `connections` keep-alive HTTP/1.1 connections to one server. Closed model (the
// default): each connection keeps `pipelining` requests in flight, the next going out when a response is complete.
// Open model (`open`): requests are due on a schedule (constant or ramping rates, evenly spaced or Poisson); a due
// request goes out on an idle connection, or waits for one, and its latency runs from when it was due, so a stalled
// server shows its stall (no coordinated omission). Either way every response, in the warm-up and in the measured
// window, is checked against its request's expectation, and latency of valid measured responses is counted in µs.

import { type Clock, realClock } from "./clock.ts";
import type { EngineRequest } from "./_http.ts";
import { HttpConnection, Rotation } from "./_http_conn.ts";
import { Load } from "./load.ts";
import type { OpenSchedule } from "./_schedule.ts";
import { rateOverSpans } from "./_span.ts";
import { type AccountingCounts, type EndpointCounts, type PhaseCounts, Tally } from "./tally.ts";
import { type Connect, connect, cpuEdges, runtime } from "./_transport.ts";

export type { AccountingCounts, EndpointCounts, PhaseCounts };

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
  /** False: every request on a new connection, closed after its answer (`--keep-alive off`). @default {true} */
  readonly keepAlive?: boolean;
  /** Seconds of warm-up, then seconds measured (closed model; the open model's phases set their own). */
  readonly warmupSec: number;
  readonly durationSec: number;
  /** A request outstanding this long is a timeout; its connection is closed and opened again. */
  readonly timeoutSec: number;
  /** Where this process's first connection starts in the rotation (processes spread over it). */
  readonly firstRequest: number;
  /** The open model: the schedule's phases (the warm-up first, not measured), arrival spacing, seed and offset. */
  readonly open?: OpenSchedule;
  /** Closed model: how long requests in flight at the window's end may take; a connection past it is hung. */
  readonly hungAfterMs: number;
  /** When every process starts its load, epoch milliseconds (they open their connections before). */
  readonly startAtEpochMs?: number;
  /** Keep the first valid response and every `sampleEvery`-th after it, with their bodies (absent: none). */
  readonly sampleEvery?: number;
  /** The endpoint of each request of the rotation, by index into the endpoints; absent: no counts per endpoint. */
  readonly endpoints?: readonly number[];
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
  /** Requests in the measured window that timed out (open model: also those unanswered at the end). */
  timeouts: number;
  /** Bytes of measured responses. */
  bytes: number;
  /** Responses completed during the warm-up. */
  warmupResponses: number;
  /**
   * Closed model: responses completed after the window closed but before the engine stopped (its timer fires late
   * on a busy machine); neither measured nor warm-up, but work the server did and answered.
   */
  lateResponses: number;
  /** Requests written over the whole job (warm-up, window and after), answered or not. */
  sent: number;
  /** Length of the measured window. */
  durationMs: number;
  /** When it began (epoch milliseconds). */
  windowStartMs: number;
  /**
   * Closed model: valid responses per second over each connection's span from its first to its last valid response
   * of the window, summed, where every connection that counted one counted three, evenly, over half the window (see
   * `rateOverSpans`); absent otherwise, and in the open model (which counts an answer by when its request was due).
   */
  countedRate?: number;
  /** The first response that was not valid, described. */
  firstMismatch: string | null;
  /** Non-zero counts of the latency histogram (µs) of valid measured responses, `[index, count]`. */
  histogram: [number, number][];
  /** The runtime the engine ran on, `bun 1.4.5` or `deno 2.9.6`. */
  runtime: string;
  /**
   * Keep-alive off: non-zero counts of the connect times (µs) of the window's new connections, and of the requests'
   * whole times (connect and response; unanswered ones at no less than the timeout).
   */
  connectHistogram?: [number, number][];
  totalHistogram?: [number, number][];
  /** Open model: the measured phases. */
  phases?: PhaseCounts[];
  /** Per endpoint, by the indices of `EngineJob.endpoints`. */
  endpoints?: EndpointCounts[];
  /** How every request of the window ended, beyond the answers. */
  accounting: AccountingCounts;
  /** CPU this process used in the measured window, microseconds; null where the runtime cannot tell. */
  cpuUs: number | null;
  /** The responses kept (see `EngineJob.sampleEvery`): the rotation index each answered, and its body. */
  samples?: { index: number; body: string }[];
}

/** Runs a job to the end of its measured window and returns what it counted (`clock` and `open` for tests). */
export async function driveHttp(
  job: EngineJob,
  clock: Clock = realClock,
  open: Connect = connect,
): Promise<EngineCounts> {
  const tally = new Tally(job.open?.phases ?? [], job.endpoints);
  tally.sampleEvery = job.sampleEvery ?? 0;
  tally.perRequest = job.keepAlive === false;
  const load = new Load(
    {
      warmupMs: job.warmupSec * 1000,
      windowMs: job.durationSec * 1000,
      timeoutMs: job.timeoutSec * 1000,
      open: job.open,
      hungAfterMs: job.hungAfterMs,
      answersToEnd: null,
      edges: cpuEdges(tally),
      startAt: startAt(job.startAtEpochMs, clock),
    },
    clock,
    tally,
  );
  const rotation = new Rotation(job.requests);
  const endpoint = {
    hostname: job.hostname,
    port: job.port,
    connect: open,
    keepAlive: job.keepAlive !== false,
    now: () => clock.now(),
  };
  const connections = Array.from(
    { length: job.connections },
    (_, c) => new HttpConnection(rotation, job.firstRequest + c, job.pipelining, endpoint, load),
  );
  await load.run(connections, true);
  return countsOf(tally, load, job.open !== undefined);
}

/** The clock moment of epoch `epochMs`, or undefined to start at once. */
export function startAt(epochMs: number | undefined, clock: Clock): number | undefined {
  return epochMs === undefined ? undefined : clock.now() + (epochMs - clock.epochOf(clock.now()));
}

/** What the tally counted, as the harness reads it. */
function countsOf(tally: Tally, load: Load, open: boolean): EngineCounts {
  const overSpans = open ? null : rateOverSpans(tally.spans, load.window.durationMs);
  const endpoints = tally.endpoints();
  return {
    responses: tally.responses,
    validResponses: tally.validResponses,
    non2xx: tally.non2xx,
    mismatches: tally.mismatches,
    errors: tally.errors,
    timeouts: tally.timeouts,
    bytes: tally.bytes,
    warmupResponses: tally.warmupResponses,
    lateResponses: tally.lateResponses,
    sent: tally.sent,
    durationMs: load.window.durationMs,
    windowStartMs: load.window.startEpochMs,
    ...(overSpans === null ? {} : { countedRate: overSpans }),
    firstMismatch: tally.firstMismatch,
    histogram: tally.histogram.sparse(),
    runtime,
    ...(tally.perRequest ? { connectHistogram: tally.connects.sparse(), totalHistogram: tally.totals.sparse() } : {}),
    ...(open ? { phases: tally.phases() } : {}),
    ...(endpoints ? { endpoints } : {}),
    accounting: tally.accounting(),
    cpuUs: tally.cpuUs,
    ...(tally.sampleEvery > 0 ? { samples: tally.samples } : {}),
  };
}
