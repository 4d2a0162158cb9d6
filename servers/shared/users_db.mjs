// The rest-api workload's data layer, the same on every runtime and framework: postgres.js over the `users` table,
// input checks and the JSON every server sends. Servers differ in routing and HTTP only; bodies are byte-identical.
import postgres from "postgres";
import { jwtVerify } from "jose";

const env = globalThis.process?.env ?? globalThis.Deno.env.toObject();

/** The pool, as configured by rtbench: DATABASE_URL, DATABASE_POOL, DATABASE_SCHEMA, DATABASE_APP_NAME. */
export const sql = postgres(env.DATABASE_URL, {
  max: Number(env.DATABASE_POOL),
  onnotice: () => {},
  connection: { search_path: env.DATABASE_SCHEMA, application_name: env.DATABASE_APP_NAME },
});

/** A row as sent: created_at is a Date, which JSON writes as ISO 8601 with milliseconds. */
const user = (r) => ({ id: r.id, name: r.name, email: r.email, createdAt: r.created_at });

/** `:id` as a positive integer, or null (then the answer is 404). */
function idOf(text) {
  return /^[1-9][0-9]{0,9}$/.test(String(text)) ? Number(text) : null;
}

/** `{name, email}` when the body holds a valid user, else null (then the answer is 400). */
export function validUser(body) {
  if (body === null || typeof body !== "object") return null;
  const { name, email } = body;
  if (typeof name !== "string" || name.length === 0 || name.length > 100) return null;
  if (typeof email !== "string" || email.length > 200 || !/^[^@\s]+@[^@\s]+$/.test(email)) return null;
  return { name, email };
}

/** `page` from 1, `limit` 1..100 (default 10); anything unreadable takes the default. */
function pageOf(page, limit) {
  const p = Number.parseInt(page ?? "", 10);
  const l = Number.parseInt(limit ?? "", 10);
  return { page: Number.isNaN(p) || p < 1 ? 1 : p, limit: Number.isNaN(l) ? 10 : Math.min(100, Math.max(1, l)) };
}

/** GET /users?page&limit: `{page, limit, users}` in id order. */
export async function listUsers(page, limit) {
  const q = pageOf(page, limit);
  const rows = await sql`
    select id, name, email, created_at from users order by id limit ${q.limit} offset ${(q.page - 1) * q.limit}`;
  return { page: q.page, limit: q.limit, users: rows.map(user) };
}

/** GET /users/:id: the user, or null. */
export async function getUser(id) {
  const n = idOf(id);
  if (n === null) return null;
  const [row] = await sql`select id, name, email, created_at from users where id = ${n}`;
  return row ? user(row) : null;
}

/** POST /users: the created user, or null when the body is not a valid user. */
export async function createUser(body) {
  const u = validUser(body);
  if (u === null) return null;
  const [row] = await sql`insert into users (name, email) values (${u.name}, ${u.email})
    returning id, name, email, created_at`;
  return user(row);
}

/** PUT /users/:id: the updated user, null when there is none, "invalid" when the body is not a valid user. */
export async function updateUser(id, body) {
  const u = validUser(body);
  if (u === null) return "invalid";
  const n = idOf(id);
  if (n === null) return null;
  const [row] = await sql`update users set name = ${u.name}, email = ${u.email} where id = ${n}
    returning id, name, email, created_at`;
  return row ? user(row) : null;
}

/** DELETE /users/:id: whether a row was deleted. */
export async function deleteUser(id) {
  const n = idOf(id);
  if (n === null) return false;
  const rows = await sql`delete from users where id = ${n}`;
  return rows.count === 1;
}

/** The bodies of the error answers. */
export const NOT_FOUND = { error: "not found" };
export const INVALID = { error: "invalid user" };

// The production stack (REST_STACK=production), the same under every framework: CORS headers on every response, a
// preflight answered, and a JWT bearer token verified with jose on every other request before any route runs.
const STACK = env.REST_STACK === "production";
const SECRET = new TextEncoder().encode(env.JWT_SECRET ?? "");

/** Headers every response carries: CORS for the one allowed origin, or none without the stack. */
export const STACK_HEADERS = STACK ? { "access-control-allow-origin": env.CORS_ORIGIN, "vary": "Origin" } : {};

const PREFLIGHT = {
  "access-control-allow-methods": "GET, POST, PUT, DELETE",
  "access-control-allow-headers": "authorization, content-type",
  "access-control-max-age": "600",
};

/** The 401 body. */
export const UNAUTHORIZED = { error: "unauthorized" };

/**
 * What the stack answers before routing: a preflight (204 with the CORS headers), a request without a valid
 * bearer token (401, `UNAUTHORIZED`), or null to go on.
 */
export async function gate(method, authorization) {
  if (!STACK) return null;
  if (method === "OPTIONS") return { status: 204, headers: PREFLIGHT };
  const token = /^Bearer (.+)$/.exec(authorization ?? "")?.[1];
  try {
    if (token) {
      await jwtVerify(token, SECRET, { algorithms: ["HS256"], issuer: "rtbench", audience: "rest-api" });
      return null;
    }
  } catch {
    // A bad signature, an expired token, the wrong issuer: all 401.
  }
  return { status: 401, headers: {}, body: UNAUTHORIZED };
}
