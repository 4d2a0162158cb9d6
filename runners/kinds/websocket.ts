/**
 * The WebSocket kind: for each run a fresh pinned server, a verified text
 * and binary exchange, then the WebSocket driver in its own pinned process,
 * which verifies every echo under load.
 *
 * @module
 */

import type { Check, WebSocketTraffic, WebSocketWorkload } from "../../workloads/mod.ts";
import type { RecordOutcome, ServedRecordContext } from "./record.ts";
import { inPhase, keepChecks, PhaseError } from "./errors.ts";
import type { Headline, LoadGeneratorInfo, RunSettings } from "../schema/mod.ts";
import { type RunningServer, type StagedServer, startRecordServer } from "./server.ts";
import { multiCoreRun } from "./multicore.ts";
import { underLoad } from "./under_load.ts";
import {
  type CpuReport,
  DEFAULT_WEBSOCKET_CLIENT,
  engineClient,
  openModelOf,
  type ResourceReport,
  runWebSocketDriver,
  type WebSocketMeasurement,
  WS_VERSION,
} from "../drivers/mod.ts";
import { openFigures } from "./open_figures.ts";
import { round } from "../stats/mod.ts";
import { describeEchoFailures, judgeEchoRun } from "./verdict.ts";
import type { Kind, RunOutput } from "./kind.ts";
import { atCpuRate, type AtRate, withEfficiency } from "./cpu_rate.ts";
import { servedKind, servedRunStood, type ServedState } from "./served.ts";
import { type IdleMemory, idleMemory } from "./idle_connections.ts";
import denoConfig from "../../deno.json" with { type: "json" };

/** The driver is rtbench's own and has no faster alternative here: more client CPUs are the way past it. */
const WS_REMEDY = "give the driver more CPUs with --client-host";

/** Text sent before load: multi-byte characters, so a server that mangles UTF-8 is caught. */
const VERIFY_TEXT = "rtbench echo: héllo wörld ✓ 🚀";

/** Describes the driver for the record's `loadGenerator`: its client, and what that runs on. */
export async function websocketDriverInfo(client = DEFAULT_WEBSOCKET_CLIENT): Promise<LoadGeneratorInfo> {
  return {
    name: "rtbench-ws",
    version: denoConfig.version,
    latencyResolution: "us",
    client: client === "ws"
      ? `ws ${WS_VERSION}`
      : client === "native"
      ? `deno ${Deno.version.deno} WebSocket`
      : `rtbench engine, raw frames on ${await engineClient()}`,
    verifies: "every echo, byte for byte, with its socket and sequence numbers, in the warm-up and the measured window",
    accountsForRequests: true,
  };
}

/** Every byte value in turn, `size` bytes: binary that is not valid UTF-8, so it must travel as binary. */
function binaryMessage(size: number): Uint8Array {
  return Uint8Array.from({ length: size }, (_, i) => (i * 131 + 255) & 255);
}

function describeData(data: unknown): string {
  if (typeof data === "string") return `text ${JSON.stringify(data.length > 60 ? data.slice(0, 57) + "..." : data)}`;
  if (data instanceof ArrayBuffer) return `binary, ${data.byteLength} bytes`;
  return String(data);
}

function sameBytes(data: unknown, expected: Uint8Array): string | null {
  if (!(data instanceof ArrayBuffer)) return describeData(data);
  const got = new Uint8Array(data);
  if (got.length !== expected.length) return describeData(data);
  const at = got.findIndex((b, i) => b !== expected[i]);
  return at === -1 ? null : `byte ${at} is ${got[at]}, expected ${expected[at]}`;
}

/**
 * Opens one socket, sends a text and a binary message (of the traffic's
 * size) one after the other, and checks that each comes back unchanged and
 * of the same type. Returns the checks; a socket that cannot be opened throws.
 */
export async function verifyEcho(
  url: string,
  traffic: WebSocketTraffic,
  timeoutMs: number,
  signal?: AbortSignal,
): Promise<Check[]> {
  const socket = new WebSocket(url);
  socket.binaryType = "arraybuffer";
  const inbox: unknown[] = [];
  let waiting: (() => void) | undefined;
  let closed: string | undefined;
  socket.onmessage = (event) => {
    inbox.push(event.data);
    waiting?.();
  };
  socket.onclose = (event) => {
    closed = `the server closed the socket (code ${event.code})`;
    waiting?.();
  };
  socket.onerror = (event) => {
    closed = (event as ErrorEvent).message || "socket error";
    waiting?.();
  };
  const next = async (what: string): Promise<unknown> => {
    const deadline = Date.now() + timeoutMs;
    while (inbox.length === 0) {
      signal?.throwIfAborted();
      if (closed !== undefined) throw new Error(`Cannot verify ${what}: ${closed}`);
      if (Date.now() >= deadline) throw new Error(`Cannot verify ${what}: no answer within ${timeoutMs / 1000} s`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, Math.min(100, timeoutMs));
        waiting = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      waiting = undefined;
    }
    return inbox.shift();
  };
  try {
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`No WebSocket handshake within ${timeoutMs / 1000} s`)),
        timeoutMs,
      );
      socket.onopen = () => {
        clearTimeout(timer);
        resolve();
      };
      socket.addEventListener("close", () => {
        clearTimeout(timer);
        reject(new Error(`WebSocket handshake failed: ${closed}`));
      });
    });
    const checks: Check[] = [];
    socket.send(VERIFY_TEXT);
    const text = await next("the text echo");
    checks.push({
      name: "text echo",
      passed: text === VERIFY_TEXT,
      expected: `text ${JSON.stringify(VERIFY_TEXT)}`,
      actual: describeData(text),
    });
    const binary = binaryMessage(traffic.messageSize);
    socket.send(binary);
    const echo = await next("the binary echo");
    const wrong = sameBytes(echo, binary);
    checks.push({
      name: `binary echo (${traffic.messageSize} bytes)`,
      passed: wrong === null,
      expected: `binary, ${binary.length} bytes, identical`,
      actual: wrong ?? `binary, ${binary.length} bytes, identical`,
    });
    return checks;
  } finally {
    socket.close(1000);
  }
}

