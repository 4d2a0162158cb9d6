// rest-api on Elysia: on Bun natively, on Node.js through @elysiajs/node, on Deno through Deno.serve(app.fetch),
// as Elysia's guides for each runtime do.
import { Elysia } from "elysia";
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

const adapter = globalThis.Bun || globalThis.Deno ? {} : { adapter: (await import("@elysiajs/node")).node() };

// Elysia's JSON is Response.json on Bun ("application/json;charset=utf-8") and "application/json" elsewhere: one
// content-type for the variant on every runtime, so that the runtimes answer alike (REST_JSON_TYPE when a comparison
// of frameworks, 002's favourite stacks, names one for all of them).
const JSON_TYPE = process.env.REST_JSON_TYPE ?? "application/json";

const app = new Elysia(adapter)
  .onRequest(async ({ request, set, status }) => {
    Object.assign(set.headers, STACK_HEADERS);
    const early = await gate(request.method, request.headers.get("authorization"));
    if (!early) return;
    if (!early.body) {
      return new Response(null, { status: early.status, headers: { ...STACK_HEADERS, ...early.headers } });
    }
    set.headers["content-type"] = JSON_TYPE;
    return status(early.status, early.body);
  })
  .onAfterHandle(({ response, set }) => {
    if (!(response instanceof Response)) set.headers["content-type"] = JSON_TYPE;
  })
  .get("/users", ({ query }) => listUsers(query.page, query.limit))
  .post("/users", async ({ body, status }) => {
    const user = await createUser(body);
    return user ? status(201, user) : status(400, INVALID);
  })
  .get("/users/:id", async ({ params, status }) => (await getUser(params.id)) ?? status(404, NOT_FOUND))
  .put("/users/:id", async ({ params, body, status }) => {
    const user = await updateUser(params.id, body);
    if (user === "invalid") return status(400, INVALID);
    return user ?? status(404, NOT_FOUND);
  })
  .delete(
    "/users/:id",
    async ({ params, status }) =>
      (await deleteUser(params.id))
        ? new Response(null, { status: 204, headers: STACK_HEADERS })
        : status(404, NOT_FOUND),
  )
  .onError(({ code, error, set, status }) => {
    set.headers["content-type"] = JSON_TYPE;
    if (code === "NOT_FOUND") return status(404, NOT_FOUND);
    console.error(error);
    return status(500, { error: "internal" });
  });

const port = Number(process.env.PORT ?? 3000);
const hostname = process.env.HOST ?? "127.0.0.1";
if (globalThis.Deno && !globalThis.Bun) Deno.serve({ port, hostname, onListen() {} }, app.fetch);
else app.listen({ port, hostname });
