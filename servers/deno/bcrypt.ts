// bcrypt on Deno: Deno.serve. Variant `bcryptjs` (the first argument) hashes with
// the pure-JS bcryptjs on the main thread; `native` loads the bcrypt npm addon
// through Deno's Node-API support, which hashes on a thread pool.
// Same bytes as the node and bun servers.
import bcryptjs from "bcryptjs";

interface Bcrypt {
  hash(password: string, cost: number): Promise<string>;
  compare(password: string, hash: string): Promise<boolean>;
}

const variant = Deno.args[0] ?? "bcryptjs";
const cost = Number(Deno.env.get("RTBENCH_BCRYPT_COST") ?? 10);
if (!Number.isInteger(cost) || cost < 4 || cost > 31) {
  throw new RangeError(`Cannot start server: RTBENCH_BCRYPT_COST must be a whole number from 4 to 31, got ${cost}`);
}

let bcrypt: Bcrypt = bcryptjs;
if (variant === "native") {
  try {
    bcrypt = (await import("bcrypt")).default;
  } catch (error) {
    const why = (error instanceof Error ? error.message : String(error)).split("\n")[0];
    console.error(`rtbench: skip: the bcrypt addon does not load on Deno ${Deno.version.deno}: ${why}`);
    Deno.exit(3);
  }
}

const json = { "content-type": "application/json" };
const text = { "content-type": "text/plain" };

async function handle(request: Request): Promise<Response> {
  const path = new URL(request.url).pathname;
  if (request.method !== "POST" || (path !== "/hash" && path !== "/verify")) {
    return new Response("Not Found", { status: 404, headers: text });
  }
  const input = await request.json().catch(() => null);
  if (typeof input?.password !== "string" || (path === "/verify" && typeof input.hash !== "string")) {
    return new Response("Bad Request", { status: 400, headers: text });
  }
  const body = path === "/hash"
    ? { hash: await bcrypt.hash(input.password, cost) }
    : { valid: await bcrypt.compare(input.password, input.hash) };
  return new Response(JSON.stringify(body), { headers: json });
}

Deno.serve({
  hostname: Deno.env.get("HOST") ?? "127.0.0.1",
  port: Number(Deno.env.get("PORT") ?? 3000),
  onListen() {},
  onError: () => new Response("Internal Server Error", { status: 500, headers: text }),
}, handle);
