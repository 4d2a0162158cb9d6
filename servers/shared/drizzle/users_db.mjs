// The rest-api workload's data layer through Drizzle ORM on postgres.js (the `drizzle` variant): the same exports as
// the tagged-SQL layer of the same name, so every server runs on either unchanged; the queries are Drizzle's.
import postgres from "postgres";
import { drizzle } from "drizzle-orm/postgres-js";
import { asc, eq } from "drizzle-orm";
import { integer, pgTable, text, timestamp } from "drizzle-orm/pg-core";
import { idOf, pageOf, validUser } from "./users_http.mjs";

export * from "./users_http.mjs";

const env = globalThis.process?.env ?? globalThis.Deno.env.toObject();

const client = postgres(env.DATABASE_URL, {
  max: Number(env.DATABASE_POOL),
  onnotice: () => {},
  connection: { search_path: env.DATABASE_SCHEMA, application_name: env.DATABASE_APP_NAME },
});
const db = drizzle(client);

/** The table as Drizzle sees it; its column order is the JSON's key order. */
const users = pgTable("users", {
  id: integer("id").primaryKey().generatedByDefaultAsIdentity(),
  name: text("name").notNull(),
  email: text("email").notNull(),
  createdAt: timestamp("created_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
});

/** The pool Drizzle runs on, for servers that need plain SQL too. */
export const sql = client;

/** GET /users?page&limit: `{page, limit, users}` in id order. */
export async function listUsers(page, limit) {
  const q = pageOf(page, limit);
  const rows = await db.select().from(users).orderBy(asc(users.id)).limit(q.limit).offset((q.page - 1) * q.limit);
  return { page: q.page, limit: q.limit, users: rows };
}

/** GET /users/:id: the user, or null. */
export async function getUser(id) {
  const n = idOf(id);
  if (n === null) return null;
  const [row] = await db.select().from(users).where(eq(users.id, n));
  return row ?? null;
}

/** POST /users: the created user, or null when the body is not a valid user. */
export async function createUser(body) {
  const u = validUser(body);
  if (u === null) return null;
  const [row] = await db.insert(users).values(u).returning();
  return row;
}

/** PUT /users/:id: the updated user, null when there is none, "invalid" when the body is not a valid user. */
export async function updateUser(id, body) {
  const u = validUser(body);
  if (u === null) return "invalid";
  const n = idOf(id);
  if (n === null) return null;
  const [row] = await db.update(users).set(u).where(eq(users.id, n)).returning();
  return row ?? null;
}

/** DELETE /users/:id: whether a row was deleted. */
export async function deleteUser(id) {
  const n = idOf(id);
  if (n === null) return false;
  const rows = await db.delete(users).where(eq(users.id, n)).returning({ id: users.id });
  return rows.length === 1;
}
