// uuid-file on Node.js: node:http with node:fs/promises writeFile, readFile and unlink. With the argument
// `url-parse`, the query is read with url.parse + querystring.parse, as the article this workload comes from did.
// Same bytes as the deno and bun servers.
import { randomUUID } from "node:crypto";
import { parse as parseQueryString } from "node:querystring";
import { parse as parseUrl } from "node:url";
import { readFile, unlink, writeFile } from "node:fs/promises";
import { createServer } from "node:http";
import { join } from "node:path";

const dir = process.env.RTBENCH_DATA_DIR;
if (!dir) throw new Error("Cannot start server: RTBENCH_DATA_DIR is not set");

// A missing key is null either way, as the other runtimes write it.
const queryOf = process.argv[2] === "url-parse"
  ? (url) => {
    const q = parseQueryString(parseUrl(url).query ?? "");
    return { q1: q.q1 ?? null, q2: q.q2 ?? null, q3: q.q3 ?? null, q4: q.q4 ?? null };
  }
  : (url) => {
    const q = new URL(url, "http://localhost").searchParams;
    return { q1: q.get("q1"), q2: q.get("q2"), q3: q.get("q3"), q4: q.get("q4") };
  };

const server = createServer(async (req, res) => {
  try {
    const record = queryOf(req.url);
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
