// The rest-api workload's data layer on postgres.js, the same on every runtime and framework: tagged SQL over the
// `users` table and the JSON every server sends. Servers differ in routing and HTTP only; bodies are byte-identical.
import postgres from "postgres";
import { idOf, pageOf, validUser } from "./users_http.mjs";

export * from "./users_http.mjs";

const env = globalThis.process?.env ?? globalThis.Deno.env.toObject();

/** The pool, as configured by rtbench: DATABASE_URL, DATABASE_POOL, DATABASE_SCHEMA, DATABASE_APP_NAME. */
export const sql = postgres(env.DATABASE_URL, {
  max: Number(env.DATABASE_POOL),
  onnotice: () => {},
  connection: { search_path: env.DATABASE_SCHEMA, application_name: env.DATABASE_APP_NAME },
});

/** A row as sent: created_at is a Date, which JSON writes as ISO 8601 with milliseconds. */
const user = (r) => ({ id: r.id, name: r.name, email: r.email, createdAt: r.created_at });

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
