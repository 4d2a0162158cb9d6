// uuid-file on Deno: Deno.serve with Deno.writeTextFile, readTextFile and remove.
// Same bytes as the node and bun servers.
const dir = Deno.env.get("RTBENCH_DATA_DIR");
if (!dir) throw new Error("Cannot start server: RTBENCH_DATA_DIR is not set");
const headers = { "content-type": "application/json" };

async function roundTrip(request: Request): Promise<Response> {
  const query = new URL(request.url).searchParams;
  const record = { q1: query.get("q1"), q2: query.get("q2"), q3: query.get("q3"), q4: query.get("q4") };
  const file = `${dir}/${crypto.randomUUID()}.json`;
  await Deno.writeTextFile(file, JSON.stringify(record));
  const body = await Deno.readTextFile(file);
  await Deno.remove(file);
  return new Response(body, { headers });
}

function fetch(request: Request): Promise<Response> {
  return roundTrip(request).catch(() =>
    new Response("Internal Server Error", { status: 500, headers: { "content-type": "text/plain" } })
  );
}

// rtbench --server-cpus runs `deno serve --parallel`, which serves the default export on every worker.
export default { fetch } satisfies Deno.ServeDefaultExport;
if (!Deno.env.get("RTBENCH_DENO_SERVE")) {
  const server = Deno.serve({
    hostname: Deno.env.get("HOST") ?? "127.0.0.1",
    port: Number(Deno.env.get("PORT") ?? 3000),
    onListen() {},
  }, fetch);
  // On stop, finish the requests in flight so that none leaves its file behind.
  Deno.addSignalListener("SIGTERM", () => server.shutdown().then(() => Deno.exit(0)));
}
