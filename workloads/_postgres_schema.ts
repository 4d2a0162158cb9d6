/**
 * rtbench's own schema in a PostgreSQL database: created with a unique name,
 * seeded with the `world` table from `fixtures/world.ts`, dropped afterwards.
 * Nothing outside it is created or changed. The number of queries the servers
 * ran on `world` comes from PostgreSQL itself: `pg_stat_statements` when the
 * server has it, else the table's scan statistics.
 *
 * @module
 */

import type postgres from "postgres";
import { worldRows } from "../fixtures/mod.ts";
import { connectionsGone, openSchema, type OwnSchema } from "./_database.ts";
import { seedUsersTable } from "./_users_schema.ts";

/** A seeded schema and the connection that owns it. */
export interface WorldSchema extends OwnSchema {
  /** What {@linkcode WorldSchema.queries} counts. */
  readonly counter: QueryCounter;
  /**
   * Queries on `table` (`world`, or `users` where seeded) PostgreSQL has counted so far, read once no
   * connection named `applicationName` is left: a backend flushes its table
   * statistics when it ends, so only then is the figure complete.
   */
  queries(applicationName: string, timeoutMs: number, table?: QueriedTable): Promise<number>;
}

/**
 * Where queries are counted: `pg_stat_statements` (executions of statements
 * reading `from world`), or, where that extension is not installed,
 * `pg_stat_user_tables` (scans of `world`; an `= any(...)` lookup counts one
 * per key searched there, so only statement counts catch batched reads).
 */
export type QueryCounter = "pg_stat_statements" | "pg_stat_user_tables";

/** The tables whose queries {@linkcode WorldSchema.queries} counts. */
export type QueriedTable = "world" | "users";

/** Options for {@linkcode createWorldSchema}. */
export interface WorldSchemaOptions {
  /** Whether the server is rtbench's own, where `pg_stat_statements` may be installed. @default {false} */
  readonly ownServer?: boolean;
  /** Whether to seed rest-api's `users` table beside `world`, for 002's `SELECT * FROM users LIMIT 1000`. */
  readonly users?: boolean;
}

/** Rows per insert statement (two parameters each, under PostgreSQL's 65,535). */
const BATCH = 5000;

/**
 * Connects to `url`, creates a uniquely named schema with a seeded `world`
 * table and returns it. On failure nothing is left behind.
 *
 * @example
 * ```ts ignore
 * import { createWorldSchema } from "./_postgres_schema.ts";
 * const schema = await createWorldSchema("postgres://user:pw@127.0.0.1:5432/db");
 * try {
 *   console.log(schema.name.startsWith("rtbench_")); // true
 * } finally {
 *   await schema.drop();
 * }
 * ```
 */
export function createWorldSchema(url: string, options: WorldSchemaOptions = {}): Promise<WorldSchema> {
  return openSchema(url, async ({ sql, name }) => {
    // TechEmpower's table; autovacuum off so that no background ANALYZE competes with a measured run.
    await sql`
      create table ${sql(name)}.world (id integer primary key, randomnumber integer not null)
      with (autovacuum_enabled = false)`;
    const rows = worldRows().map((r) => ({ id: r.id, randomnumber: r.randomNumber }));
    for (let i = 0; i < rows.length; i += BATCH) {
      await sql`insert into ${sql(name)}.world ${sql(rows.slice(i, i + BATCH), "id", "randomnumber")}`;
    }
    await sql`analyze ${sql(name)}.world`;
    if (options.users) await seedUsersTable(sql, name);
    if (options.ownServer) await sql`create extension if not exists pg_stat_statements`;
    const counter: QueryCounter = await statementsReadable(sql) ? "pg_stat_statements" : "pg_stat_user_tables";
    return {
      counter,
      async queries(applicationName: string, timeoutMs: number, table: QueriedTable = "world"): Promise<number> {
        await connectionsGone(sql, applicationName, timeoutMs);
        if (counter === "pg_stat_statements") {
          // The servers' statements read `from world` through search_path, or, through Prisma, `from "<schema>"."world"`;
          // rtbench's own name the table with the schema and never read from it.
          const [row] = await sql`
            select coalesce(sum(calls), 0)::float8 as n from pg_stat_statements
            where dbid = (select oid from pg_database where datname = current_database())
              and query ~* ${`\\mfrom\\s+(?:${table}\\M|"[^"]+"\\."${table}")`}`;
          return Number(row.n);
        }
        const [row] = await sql`
          select (coalesce(seq_scan, 0) + coalesce(idx_scan, 0))::float8 as n
          from pg_stat_user_tables where schemaname = ${name} and relname = ${table}`;
        if (!row) throw new Error(`No statistics for ${name}.${table} in pg_stat_user_tables`);
        return Number(row.n);
      },
    };
  });
}

/** Whether `pg_stat_statements` is installed in the database and its library loaded. */
async function statementsReadable(sql: postgres.Sql): Promise<boolean> {
  const [installed] = await sql`select 1 from pg_extension where extname = 'pg_stat_statements'`;
  if (!installed) return false;
  try {
    await sql`select 1 from pg_stat_statements limit 1`;
    return true;
  } catch {
    // Installed, but not in shared_preload_libraries.
    return false;
  }
}
