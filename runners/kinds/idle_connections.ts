/**
 * Memory per connection (`--idle-connections`): after the first run's load of each record (memory per connection
 * varies little from run to run; a window per run would cost the suite its time), with the server idle, its process
 * tree's resident
 * memory; then with N connections open and idle (HTTP: each has had one keep-alive exchange, every response checked;
 * WebSocket: each handshaken); the difference over N is the server's memory per connection. Read with `ps` (Deno
 * may not read `/proc`), after the server has had a moment to settle each time.
 *
 * @module
 */

import type { HttpRequestSpec } from "../../workloads/types.ts";
import type { Warning } from "../schema/result.ts";
import type { RecordContext } from "./record.ts";
import type { RunningServer } from "./server.ts";

/** Milliseconds the server is left to settle before its memory is read. */
const SETTLE_MS = 200;

/** Connections opened at a time: enough to be quick, few enough not to look like a flood to any server. */
const BATCH = 100;

/** What the idle connections measured, and how many of them the server answered. */
export interface IdleMemory {
  /** `serverRssIdleBytes`, `serverRssPerConnectionBytes` and `idleConnections` (how many were open). */
  readonly figures: Record<string, number>;
  /** HTTP exchanges the connections made (the server's work, for the run's accounting). */
  readonly exchanges: number;
  /** Why fewer than asked were open, when so. */
  readonly warning: Warning | null;
}

/**
 * Resident memory of a process tree rtbench started (its session), in bytes; null when `ps` cannot say.
 *
 * @example
 * ```ts ignore
 * import { treeRssBytes } from "./idle_connections.ts";
 * console.log(await treeRssBytes(server.group.pid));
 * ```
 */
export async function treeRssBytes(session: number): Promise<number | null> {
  try {
    const out = await new Deno.Command("ps", {
      args: ["-s", String(session), "-o", "rss="],
      stdout: "piped",
      stderr: "null",
    }).output();
    const kib = new TextDecoder().decode(out.stdout).split("\n").map((l) => Number(l.trim())).filter((n) => n > 0);
    return kib.length === 0 ? null : kib.reduce((a, b) => a + b, 0) * 1024;
  } catch {
    return null;
  }
}

/** One HTTP/1.1 keep-alive request as bytes. */
function requestBytes(request: HttpRequestSpec, host: string): Uint8Array {
  const body = request.body ?? "";
  const headers = Object.entries(request.headers ?? {}).map(([k, v]) => `${k}: ${v}\r\n`).join("");
  const length = body === "" ? "" : `content-length: ${new TextEncoder().encode(body).length}\r\n`;
  return new TextEncoder().encode(
    `${request.method ?? "GET"} ${request.path} HTTP/1.1\r\nhost: ${host}\r\n${headers}${length}\r\n${body}`,
  );
}

/** Reads one response off `conn`: its status line, and as many body bytes as its content-length says. */
async function readResponse(conn: Deno.Conn, timeoutMs: number): Promise<number> {
  const buffer = new Uint8Array(64 * 1024);
  let text = "";
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const n = await conn.read(buffer);
    if (n === null) break;
    text += new TextDecoder().decode(buffer.subarray(0, n));
    const end = text.indexOf("\r\n\r\n");
    if (end === -1) continue;
    const length = Number(/\r\ncontent-length:\s*(\d+)/i.exec(text.slice(0, end))?.[1] ?? 0);
    if (new TextEncoder().encode(text.slice(end + 4)).length >= length) break;
  }
  return Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1] ?? 0);
}

