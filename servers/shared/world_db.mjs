// The postgres workload's data access on postgres.js, the same on every runtime: one row of `world` by id, as the
// JSON every server sends; 002's `users` query. Servers differ in HTTP only.
import postgres from "postgres";

const env = globalThis.process?.env ?? globalThis.Deno.env.toObject();

const sql = postgres(env.DATABASE_URL, {
  max: Number(env.DATABASE_POOL),
  onnotice: () => {},
  connection: { search_path: env.DATABASE_SCHEMA, application_name: env.DATABASE_APP_NAME },
});

/** `{id, randomNumber}` of the row `id`. */
export async function world(id) {
  const [row] = await sql`select id, randomnumber from world where id = ${id}`;
  return { id: row.id, randomNumber: row.randomnumber };
}

/** 002's query (`GET /users`): the first 1,000 users as the JSON every server sends (created_at is a Date). */
export async function users() {
  const rows = await sql`SELECT * FROM users LIMIT 1000`;
  return rows.map((r) => ({ id: r.id, name: r.name, email: r.email, createdAt: r.created_at }));
}
