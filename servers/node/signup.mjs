// signup on Node.js: node:http. POST /signup {email, password}: the password hashed with bcryptjs (variant `hash`,
// on the main thread; `worker-pool`, in node:worker_threads workers; `no-hash`, not at all: 003's control), the
// account inserted into PostgreSQL, answered 201 {"id","email"}. Same bytes as the deno and bun servers.
import { createServer } from "node:http";
import bcryptjs from "bcryptjs";
import { insertAccount, INVALID, validSignup } from "./signup_db.mjs";
import { hashPool } from "./hash_pool.mjs";

const variant = process.argv[2] ?? "hash";
const cost = Number(process.env.RTBENCH_BCRYPT_COST ?? 10);
const hash = variant === "no-hash"
  ? () => null
  : variant === "worker-pool"
  ? await hashPool(Number(process.env.SIGNUP_WORKERS ?? 4), cost)
  : (password) => bcryptjs.hash(password, cost);

function send(res, status, text) {
  const body = Buffer.from(text);
  res.writeHead(status, { "content-type": "application/json", "content-length": body.length });
  res.end(body);
}

const server = createServer(async (req, res) => {
  try {
    if (req.method !== "POST" || req.url !== "/signup") return send(res, 404, '{"error":"not found"}');
    const chunks = [];
    for await (const chunk of req) chunks.push(chunk);
    let body = null;
    try {
      body = JSON.parse(Buffer.concat(chunks).toString("utf8"));
    } catch { /* answered below */ }
    const signup = validSignup(body);
    if (!signup) return send(res, 400, JSON.stringify(INVALID));
    const id = await insertAccount(signup.email, await hash(signup.password));
    send(res, 201, JSON.stringify({ id, email: signup.email }));
  } catch (error) {
    console.error(error);
    send(res, 500, '{"error":"internal"}');
  }
});
// As in bcrypt.mjs: hashing on the main thread makes an event-loop turn last seconds at 100 connections, and Node's
// 5 s keep-alive timer would close connections whose next request is sent but not yet read.
server.keepAliveTimeout = 10 * 60_000;
server.listen(Number(process.env.PORT ?? 3000), process.env.HOST ?? "127.0.0.1");