/** Opens `n` keep-alive connections, each after one exchange of `request`; the open ones and the exchanges. */
async function openHttp(
  server: RunningServer,
  request: HttpRequestSpec,
  n: number,
  timeoutMs: number,
): Promise<{ close(): void; open: number; exchanges: number; failed: string | null }> {
  const url = new URL(server.baseUrl);
  const conns: Deno.Conn[] = [];
  let exchanges = 0;
  let failed: string | null = null;
  const bytes = requestBytes(request, url.host);
  for (let start = 0; start < n && failed === null; start += BATCH) {
    const batch = await Promise.allSettled(
      Array.from({ length: Math.min(BATCH, n - start) }, async () => {
        const conn = await Deno.connect({ hostname: url.hostname.replace(/^\[|\]$/g, ""), port: server.port });
        conns.push(conn);
        await conn.write(bytes);
        const status = await readResponse(conn, timeoutMs);
        if (status > 0) exchanges++;
        if (status !== request.expect.status) throw new Error(`status ${status}, expected ${request.expect.status}`);
      }),
    );
    const rejected = batch.find((r) => r.status === "rejected") as PromiseRejectedResult | undefined;
    if (rejected) failed = (rejected.reason as Error).message;
  }
  return {
    close: () => conns.forEach((c) => c.close()),
    open: failed === null ? conns.length : 0,
    exchanges,
    failed,
  };
}

/** Opens `n` WebSockets to `url`, each handshaken; the open ones. */
async function openWebSockets(
  url: string,
  n: number,
  timeoutMs: number,
): Promise<{ close(): void; open: number; exchanges: number; failed: string | null }> {
  const sockets: WebSocket[] = [];
  let failed: string | null = null;
  for (let start = 0; start < n && failed === null; start += BATCH) {
    const batch = await Promise.allSettled(
      Array.from({ length: Math.min(BATCH, n - start) }, () =>
        new Promise<void>((resolve, reject) => {
          const socket = new WebSocket(url);
          sockets.push(socket);
          const timer = setTimeout(() => reject(new Error("no handshake in time")), timeoutMs);
          socket.onopen = () => {
            clearTimeout(timer);
            resolve();
          };
          socket.onerror = () => {
            clearTimeout(timer);
            reject(new Error("the handshake failed"));
          };
        })),
    );
    const rejected = batch.find((r) => r.status === "rejected") as PromiseRejectedResult | undefined;
    if (rejected) failed = (rejected.reason as Error).message;
  }
  return {
    close: () => sockets.forEach((s) => s.close(1000)),
    open: failed === null ? sockets.length : 0,
    exchanges: 0,
    failed,
  };
}

/**
 * The server's memory per idle connection after a record's first run (see the module documentation), or null for
 * a later run, without `--idle-connections` or for a server on another machine.
 *
 * @param ctx The record.
 * @param server The run's server, idle after its load.
 * @param run The run, from 0.
 * @param how HTTP with the request each connection makes once, or WebSocket with the URL to open.
 * @returns The figures, the exchanges made, and a warning when the connections could not all be opened.
 *
 * @example
 * ```ts ignore
 * import { idleMemory } from "./idle_connections.ts";
 * const memory = await idleMemory(ctx, server, run, { http: traffic.requests[0] });
 * ```
 */
export async function idleMemory(
  ctx: RecordContext,
  server: RunningServer,
  run: number,
  how: { readonly http: HttpRequestSpec } | { readonly websocket: string },
): Promise<IdleMemory | null> {
  const n = ctx.settings.idleConnections;
  if (!n || server.remote || run > 0) return null;
  const settle = () => new Promise((r) => setTimeout(r, SETTLE_MS));
  const timeoutMs = ctx.settings.requestTimeoutSec * 1000;
  await settle();
  const idle = await treeRssBytes(server.group.pid);
  const opened = "http" in how
    ? await openHttp(server, how.http, n, timeoutMs)
    : await openWebSockets(how.websocket, n, timeoutMs);
  try {
    await settle();
    const loaded = await treeRssBytes(server.group.pid);
    if (opened.failed !== null || idle === null || loaded === null) {
      return {
        figures: idle === null ? {} : { serverRssIdleBytes: idle },
        exchanges: opened.exchanges,
        warning: {
          code: "idle-connections-failed",
          message: `${n} idle connections could not all be opened (${
            opened.failed ?? "the server's memory could not be read"
          }): no memory per connection`,
        },
      };
    }
    return {
      figures: {
        serverRssIdleBytes: idle,
        serverRssPerConnectionBytes: Math.round((loaded - idle) / opened.open),
        idleConnections: opened.open,
      },
      exchanges: opened.exchanges,
      warning: null,
    };
  } finally {
    opened.close();
  }
}
