// bcrypt on Node.js: node:http. Variant `bcryptjs` (the first argument) hashes
// with the pure-JS bcryptjs on the main thread; `native` uses the bcrypt npm
// addon, which hashes on the libuv thread pool.
// Same bytes as the deno and bun servers.
import { createServer } from "node:http";
import bcryptjs from "bcryptjs";

const variant = process.argv[2] ?? "bcryptjs";
const cost = Number(process.env.RTBENCH_BCRYPT_COST ?? 10);
if (!Number.isInteger(cost) || cost < 4 || cost > 31) {
  throw new RangeError(`Cannot start server: RTBENCH_BCRYPT_COST must be a whole number from 4 to 31, got ${cost}`);
}

let bcrypt = bcryptjs;
if (variant === "native") {
  try {
    bcrypt = (await import("bcrypt")).default;
  } catch (error) {
    const why = String(error?.message ?? error).split("\n")[0];
    console.error(`rtbench: skip: the bcrypt addon does not load on Node.js ${process.versions.node}: ${why}`);
    process.exit(3);
  }
}

function send(res, status, type, body) {
  const bytes = Buffer.from(body);
  res.writeHead(status, { "content-type": type, "content-length": bytes.length });
  res.end(bytes);
}

const server = createServer(async (req, res) => {
  try {
    const path = new URL(req.url, "http://localhost").pathname;
    if (req.method !== "POST" || (path !== "/hash" && path !== "/verify")) {
      return send(res, 404, "text/plain", "Not Found");
    }
    const chunks = [];
    for await (const chunk of req) chunks.push(chunk);
    let input = null;
    try {
      input = JSON.parse(Buffer.concat(chunks).toString("utf8"));
    } catch { /* answered below */ }
    if (typeof input?.password !== "string" || (path === "/verify" && typeof input.hash !== "string")) {
      return send(res, 400, "text/plain", "Bad Request");
    }
    const body = path === "/hash"
      ? { hash: await bcrypt.hash(input.password, cost) }
      : { valid: await bcrypt.compare(input.password, input.hash) };
    send(res, 200, "application/json", JSON.stringify(body));
  } catch {
    send(res, 500, "text/plain", "Internal Server Error");
  }
});
// bcryptjs hashes in 100 ms slices on the main thread: at 100 connections one turn of the event loop takes seconds.
// Node's keep-alive timer (5 s by default) then fires in the turn's timers phase before its poll phase reads the next
// request the client sent right after an answer, and the server closes a connection carrying a request it never read.
// Held above any request timeout, the connection stays open while its request waits its turn.
server.keepAliveTimeout = 10 * 60_000;
server.listen(Number(process.env.PORT ?? 3000), process.env.HOST ?? "127.0.0.1");
