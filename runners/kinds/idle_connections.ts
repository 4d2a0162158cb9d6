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

import { runCommand } from "../platform/mod.ts";
import { exchangeOnConnection } from "../drivers/mod.ts";
import type { HttpRequestSpec } from "../../workloads/mod.ts";
import type { Warning } from "../schema/mod.ts";
import type { ServedRecordContext } from "./record.ts";
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
    // Through process.ts like every child (its own environment); a reading, not a process of the record.
    const out = await runCommand(["ps", "-s", String(session), "-o", "rss="], { timeoutMs: 10_000, listed: false });
    const kib = out.stdout.split("\n").map((l) => Number(l.trim())).filter((n) => n > 0);
    return kib.length === 0 ? null : kib.reduce((a, b) => a + b, 0) * 1024;
  } catch {
    return null;
  }
}

/** Connections held open, how many are open, the exchanges they made, and why not all opened. */
interface Held {
  close(): void;
  readonly open: number;
  readonly exchanges: number;
  readonly failed: string | null;
}

/** Opens `n` in batches with `one`; stops (closing every one) when `stop` aborts. */
async function hold<T>(
  n: number,
  stop: AbortSignal,
  one: (opened: T[]) => Promise<void>,
  closeOne: (item: T) => void,
): Promise<{ items: T[]; failed: string | null; close(): void }> {
  const items: T[] = [];
  const close = () =>
    items.forEach((item) => {
      try {
        closeOne(item);
      } catch {
        // already closed
      }
    });
  // Stopped (interrupted, or out of time): closing what is open ends every read still waiting.
  stop.addEventListener("abort", close, { once: true });
  let failed: string | null = null;
  for (let start = 0; start < n && failed === null && !stop.aborted; start += BATCH) {
    const batch = await Promise.allSettled(Array.from({ length: Math.min(BATCH, n - start) }, () => one(items)));
    const rejected = batch.find((r) => r.status === "rejected") as PromiseRejectedResult | undefined;
    if (rejected) failed = stop.aborted ? "not all open in time" : (rejected.reason as Error).message;
  }
  stop.removeEventListener("abort", close);
  return { items, failed: failed ?? (stop.aborted ? "not all open in time" : null), close };
}

/** Opens `n` keep-alive connections, each after one exchange of `request` whose response is checked as under load. */
async function openHttp(server: RunningServer, request: HttpRequestSpec, n: number, stop: AbortSignal): Promise<Held> {
  const url = new URL(server.baseUrl);
  let exchanges = 0;
  const held = await hold<Deno.Conn>(n, stop, async (items) => {
    const conn = await Deno.connect({ hostname: url.hostname.replace(/^\[|\]$/g, ""), port: server.port });
    items.push(conn);
    const exchange = await exchangeOnConnection(conn, url.host, request);
    if (exchange.answered) exchanges++;
    if (exchange.problem !== null) throw new Error(exchange.problem);
  }, (conn) => conn.close());
  return { close: held.close, open: held.failed === null ? held.items.length : 0, exchanges, failed: held.failed };
}

/** Opens `n` WebSockets to `url`, each handshaken. */
async function openWebSockets(url: string, n: number, stop: AbortSignal): Promise<Held> {
  const held = await hold<WebSocket>(n, stop, (items) =>
    new Promise<void>((resolve, reject) => {
      const socket = new WebSocket(url);
      items.push(socket);
      socket.onopen = () => resolve();
      socket.onerror = () => reject(new Error("the handshake failed"));
      socket.onclose = () => reject(new Error("closed before its handshake"));
    }), (socket) => socket.close(1000));
  return { close: held.close, open: held.failed === null ? held.items.length : 0, exchanges: 0, failed: held.failed };
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
  ctx: ServedRecordContext,
  server: RunningServer,
  run: number,
  how: { readonly http: HttpRequestSpec } | { readonly websocket: string },
): Promise<IdleMemory | null> {
  const n = ctx.settings.idleConnections;
  if (!n || server.remote || run > 0) return null;
  const settle = () => new Promise((r) => setTimeout(r, SETTLE_MS));
  await settle();
  const idle = await treeRssBytes(server.group.pid);
  // All of them within --timeout, and not a moment past an interruption.
  const stop = AbortSignal.any([ctx.signal, AbortSignal.timeout(ctx.settings.requestTimeoutSec * 1000)]);
  const opened = "http" in how
    ? await openHttp(server, how.http, n, stop)
    : await openWebSockets(how.websocket, n, stop);
  try {
    ctx.signal.throwIfAborted();
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
