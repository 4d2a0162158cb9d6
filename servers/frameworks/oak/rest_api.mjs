// rest-api on Oak: its Router and Application, ctx.response.body for JSON; the same file on every runtime
// (Oak serves through Deno.serve on Deno, Bun.serve on Bun and node:http on Node.js).
import { Application, Router } from "@oakserver/oak";
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

// A comparison of frameworks that send JSON under different content-types (002's favourite stacks) names one
// (REST_JSON_TYPE), so that every arm answers alike; otherwise Oak's own.
const JSON_TYPE = process.env.REST_JSON_TYPE;

const body = (ctx) => ctx.request.body.json().catch(() => null);
const reply = (ctx, status, value) => {
  ctx.response.status = status;
  ctx.response.body = value;
};

const router = new Router()
  .get("/users", async (ctx) => {
    const q = ctx.request.url.searchParams;
    reply(ctx, 200, await listUsers(q.get("page"), q.get("limit")));
  })
  .post("/users", async (ctx) => {
    const user = await createUser(await body(ctx));
    user ? reply(ctx, 201, user) : reply(ctx, 400, INVALID);
  })
  .get("/users/:id", async (ctx) => {
    const user = await getUser(ctx.params.id);
    user ? reply(ctx, 200, user) : reply(ctx, 404, NOT_FOUND);
  })
  .put("/users/:id", async (ctx) => {
    const user = await updateUser(ctx.params.id, await body(ctx));
    if (user === "invalid") reply(ctx, 400, INVALID);
    else user ? reply(ctx, 200, user) : reply(ctx, 404, NOT_FOUND);
  })
  .delete("/users/:id", async (ctx) => {
    (await deleteUser(ctx.params.id)) ? ctx.response.status = 204 : reply(ctx, 404, NOT_FOUND);
  });

const app = new Application();
app.use(async (ctx, next) => {
  try {
    await next();
  } catch (error) {
    console.error(error);
    reply(ctx, 500, { error: "internal" });
  }
  // npm's Oak serves through node:http on Node.js and on Deno, and streams every body there, chunked; a JSON body
  // sent whole with its content-length frames the response as on Bun and as every other server does.
  if (ctx.response.body !== undefined && ctx.response.body !== null) {
    const text = JSON.stringify(ctx.response.body);
    ctx.response.body = text;
    if (JSON_TYPE) ctx.response.headers.set("content-type", JSON_TYPE);
    else ctx.response.type = "json";
    ctx.response.headers.set("content-length", String(new TextEncoder().encode(text).length));
  }
});
app.use(async (ctx, next) => {
  for (const [name, value] of Object.entries(STACK_HEADERS)) ctx.response.headers.set(name, value);
  const early = await gate(ctx.request.method, ctx.request.headers.get("authorization"));
  if (!early) return await next();
  for (const [name, value] of Object.entries(early.headers)) ctx.response.headers.set(name, value);
  ctx.response.status = early.status;
  if (early.body) ctx.response.body = early.body;
});
app.use(router.routes());
app.use((ctx) => reply(ctx, 404, NOT_FOUND));

await app.listen({ port: Number(process.env.PORT ?? 3000), hostname: process.env.HOST ?? "127.0.0.1" });