function runFigures(
  index: number,
  startedAt: string,
  m: WebSocketMeasurement,
  resources: ResourceReport | undefined,
): RunOutput["run"] {
  const figures: Record<string, number> = {
    messagesPerSecond: m.messagesPerSecond,
    sentMessagesPerSecond: m.sentMessagesPerSecond,
    bytesPerSecond: m.bytesPerSecond,
    validMessages: m.validMessages,
    durationMs: m.durationMs,
  };
  if (m.connectMedianUs !== null) figures.connectMedianUs = m.connectMedianUs;
  if (m.connectMaxUs !== null) figures.connectMaxUs = m.connectMaxUs;
  if (m.clientCpuPercent !== null) figures.clientCpuPercent = m.clientCpuPercent;
  if (m.serverCpuPercent !== null) figures.serverCpuPercent = m.serverCpuPercent;
  if (m.droppedSockets > 0) figures.droppedSockets = m.droppedSockets;
  if (m.failedConnections > 0) figures.failedConnections = m.failedConnections;
  if (m.clientCpuPercent !== null && m.receivedMessages > 0) {
    // The driver's own cost per echo: its headroom is what one of its CPUs could do at this cost.
    figures.clientCpuUsPerMessage = round((m.clientCpuPercent / 100) * m.durationMs * 1000 / m.receivedMessages, 2);
  }
  if (resources?.summary.server) figures.serverRssPeakBytes = resources.summary.server.rssBytes.peak;
  return {
    index,
    startedAt,
    figures,
    counts: {
      errors: m.failedConnections + m.droppedSockets,
      timeouts: m.timeouts,
      non2xx: 0,
      mismatches: m.mismatches,
    },
    latencyUs: m.latencyUs,
    latencyHistogram: m.latencyHistogram,
    resources: resources?.series ?? null,
    ...(m.accounting ? { accounting: m.accounting } : {}),
  };
}

/** The open model's figures and phases over the closed model's (`--rate`, `--phases` in messages per second). */
function withOpenModel(run: RunOutput["run"], m: WebSocketMeasurement, settings: RunSettings): RunOutput["run"] {
  const model = openModelOf(settings);
  if (!model || !m.phases) return run;
  const open = openFigures(model, m.phases, m.latencyUs, "Messages");
  return { ...run, figures: { ...run.figures, ...open.figures }, phases: open.phases };
}

/** Why run `run` makes its record invalid, or null (see {@linkcode judgeEchoRun}); its warnings go on the record. */
function judgeEchoes(state: WebSocketState, m: WebSocketMeasurement, run: number): string | null {
  const verdict = judgeEchoRun(m, run);
  const warnings = state.outcome.warnings;
  for (const w of verdict.warnings) if (!warnings.some((x) => x.message === w.message)) warnings.push(w);
  return verdict.invalid;
}

function checkTraffic(traffic: WebSocketTraffic): void {
  if (!Number.isInteger(traffic.messageSize) || traffic.messageSize < 8) {
    throw new PhaseError("setup", `--message-size must be a whole number ≥ 8, got ${traffic.messageSize}`);
  }
  if (!Number.isInteger(traffic.inFlight) || traffic.inFlight < 1) {
    throw new PhaseError("setup", `--in-flight must be a whole number ≥ 1, got ${traffic.inFlight}`);
  }
}

/** One WebSocket record: its staged server and traffic. */
interface WebSocketState extends ServedState<ServedRecordContext<WebSocketWorkload>> {
  readonly file: string;
  readonly args: readonly string[] | undefined;
  readonly traffic: WebSocketTraffic;
}

/** At a fixed rate the question is latency; otherwise, how many echoes a second. */
function headlineOf(settings: RunSettings): Headline {
  return openModelOf(settings)
    ? { figure: "latencyP99Us", higherIsBetter: false }
    : { figure: "messagesPerSecond", higherIsBetter: true };
}

async function open(
  ctx: ServedRecordContext<WebSocketWorkload>,
  outcome: RecordOutcome,
  staged: StagedServer,
): Promise<WebSocketState> {
  const traffic = ctx.workload.traffic(ctx);
  checkTraffic(traffic);
  outcome.loadGenerator = await websocketDriverInfo();
  return { ctx, outcome, file: staged.file, args: staged.args, traffic, sampled: [] };
}

