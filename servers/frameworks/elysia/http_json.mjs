// http-json on Elysia: on Bun natively, on Node.js through @elysiajs/node, on Deno through Deno.serve(app.fetch).
import { Elysia } from "elysia";

const adapter = globalThis.Bun || globalThis.Deno ? {} : { adapter: (await import("@elysiajs/node")).node() };

// Elysia's JSON is Response.json on Bun ("application/json;charset=utf-8") and "application/json" elsewhere: one
// content-type for the variant on every runtime, so that the runtimes answer alike.
const app = new Elysia(adapter)
  .onAfterHandle(({ set }) => {
    set.headers["content-type"] = "application/json";
  })
  .get("/", () => ({ message: "Hello, World!" }));

const port = Number(process.env.PORT ?? 3000);
const hostname = process.env.HOST ?? "127.0.0.1";
if (globalThis.Deno && !globalThis.Bun) Deno.serve({ port, hostname, onListen() {} }, app.fetch);
else app.listen({ port, hostname });
