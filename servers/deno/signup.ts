// signup on Deno: Deno.serve. POST /signup {email, password}: the password hashed with bcryptjs (variant `hash`, on
// the main thread; `worker-pool`, in Web Workers, as 003 did; `no-hash`, not at all: 003's control), the account
// inserted into PostgreSQL, answered 201 {"id","email"}. Same bytes as the node and bun servers.
import bcryptjs from "bcryptjs";
import { insertAccount, INVALID, validSignup } from "./signup_db.mjs";
import { hashPool } from "./hash_pool.mjs";

const variant = Deno.args[0] ?? "hash";
const cost = Number(Deno.env.get("RTBENCH_BCRYPT_COST") ?? 10);
const hash: (password: string) => Promise<string | null> | null = variant === "no-hash"
  ? () => null
  : variant === "worker-pool"
  ? await hashPool(Number(Deno.env.get("SIGNUP_WORKERS") ?? 4), cost)
  : (password) => bcryptjs.hash(password, cost);

const json = (status: number, value: unknown) =>
  new Response(JSON.stringify(value), { status, headers: { "content-type": "application/json" } });

async function fetch(req: Request): Promise<Response> {
  try {
    if (req.method !== "POST" || new URL(req.url).pathname !== "/signup") return json(404, { error: "not found" });
    const signup = validSignup(await req.json().catch(() => null));
    if (!signup) return json(400, INVALID);
    const id = await insertAccount(signup.email, await hash(signup.password));
    return json(201, { id, email: signup.email });
  } catch (error) {
    console.error(error);
    return json(500, { error: "internal" });
  }
}

Deno.serve(
  { hostname: Deno.env.get("HOST") ?? "127.0.0.1", port: Number(Deno.env.get("PORT") ?? 3000), onListen() {} },
  fetch,
);