/** The WebSocket driver against the run's server with `settings`, as a load `underLoad` can start. */
function driverOf(
  state: WebSocketState,
  server: RunningServer,
  url: string,
  settings: RunSettings,
  messages: number | null,
): (onSpawn: (pid: number) => void) => Promise<WebSocketMeasurement> {
  const { traffic, ctx } = state;
  return (onSpawn) =>
    runWebSocketDriver({
      url,
      client: DEFAULT_WEBSOCKET_CLIENT,
      connections: settings.connections,
      inFlight: traffic.inFlight,
      messageSize: traffic.messageSize,
      durationSec: settings.durationSec,
      warmupSec: settings.warmupSec,
      messages,
      timeoutSec: settings.requestTimeoutSec,
      serverPid: server.group.pid,
      rate: settings.rate,
      phases: settings.phases,
      arrival: settings.arrival,
    }, { cpus: ctx.cpus.client, signal: ctx.signal, onSpawn });
}

/** One run: a fresh pinned server, a verified text and binary echo, then the driver under load. */
async function runOnce(state: WebSocketState, run: number): Promise<RunOutput> {
  const { ctx, outcome, traffic } = state;
  const timeoutMs = ctx.settings.requestTimeoutSec * 1000;
  const server = await startRecordServer(ctx, state.file, state.args);
  outcome.command = [...server.command];
  const url = `${server.baseUrl.replace(/^http/, "ws")}${traffic.path}`;
  let m: WebSocketMeasurement;
  let resources: ResourceReport | undefined;
  let cpu: CpuReport | undefined;
  let rated: AtRate<WebSocketMeasurement> | null = null;
  let memory: IdleMemory | null = null;
  const startedAt = new Date().toISOString();
  try {
    ctx.onPhase?.("verify", run);
    const checks = await inPhase("verify", () => verifyEcho(url, traffic, timeoutMs, ctx.signal));
    keepChecks(outcome, checks, run === 0, "verify");
    const drive = (settings: RunSettings, messages: number | null) => driverOf(state, server, url, settings, messages);
    const loaded = await underLoad(ctx, server, run, drive(ctx.settings, traffic.messages ?? null));
    resources = loaded.resources;
    cpu = loaded.cpu;
    // The --cpu-rate window on the same server: messages per second on a schedule, the CPU per message counted.
    rated = await atCpuRate(
      ctx,
      server,
      run,
      "Message",
      (x: WebSocketMeasurement) => x.receivedMessages,
      (settings, onSpawn) => drive(settings, null)(onSpawn),
    );
    memory = await idleMemory(ctx, server, run, { websocket: url });
    // The sampler watches every driver and the server the same way; the driver's own reading is the fallback.
    const sampled = resources?.summary;
    m = {
      ...loaded.measured,
      clientCpuPercent: sampled?.client?.cpuPercent.mean ?? loaded.measured.clientCpuPercent,
      serverCpuPercent: sampled?.server?.cpuPercent.mean ?? loaded.measured.serverCpuPercent,
    };
  } finally {
    await server.stop();
  }
  // In the fixed-rate window a wrong echo is as wrong as anywhere; a rate too high for the sockets is that window's
  // own verdict (no CPU figure), not the record's.
  const invalid = judgeEchoes(state, m, run) ??
    (rated && rated.measured.mismatches > 0 ? describeEchoFailures(rated.measured) : null);
  if (invalid !== null) return { run: runFigures(run, startedAt, m, resources), invalid };
  if (resources) state.sampled.push(resources);
  servedRunStood(outcome, m, ctx.settings.connections);
  const extra = rated ? rated.measured.warmupMessages + rated.measured.receivedMessages : 0;
  return multiCoreRun(outcome, server, resources, ctx.cpus, {
    run: withEfficiency(
      withOpenModel(runFigures(run, startedAt, m, resources), m, ctx.settings),
      cpu,
      m.receivedMessages,
      [rated, memory],
      outcome,
      "Message",
    ),
    responses: { valid: m.validMessages, total: 2 + m.warmupMessages + m.receivedMessages + extra },
  });
}

/**
 * The WebSocket kind: each run a fresh pinned server, a verified text and
 * binary echo, then the WebSocket driver in its own pinned process, which
 * verifies every echo under load.
 *
 * @example Wire it into the run loop
 * ```ts ignore
 * import { RecordRun } from "./loop.ts";
 * import { websocketKind } from "./websocket.ts";
 * const record = new RecordRun(websocketKind, ctx, outcome);
 * ```
 */
export const websocketKind: Kind<WebSocketWorkload, WebSocketState, ServedRecordContext<WebSocketWorkload>> =
  servedKind({
    name: "websocket",
    headline: headlineOf,
    open,
    run: runOnce,
    // The same rule as HTTP's: the driver at its limit in at least half of the runs.
    client: () => "the WebSocket driver",
    remedy: WS_REMEDY,
    clientCost: ["clientCpuUsPerMessage", "messages"],
  });
