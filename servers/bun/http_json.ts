// http-json on Bun: Bun.serve. Same bytes as the deno and node servers.
const body = JSON.stringify({ message: "Hello, World!" });
const headers = { "content-type": "application/json" };

Bun.serve({
  hostname: process.env.HOST ?? "127.0.0.1",
  // rtbench --server-cpus starts one process per CPU, all on this port; the kernel spreads connections.
  reusePort: process.env.RTBENCH_REUSE_PORT === "1",
  port: Number(process.env.PORT ?? 3000),
  fetch: () => new Response(body, { headers }),
});
