// rest-api on Bun: Bun.serve's routes over the shared users data layer (postgres.js).
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

// Response.json would say "application/json;charset=utf-8"; the other runtimes' own servers send this.
const json = (value: unknown, status = 200) =>
  new Response(JSON.stringify(value), { status, headers: { ...STACK_HEADERS, "content-type": "application/json" } });
const empty = (status: number, headers: Record<string, string> = {}) =>
  new Response(null, { status, headers: { ...STACK_HEADERS, ...headers } });

async function body(req: Request): Promise<unknown> {
  try {
    return await req.json();
  } catch {
    return null;
  }
}

/** Errors answer 500 and are logged, as on the other runtimes. */
function guarded<T extends Request>(handler: (req: T) => Promise<Response>) {
  return async (req: T) => {
    try {
      const early = await gate(req.method, req.headers.get("authorization"));
      if (early) return early.body ? json(early.body, early.status) : empty(early.status, early.headers);
      return await handler(req);
    } catch (error) {
      console.error(error);
      return json({ error: "internal" }, 500);
    }
  };
}

type WithId = Request & { params: { id: string } };

Bun.serve({
  hostname: process.env.HOST ?? "127.0.0.1",
  port: Number(process.env.PORT ?? 3000),
  routes: {
    "/users": {
      GET: guarded(async (req) => {
        const q = new URL(req.url).searchParams;
        return json(await listUsers(q.get("page"), q.get("limit")));
      }),
      POST: guarded(async (req) => {
        const user = await createUser(await body(req));
        return user ? json(user, 201) : json(INVALID, 400);
      }),
    },
    "/users/:id": {
      GET: guarded<WithId>(async (req) => {
        const user = await getUser(req.params.id);
        return user ? json(user) : json(NOT_FOUND, 404);
      }),
      PUT: guarded<WithId>(async (req) => {
        const user = await updateUser(req.params.id, await body(req));
        if (user === "invalid") return json(INVALID, 400);
        return user ? json(user) : json(NOT_FOUND, 404);
      }),
      DELETE: guarded<WithId>(async (req) => await deleteUser(req.params.id) ? empty(204) : json(NOT_FOUND, 404)),
    },
  },
  fetch: guarded(() => Promise.resolve(json(NOT_FOUND, 404))),
});
