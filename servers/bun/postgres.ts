// postgres on Bun: Bun.serve, the data from the layer staged beside it (world_db.mjs: postgres.js, or Prisma
// for the -prisma variants). Same bytes as the deno and node servers.
// GET /db: one random row of world; GET /queries?n=: n random rows, one query each, n clamped to 1..500;
// GET /users: 002's `SELECT * FROM users LIMIT 1000` (the layers of the -native variants are each runtime's driver).
import * as db from "./world_db.mjs";

const json = { "content-type": "application/json" };
const randomId = () => 1 + Math.floor(Math.random() * 10000);

function count(value: string | null): number {
  const n = Number.parseInt(value ?? "", 10);
  return Number.isNaN(n) ? 1 : Math.min(500, Math.max(1, n));
}

Bun.serve({
  hostname: process.env.HOST ?? "127.0.0.1",
  // rtbench --server-cpus starts one process per CPU, all on this port; the kernel spreads connections.
  reusePort: process.env.RTBENCH_REUSE_PORT === "1",
  port: Number(process.env.PORT ?? 3000),
  async fetch(req) {
    const url = new URL(req.url);
    try {
      if (url.pathname === "/db") {
        return new Response(JSON.stringify(await db.world(randomId())), { headers: json });
      }
      if (url.pathname === "/users" && db.users) {
        return new Response(JSON.stringify(await db.users()), { headers: json });
      }
      if (url.pathname === "/queries") {
        const ids = Array.from({ length: count(url.searchParams.get("n")) }, randomId);
        return new Response(JSON.stringify(await Promise.all(ids.map(db.world))), { headers: json });
      }
      return new Response("Not Found", { status: 404, headers: { "content-type": "text/plain" } });
    } catch (error) {
      console.error(error);
      return new Response("Internal Server Error", { status: 500, headers: { "content-type": "text/plain" } });
    }
  },
});
