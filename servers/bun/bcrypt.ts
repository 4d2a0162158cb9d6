// bcrypt on Bun: Bun.serve. Variant `bcryptjs` (the first argument) hashes with
// the pure-JS bcryptjs on the main thread; `native` uses Bun.password with the
// bcrypt algorithm, which hashes on Bun's thread pool.
// Same bytes as the deno and node servers.
import bcryptjs from "bcryptjs";

const variant = Bun.argv[2] ?? "bcryptjs";
const cost = Number(process.env.RTBENCH_BCRYPT_COST ?? 10);
if (!Number.isInteger(cost) || cost < 4 || cost > 31) {
  throw new RangeError(`Cannot start server: RTBENCH_BCRYPT_COST must be a whole number from 4 to 31, got ${cost}`);
}

const bcrypt = variant === "native"
  ? {
    hash: (password: string) => Bun.password.hash(password, { algorithm: "bcrypt", cost }),
    compare: (password: string, hash: string) => Bun.password.verify(password, hash, "bcrypt"),
  }
  : { hash: (password: string) => bcryptjs.hash(password, cost), compare: bcryptjs.compare };

const json = { "content-type": "application/json" };
const text = { "content-type": "text/plain" };

Bun.serve({
  hostname: process.env.HOST ?? "127.0.0.1",
  // rtbench --server-cpus starts one process per CPU, all on this port; the kernel spreads connections.
  reusePort: process.env.RTBENCH_REUSE_PORT === "1",
  port: Number(process.env.PORT ?? 3000),
  async fetch(request) {
    const path = new URL(request.url).pathname;
    if (request.method !== "POST" || (path !== "/hash" && path !== "/verify")) {
      return new Response("Not Found", { status: 404, headers: text });
    }
    const input = await request.json().catch(() => null);
    if (typeof input?.password !== "string" || (path === "/verify" && typeof input.hash !== "string")) {
      return new Response("Bad Request", { status: 400, headers: text });
    }
    const body = path === "/hash"
      ? { hash: await bcrypt.hash(input.password) }
      : { valid: await bcrypt.compare(input.password, input.hash) };
    return new Response(JSON.stringify(body), { headers: json });
  },
  error: () => new Response("Internal Server Error", { status: 500, headers: text }),
});
