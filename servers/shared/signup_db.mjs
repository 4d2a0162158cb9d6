// The signup workload's data access on postgres.js, the same on every runtime: one insert per signup into
// `accounts`, returning the new id. Servers differ in HTTP and in where they hash.
import postgres from "postgres";

const env = globalThis.process?.env ?? globalThis.Deno.env.toObject();

const sql = postgres(env.DATABASE_URL, {
  max: Number(env.DATABASE_POOL),
  onnotice: () => {},
  connection: { search_path: env.DATABASE_SCHEMA, application_name: env.DATABASE_APP_NAME },
});

/** Inserts an account (`hash` null for the control without hashing) and returns its id. */
export async function insertAccount(email, hash) {
  const [row] = await sql`insert into accounts (email, password_hash) values (${email}, ${hash}) returning id`;
  return row.id;
}

/** `{email, password}` when the body holds a valid signup, else null (then the answer is 400). */
export function validSignup(body) {
  if (body === null || typeof body !== "object") return null;
  const { email, password } = body;
  if (typeof email !== "string" || email.length > 200 || !/^[^@\s]+@[^@\s]+$/.test(email)) return null;
  if (typeof password !== "string" || password.length === 0 || password.length > 64) return null;
  return { email, password };
}

/** The body of a 400. */
export const INVALID = { error: "invalid signup" };
