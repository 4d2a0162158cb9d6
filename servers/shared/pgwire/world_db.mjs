// The postgres workload's data access on pgwire, a PostgreSQL driver written for Deno (the `-native` variants on
// Deno): the same exports as the postgres.js layer of the same name, the same rows and JSON. The package's npm entry
// wraps node:net for Node.js; its own mod.js is the Deno build, on Deno.connect, loaded here.
const { pgpool } = await import(import.meta.resolve("pgwire").replace(/index\.js$/, "mod.js"));

const env = Deno.env.toObject();

const pool = pgpool(env.DATABASE_URL, {
  _poolSize: Number(env.DATABASE_POOL),
  application_name: env.DATABASE_APP_NAME,
  options: `-c search_path=${env.DATABASE_SCHEMA} -c TimeZone=UTC`,
});

/** `{id, randomNumber}` of the row `id`. */
export async function world(id) {
  const { rows: [[rowId, randomNumber]] } = await pool.query({
    statement: "select id, randomnumber from world where id = $1",
    params: [{ type: "int4", value: id }],
  });
  return { id: rowId, randomNumber };
}

/** pgwire reads timestamptz as PostgreSQL's text (`2026-01-01 00:01:00+00`, in UTC here): as JSON writes a Date. */
function isoOf(text) {
  return new Date(text.replace(" ", "T").replace(/([+-]\d\d)$/, "$1:00")).toJSON();
}

/** 002's query: the first 1,000 users as the JSON every server sends. */
export async function users() {
  const { rows } = await pool.query("SELECT * FROM users LIMIT 1000");
  return rows.map(([id, name, email, createdAt]) => ({ id, name, email, createdAt: isoOf(createdAt) }));
}
