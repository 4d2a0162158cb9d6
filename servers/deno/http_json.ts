// http-json on Deno: Deno.serve. Same bytes as the node and bun servers.
const body = JSON.stringify({ message: "Hello, World!" });
const headers = { "content-type": "application/json" };

const fetch = () => new Response(body, { headers });

// rtbench --server-cpus runs `deno serve --parallel`, which serves the default export on every worker.
export default { fetch } satisfies Deno.ServeDefaultExport;
if (!Deno.env.get("RTBENCH_DENO_SERVE")) {
  Deno.serve({
    hostname: Deno.env.get("HOST") ?? "127.0.0.1",
    port: Number(Deno.env.get("PORT") ?? 3000),
    onListen() {},
  }, fetch);
}
