// The postgres workload's data access on Bun.sql, Bun's built-in PostgreSQL client (the `-native` variants on Bun):
// the same exports as the postgres.js layer of the same name, the same rows and JSON.
import { SQL } from "bun";

const env = process.env;

const sql = new SQL({
  url: env.DATABASE_URL,
  max: Number(env.DATABASE_POOL),
  connection: { search_path: env.DATABASE_SCHEMA, application_name: env.DATABASE_APP_NAME },
});

/** `{id, randomNumber}` of the row `id`. */
export async function world(id) {
  const [row] = await sql`select id, randomnumber from world where id = ${id}`;
  return { id: row.id, randomNumber: row.randomnumber };
}

/** 002's query: the first 1,000 users as the JSON every server sends (created_at is a Date). */
export async function users() {
  const rows = await sql`SELECT * FROM users LIMIT 1000`;
  return rows.map((r) => ({ id: r.id, name: r.name, email: r.email, createdAt: r.created_at }));
}
