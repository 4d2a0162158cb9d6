/**
 * `ws`: a WebSocket echo server. Every socket keeps a fixed number of binary
 * messages in flight and every echo must come back byte for byte. Measures
 * the runtime's WebSocket stack: framing, masking, and the event loop.
 *
 * @module
 */

import { serverFile } from "../adapters/mod.ts";
import type { ServerSource, Skip, WebSocketWorkload } from "./types.ts";

/**
 * The WebSocket echo workload: the `ws` package on Node, `Deno.upgradeWebSocket`
 * on Deno and `Bun.serve`'s websocket handler on Bun, each sending every
 * message back unchanged.
 *
 * @example Read the default message size
 * ```ts
 * import { wsEcho } from "./ws_echo.ts";
 * const ctx = { variant: "default", options: {}, settings: {} as never, tempDir: "", signal: new AbortController().signal };
 * console.log(wsEcho.traffic(ctx).messageSize); // 64
 * ```
 */
export const wsEcho: WebSocketWorkload = {
  name: "ws",
  description: "WebSocket echo: binary messages sent back unchanged, verified byte for byte",
  kind: "websocket",
  variants: [{ name: "default", description: "the runtime's idiomatic WebSocket server" }],
  options: [
    {
      name: "message-size",
      description: "bytes per WebSocket message (64, 1024 and 16384 are common)",
      type: "number",
      default: 64,
      min: 8,
      max: 1_048_576,
      integer: true,
    },
    {
      name: "in-flight",
      description: "WebSocket messages in flight per socket",
      type: "number",
      default: 1,
      min: 1,
      max: 1000,
      integer: true,
    },
    {
      name: "messages",
      description: "end each measured run after this many verified WebSocket echoes instead of after --duration",
      type: "number",
      min: 1,
      integer: true,
    },
  ],
  dependencies: { ws: "8.23.0" },
  // After each run, a window at 20,000 messages/s (every runtime holds it) counts the server's CPU time per echo.
  defaults: { cpuRate: 20_000, idleConnections: 1000 },
  server(runtime: string): ServerSource | Skip {
    const entry = serverFile(runtime, "ws_echo");
    return entry ? { entry } : { skip: `no ws server for ${runtime}` };
  },
  traffic(ctx) {
    const messages = ctx.options["messages"];
    return {
      path: "/",
      messageSize: Number(ctx.options["message-size"] ?? 64),
      inFlight: Number(ctx.options["in-flight"] ?? 1),
      ...(messages === undefined ? {} : { messages: Number(messages) }),
    };
  },
};
