// rest-api on Fastify 5, the same file on every runtime: its router, its JSON body parser and reply serializer.
import Fastify from "fastify";
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

const app = Fastify();
app.addHook("onRequest", async (req, reply) => {
  reply.headers(STACK_HEADERS);
  const early = await gate(req.method, req.headers.authorization);
  if (early) return reply.code(early.status).headers(early.headers).send(early.body);
});
// Fastify answers OPTIONS only for routes that declare it: the stack's preflight needs one.
app.options("*", (_req, reply) => reply.code(404).send(NOT_FOUND));

app.get("/users", (req) => listUsers(req.query.page, req.query.limit));
app.post("/users", async (req, reply) => {
  const user = await createUser(req.body);
  return user ? reply.code(201).send(user) : reply.code(400).send(INVALID);
});
app.get("/users/:id", async (req, reply) => {
  const user = await getUser(req.params.id);
  return user ?? reply.code(404).send(NOT_FOUND);
});
app.put("/users/:id", async (req, reply) => {
  const user = await updateUser(req.params.id, req.body);
  if (user === "invalid") return reply.code(400).send(INVALID);
  return user ?? reply.code(404).send(NOT_FOUND);
});
app.delete("/users/:id", async (req, reply) => {
  return (await deleteUser(req.params.id)) ? reply.code(204).send() : reply.code(404).send(NOT_FOUND);
});
app.setNotFoundHandler((_req, reply) => reply.code(404).send(NOT_FOUND));

await app.listen({ port: Number(process.env.PORT ?? 3000), host: process.env.HOST ?? "127.0.0.1" });
