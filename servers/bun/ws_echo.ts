// ws on Bun: Bun.serve with its websocket handler. Echoes every message unchanged, text as text, binary as binary.
Bun.serve({
  hostname: process.env.HOST ?? "127.0.0.1",
  // rtbench --server-cpus starts one process per CPU, all on this port; the kernel spreads connections.
  reusePort: process.env.RTBENCH_REUSE_PORT === "1",
  port: Number(process.env.PORT ?? 3000),
  fetch(request, server) {
    if (server.upgrade(request)) return undefined;
    return new Response("Upgrade Required", { status: 426, headers: { "content-type": "text/plain" } });
  },
  websocket: {
    // A string arrives for a text message and a Buffer for a binary one; send() keeps the type.
    message(socket, message) {
      socket.send(message);
    },
  },
});
