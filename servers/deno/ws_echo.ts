// ws on Deno: Deno.serve with Deno.upgradeWebSocket. Echoes every message unchanged, text as text, binary as binary.
function fetch(request: Request): Response {
  if (request.headers.get("upgrade")?.toLowerCase() !== "websocket") {
    return new Response("Upgrade Required", { status: 426, headers: { "content-type": "text/plain" } });
  }
  const { socket, response } = Deno.upgradeWebSocket(request);
  // The spec's default is Blob, whose bytes can only be read asynchronously.
  socket.binaryType = "arraybuffer";
  socket.onmessage = (event) => socket.send(event.data);
  return response;
}

// rtbench --server-cpus runs `deno serve --parallel`, which serves the default export on every worker.
export default { fetch } satisfies Deno.ServeDefaultExport;
if (!Deno.env.get("RTBENCH_DENO_SERVE")) {
  Deno.serve({
    hostname: Deno.env.get("HOST") ?? "127.0.0.1",
    port: Number(Deno.env.get("PORT") ?? 3000),
    onListen() {},
  }, fetch);
}
