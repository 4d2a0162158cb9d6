// rest-api on Express 5, the same file on every runtime: its router, express.json() and res.json().
import express from "express";
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

const app = express();
// Express's production guide: no X-Powered-By header (no other server here sends one).
app.disable("x-powered-by");
app.use(async (req, res, next) => {
  res.set(STACK_HEADERS);
  const early = await gate(req.method, req.get("authorization"));
  if (!early) return next();
  res.status(early.status).set(early.headers);
  early.body ? res.json(early.body) : res.end();
});
app.use(express.json());

app.get("/users", async (req, res) => {
  res.json(await listUsers(req.query.page, req.query.limit));
});
app.post("/users", async (req, res) => {
  const user = await createUser(req.body);
  user ? res.status(201).json(user) : res.status(400).json(INVALID);
});
app.get("/users/:id", async (req, res) => {
  const user = await getUser(req.params.id);
  user ? res.json(user) : res.status(404).json(NOT_FOUND);
});
app.put("/users/:id", async (req, res) => {
  const user = await updateUser(req.params.id, req.body);
  if (user === "invalid") res.status(400).json(INVALID);
  else user ? res.json(user) : res.status(404).json(NOT_FOUND);
});
app.delete("/users/:id", async (req, res) => {
  (await deleteUser(req.params.id)) ? res.status(204).end() : res.status(404).json(NOT_FOUND);
});
app.use((_req, res) => {
  res.status(404).json(NOT_FOUND);
});
// Express 5 passes a rejected handler's error here.
app.use((error, _req, res, _next) => {
  console.error(error);
  res.status(500).json({ error: "internal" });
});

app.listen(Number(process.env.PORT ?? 3000), process.env.HOST ?? "127.0.0.1");
