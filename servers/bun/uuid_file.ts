// uuid-file on Bun: Bun.serve with Bun.write, Bun.file().text() and BunFile.delete(). With the argument
// `url-parse`, the query is read with url.parse + querystring.parse, as the article this workload comes from did.
// Same bytes as the deno and node servers.
import { unlinkSync } from "node:fs";
import { parse as parseQueryString } from "node:querystring";
import { parse as parseUrl } from "node:url";

type Query = Record<"q1" | "q2" | "q3" | "q4", string | null>;

const dir = process.env.RTBENCH_DATA_DIR;
if (!dir) throw new Error("Cannot start server: RTBENCH_DATA_DIR is not set");
const headers = { "content-type": "application/json" };
// A missing key is null either way, as the other runtimes write it.
const queryOf: (url: string) => Query = Bun.argv[2] === "url-parse"
  ? (url) => {
    const q = parseQueryString(parseUrl(url).query ?? "") as Record<string, string | undefined>;
    return { q1: q.q1 ?? null, q2: q.q2 ?? null, q3: q.q3 ?? null, q4: q.q4 ?? null };
  }
  : (url) => {
    const q = new URL(url).searchParams;
    return { q1: q.get("q1"), q2: q.get("q2"), q3: q.get("q3"), q4: q.get("q4") };
  };
// Handlers between their first and last await, and the files that may exist: what a stop must finish or undo.
let running = 0;
const undeleted = new Set<string>();

const server = Bun.serve({
  hostname: process.env.HOST ?? "127.0.0.1",
  // rtbench --server-cpus starts one process per CPU, all on this port; the kernel spreads connections.
  reusePort: process.env.RTBENCH_REUSE_PORT === "1",
  port: Number(process.env.PORT ?? 3000),
  async fetch(request) {
    running++;
    const record = queryOf(request.url);
    const path = `${dir}/${crypto.randomUUID()}.json`;
    undeleted.add(path);
    try {
      const file = Bun.file(path);
      await Bun.write(file, JSON.stringify(record));
      const body = await file.text();
      await file.delete();
      undeleted.delete(path);
      return new Response(body, { headers });
    } finally {
      running--;
    }
  },
  error: () => new Response("Internal Server Error", { status: 500, headers: { "content-type": "text/plain" } }),
});

// On stop, finish the requests in flight so that none leaves its file behind. Bun's stop() resolves while handlers
// are still between write and delete (exiting then left dozens of files under load), and it still runs requests
// already read from open connections: so wait until no handler is mid-way, and exit in that same turn, before
// another starts. Past the deadline (rtbench kills after 5 s), remove what is left rather than leave it.
process.on("SIGTERM", async () => {
  void server.stop();
  const deadline = performance.now() + 3000;
  while (running > 0 && performance.now() < deadline) await Bun.sleep(2);
  for (const path of undeleted) {
    try {
      unlinkSync(path);
    } catch {
      // Never written (the write failed), or gone already.
    }
  }
  process.exit(0);
});
