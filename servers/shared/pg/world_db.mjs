// The postgres workload's data access on pg (node-postgres), Node.js's own PostgreSQL driver (the `-native`
// variants on Node.js): the same exports as the postgres.js layer of the same name, the same rows and JSON.
import pg from "pg";

const env = process.env;

const pool = new pg.Pool({
  connectionString: env.DATABASE_URL,
  max: Number(env.DATABASE_POOL),
  application_name: env.DATABASE_APP_NAME,
  options: `-c search_path=${env.DATABASE_SCHEMA}`,
});

/** `{id, randomNumber}` of the row `id`. */
export async function world(id) {
  const { rows: [row] } = await pool.query("select id, randomnumber from world where id = $1", [id]);
  return { id: row.id, randomNumber: row.randomnumber };
}

/** 002's query: the first 1,000 users as the JSON every server sends (created_at is a Date). */
export async function users() {
  const { rows } = await pool.query("SELECT * FROM users LIMIT 1000");
  return rows.map((r) => ({ id: r.id, name: r.name, email: r.email, createdAt: r.created_at }));
}
