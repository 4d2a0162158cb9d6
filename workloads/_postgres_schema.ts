/**
 * rtbench's own schema in a PostgreSQL database: created with a unique name,
 * seeded with the `world` table from `fixtures/world.ts`, dropped afterwards.
 * Nothing outside it is created or changed. The number of reads the servers
 * ran on `world` comes from PostgreSQL's own statistics.
 *
 * @module
 */

import postgres from "postgres";
import { worldRows } from "../fixtures/world.ts";

/** A seeded schema and the connection that owns it. */
export interface WorldSchema {
  /** Schema name, `rtbench_` and 12 hex digits. */
  readonly name: string;
  /** The server's version, for example `18.4`. */
  readonly serverVersion: string;
  /** The server's version as a number, for example `180004`. */
  readonly serverVersionNum: number;
  /**
   * Scans of `world` (index and sequential) in PostgreSQL's statistics, once
   * no connection named `applicationName` is left: a backend flushes its
   * statistics when it ends, so only then is the figure complete.
   */
  scans(applicationName: string, timeoutMs: number): Promise<number>;
  /** Drops the schema (and the `world` table in it), then closes the connection. */
  drop(): Promise<void>;
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
export async function createWorldSchema(url: string): Promise<WorldSchema> {
  const sql = postgres(url, {
    max: 1,
    onnotice: () => {},
    connect_timeout: 30,
    connection: { application_name: "rtbench" },
  });
  const name = `rtbench_${crypto.randomUUID().replaceAll("-", "").slice(0, 12)}`;
  let created = false;
  const drop = async () => {
    try {
      if (created) await sql`drop schema if exists ${sql(name)} cascade`;
    } finally {
      await sql.end({ timeout: 5 });
    }
  };
  try {
    const [version] = await sql`
      select current_setting('server_version') as version, current_setting('server_version_num')::int as num`;
    await sql`create schema ${sql(name)}`;
    created = true;
    // TechEmpower's table; autovacuum off so that no background ANALYZE competes with a measured run.
    await sql`
      create table ${sql(name)}.world (id integer primary key, randomnumber integer not null)
      with (autovacuum_enabled = false)`;
    const rows = worldRows().map((r) => ({ id: r.id, randomnumber: r.randomNumber }));
    for (let i = 0; i < rows.length; i += BATCH) {
      await sql`insert into ${sql(name)}.world ${sql(rows.slice(i, i + BATCH), "id", "randomnumber")}`;
    }
    await sql`analyze ${sql(name)}.world`;
    return {
      name,
      serverVersion: String(version.version).split(" ")[0],
      serverVersionNum: Number(version.num),
      async scans(applicationName: string, timeoutMs: number): Promise<number> {
        const deadline = performance.now() + timeoutMs;
        while (true) {
          const [{ n }] =
            await sql`select count(*)::int as n from pg_stat_activity where application_name = ${applicationName}`;
          if (n === 0) break;
          if (performance.now() > deadline) {
            throw new Error(
              `${n} server connections to PostgreSQL still open ${timeoutMs / 1000} s after the server stopped`,
            );
          }
          await new Promise((r) => setTimeout(r, 20));
        }
        const [row] = await sql`
          select (coalesce(seq_scan, 0) + coalesce(idx_scan, 0))::float8 as n
          from pg_stat_user_tables where schemaname = ${name} and relname = 'world'`;
        if (!row) throw new Error(`No statistics for ${name}.world in pg_stat_user_tables`);
        return Number(row.n);
      },
      drop,
    };
  } catch (error) {
    await drop().catch(() => {});
    throw error;
  }
}
