// rest-api on Hono, the same app on every runtime: Deno.serve and Bun.serve take app.fetch, Node.js gets
// @hono/node-server, as Hono's guides for each runtime do.
import { Hono } from "hono";
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

const app = new Hono();
app.use(async (c, next) => {
  for (const [name, value] of Object.entries(STACK_HEADERS)) c.header(name, value);
  const early = await gate(c.req.method, c.req.header("authorization"));
  if (!early) return await next();
  for (const [name, value] of Object.entries(early.headers)) c.header(name, value);
  return early.body ? c.json(early.body, early.status) : c.body(null, early.status);
});
const body = (c) => c.req.json().catch(() => null);

app.get("/users", async (c) => c.json(await listUsers(c.req.query("page"), c.req.query("limit"))));
app.post("/users", async (c) => {
  const user = await createUser(await body(c));
  return user ? c.json(user, 201) : c.json(INVALID, 400);
});
app.get("/users/:id", async (c) => {
  const user = await getUser(c.req.param("id"));
  return user ? c.json(user) : c.json(NOT_FOUND, 404);
});
app.put("/users/:id", async (c) => {
  const user = await updateUser(c.req.param("id"), await body(c));
  if (user === "invalid") return c.json(INVALID, 400);
  return user ? c.json(user) : c.json(NOT_FOUND, 404);
});
app.delete(
  "/users/:id",
  async (c) => (await deleteUser(c.req.param("id"))) ? c.body(null, 204) : c.json(NOT_FOUND, 404),
);
app.notFound((c) => c.json(NOT_FOUND, 404));
app.onError((error, c) => {
  console.error(error);
  return c.json({ error: "internal" }, 500);
});

const port = Number(process.env.PORT ?? 3000);
const hostname = process.env.HOST ?? "127.0.0.1";
if (globalThis.Bun) {
  Bun.serve({ fetch: app.fetch, port, hostname });
} else if (globalThis.Deno) {
  Deno.serve({ port, hostname, onListen() {} }, app.fetch);
} else {
  const { serve } = await import("@hono/node-server");
  serve({ fetch: app.fetch, port, hostname });
}
