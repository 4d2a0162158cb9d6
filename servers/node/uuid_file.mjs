// uuid-file on Node.js: node:http with node:fs/promises writeFile, readFile and unlink.
// Same bytes as the deno and bun servers.
import { randomUUID } from "node:crypto";
import { readFile, unlink, writeFile } from "node:fs/promises";
import { createServer } from "node:http";
import { join } from "node:path";

const dir = process.env.RTBENCH_DATA_DIR;
if (!dir) throw new Error("Cannot start server: RTBENCH_DATA_DIR is not set");

const server = createServer(async (req, res) => {
  try {
    const query = new URL(req.url, "http://localhost").searchParams;
    const record = { q1: query.get("q1"), q2: query.get("q2"), q3: query.get("q3"), q4: query.get("q4") };
    const file = join(dir, `${randomUUID()}.json`);
    await writeFile(file, JSON.stringify(record));
    const body = await readFile(file);
    await unlink(file);
    res.writeHead(200, { "content-type": "application/json", "content-length": body.length });
    res.end(body);
  } catch {
    res.writeHead(500, { "content-type": "text/plain" });
    res.end("Internal Server Error");
  }
}).listen(Number(process.env.PORT ?? 3000), process.env.HOST ?? "127.0.0.1");

// On stop, finish the requests in flight so that none leaves its file behind;
// the process exits once they are done.
process.on("SIGTERM", () => server.close());
