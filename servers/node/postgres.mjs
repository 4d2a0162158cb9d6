// postgres on Node.js: node:http, the data from the layer staged beside it (world_db.mjs: postgres.js, or Prisma
// for the -prisma variants). Same bytes as the deno and bun servers.
// GET /db: one random row of world; GET /queries?n=: n random rows, one query each, n clamped to 1..500;
// GET /users: 002's `SELECT * FROM users LIMIT 1000` (the layers of the -native variants are each runtime's driver).
import { createServer } from "node:http";
import * as db from "./world_db.mjs";

const randomId = () => 1 + Math.floor(Math.random() * 10000);

function count(value) {
  const n = Number.parseInt(value ?? "", 10);
  return Number.isNaN(n) ? 1 : Math.min(500, Math.max(1, n));
}

function send(res, status, type, text) {
  const body = Buffer.from(text);
  res.writeHead(status, { "content-type": type, "content-length": body.length });
  res.end(body);
}

createServer(async (req, res) => {
  const url = new URL(req.url, "http://localhost");
  try {
    if (url.pathname === "/db") {
      send(res, 200, "application/json", JSON.stringify(await db.world(randomId())));
    } else if (url.pathname === "/users" && db.users) {
      send(res, 200, "application/json", JSON.stringify(await db.users()));
    } else if (url.pathname === "/queries") {
      const ids = Array.from({ length: count(url.searchParams.get("n")) }, randomId);
      send(res, 200, "application/json", JSON.stringify(await Promise.all(ids.map(db.world))));
    } else {
      send(res, 404, "text/plain", "Not Found");
    }
  } catch (error) {
    console.error(error);
    send(res, 500, "text/plain", "Internal Server Error");
  }
}).listen(Number(process.env.PORT ?? 3000), process.env.HOST ?? "127.0.0.1");
