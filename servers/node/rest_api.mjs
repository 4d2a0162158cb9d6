// rest-api on Node.js: node:http with its own routing over the shared users data layer (postgres.js).
import { createServer } from "node:http";
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

function send(res, status, value, headers = {}) {
  if (value === undefined) {
    res.writeHead(status, { ...STACK_HEADERS, ...headers });
    res.end();
    return;
  }
  const body = Buffer.from(JSON.stringify(value));
  res.writeHead(status, { ...STACK_HEADERS, "content-type": "application/json", "content-length": body.length });
  res.end(body);
}

async function body(req) {
  const chunks = [];
  for await (const chunk of req) chunks.push(chunk);
  try {
    return JSON.parse(Buffer.concat(chunks).toString("utf8"));
  } catch {
    return null;
  }
}

async function route(req, res) {
  const early = await gate(req.method, req.headers.authorization);
  if (early) return send(res, early.status, early.body, early.headers);
  const url = new URL(req.url, "http://localhost");
  if (url.pathname === "/users") {
    if (req.method === "GET") {
      return send(res, 200, await listUsers(url.searchParams.get("page"), url.searchParams.get("limit")));
    }
    if (req.method === "POST") {
      const user = await createUser(await body(req));
      return user ? send(res, 201, user) : send(res, 400, INVALID);
    }
  }
  const match = /^\/users\/([^/]+)$/.exec(url.pathname);
  if (match) {
    const id = decodeURIComponent(match[1]);
    if (req.method === "GET") {
      const user = await getUser(id);
      return user ? send(res, 200, user) : send(res, 404, NOT_FOUND);
    }
    if (req.method === "PUT") {
      const user = await updateUser(id, await body(req));
      return user === "invalid" ? send(res, 400, INVALID) : user ? send(res, 200, user) : send(res, 404, NOT_FOUND);
    }
    if (req.method === "DELETE") return await deleteUser(id) ? send(res, 204) : send(res, 404, NOT_FOUND);
  }
  send(res, 404, NOT_FOUND);
}

createServer((req, res) => {
  route(req, res).catch((error) => {
    console.error(error);
    send(res, 500, { error: "internal" });
  });
}).listen(Number(process.env.PORT ?? 3000), process.env.HOST ?? "127.0.0.1");
