// http-json on Deno: Deno.serve. Same bytes as the node and bun servers.
const body = JSON.stringify({ message: "Hello, World!" });
const headers = { "content-type": "application/json" };

Deno.serve({
  hostname: Deno.env.get("HOST") ?? "127.0.0.1",
  port: Number(Deno.env.get("PORT") ?? 3000),
  onListen() {},
}, () => new Response(body, { headers }));
