// rest-api on Deno: Deno.serve with URLPattern routing over the shared users data layer (postgres.js).
import {
  createUser,
  deleteUser,
  gate,
  getUser,
  INVALID,
  listUsers,
  NOT_FOUND,
  STACK_HEADERS,
  updateUser,
} from "./users_db.mjs";

const json = (status: number, value: unknown) =>
  new Response(JSON.stringify(value), { status, headers: { ...STACK_HEADERS, "content-type": "application/json" } });
const empty = (status: number, headers: Record<string, string> = {}) =>
  new Response(null, { status, headers: { ...STACK_HEADERS, ...headers } });
const byId = new URLPattern({ pathname: "/users/:id" });

async function body(req: Request): Promise<unknown> {
  try {
    return await req.json();
  } catch {
    return null;
  }
}

async function route(req: Request): Promise<Response> {
  const early = await gate(req.method, req.headers.get("authorization"));
  if (early) return early.body ? json(early.status, early.body) : empty(early.status, early.headers);
  const url = new URL(req.url);
  if (url.pathname === "/users") {
    if (req.method === "GET") {
      return json(200, await listUsers(url.searchParams.get("page"), url.searchParams.get("limit")));
    }
    if (req.method === "POST") {
      const user = await createUser(await body(req));
      return user ? json(201, user) : json(400, INVALID);
    }
  }
  const id = byId.exec(url)?.pathname.groups.id;
  if (id !== undefined) {
    if (req.method === "GET") {
      const user = await getUser(id);
      return user ? json(200, user) : json(404, NOT_FOUND);
    }
    if (req.method === "PUT") {
      const user = await updateUser(id, await body(req));
      return user === "invalid" ? json(400, INVALID) : user ? json(200, user) : json(404, NOT_FOUND);
    }
    if (req.method === "DELETE") {
      return await deleteUser(id) ? empty(204) : json(404, NOT_FOUND);
    }
  }
  return json(404, NOT_FOUND);
}

Deno.serve({
  hostname: Deno.env.get("HOST") ?? "127.0.0.1",
  port: Number(Deno.env.get("PORT") ?? 3000),
  onListen() {},
}, async (req) => {
  try {
    return await route(req);
  } catch (error) {
    console.error(error);
    return json(500, { error: "internal" });
  }
});
