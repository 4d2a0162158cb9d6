// postgres on Deno: Deno.serve, the data from the layer staged beside it (world_db.mjs: postgres.js, or Prisma
// for the -prisma variants). Same bytes as the node and bun servers.
// GET /db: one random row of world; GET /queries?n=: n random rows, one query each, n clamped to 1..500;
// GET /users: 002's `SELECT * FROM users LIMIT 1000` (the layers of the -native variants are each runtime's driver).
import * as db from "./world_db.mjs";

const json = { "content-type": "application/json" };
const randomId = () => 1 + Math.floor(Math.random() * 10000);

function count(value: string | null): number {
  const n = Number.parseInt(value ?? "", 10);
  return Number.isNaN(n) ? 1 : Math.min(500, Math.max(1, n));
}

async function fetch(req: Request): Promise<Response> {
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
}

// rtbench --server-cpus runs `deno serve --parallel`, which serves the default export on every worker.
export default { fetch } satisfies Deno.ServeDefaultExport;
if (!Deno.env.get("RTBENCH_DENO_SERVE")) {
  Deno.serve({
    hostname: Deno.env.get("HOST") ?? "127.0.0.1",
    port: Number(Deno.env.get("PORT") ?? 3000),
    onListen() {},
  }, fetch);
}
