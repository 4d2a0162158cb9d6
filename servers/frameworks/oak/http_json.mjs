// http-json on Oak: ctx.response.body; the same file on every runtime (npm's Oak serves through node:http on
// Node.js and Deno, Bun.serve on Bun).
import { Application } from "@oakserver/oak";

const app = new Application();
app.use((ctx) => {
  // On node:http npm's Oak streams every body, chunked; sent whole with its content-length it frames the response
  // as on Bun and as every other server does.
  const text = JSON.stringify({ message: "Hello, World!" });
  ctx.response.body = text;
  ctx.response.type = "json";
  ctx.response.headers.set("content-length", String(new TextEncoder().encode(text).length));
});
await app.listen({ port: Number(process.env.PORT ?? 3000), hostname: process.env.HOST ?? "127.0.0.1" });
