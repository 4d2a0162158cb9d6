// http-json on Hono, the same app on every runtime: Deno.serve and Bun.serve take app.fetch, Node.js gets
// @hono/node-server, as Hono's guides for each runtime do.
import { Hono } from "hono";

const app = new Hono();
app.get("/", (c) => c.json({ message: "Hello, World!" }));

const port = Number(process.env.PORT ?? 3000);
const hostname = process.env.HOST ?? "127.0.0.1";
if (globalThis.Bun) {
  Bun.serve({ fetch: app.fetch, port, hostname });
} else if (globalThis.Deno) {
  Deno.serve({ port, hostname, onListen() {} }, app.fetch);
} else {
  const { serve } = await import("@hono/node-server");
  serve({ fetch: app.fetch, port, hostname });
}
