// The postgres workload's data access on postgres.js, the same on every runtime: one row of `world` by id, as the
// JSON every server sends. Servers differ in HTTP only.
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
