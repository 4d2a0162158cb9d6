// uuid-file on Bun: Bun.serve with Bun.write, Bun.file().text() and BunFile.delete().
// Same bytes as the deno and node servers.
const dir = process.env.RTBENCH_DATA_DIR;
if (!dir) throw new Error("Cannot start server: RTBENCH_DATA_DIR is not set");
const headers = { "content-type": "application/json" };

const server = Bun.serve({
  hostname: process.env.HOST ?? "127.0.0.1",
  // rtbench --server-cpus starts one process per CPU, all on this port; the kernel spreads connections.
  reusePort: process.env.RTBENCH_REUSE_PORT === "1",
  port: Number(process.env.PORT ?? 3000),
  async fetch(request) {
    const query = new URL(request.url).searchParams;
    const record = { q1: query.get("q1"), q2: query.get("q2"), q3: query.get("q3"), q4: query.get("q4") };
    const file = Bun.file(`${dir}/${crypto.randomUUID()}.json`);
    await Bun.write(file, JSON.stringify(record));
    const body = await file.text();
    await file.delete();
    return new Response(body, { headers });
  },
  error: () => new Response("Internal Server Error", { status: 500, headers: { "content-type": "text/plain" } }),
});

// On stop, finish the requests in flight so that none leaves its file behind.
process.on("SIGTERM", () => server.stop().then(() => process.exit(0)));
