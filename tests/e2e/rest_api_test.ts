// The rest-api workload: every variant on deno, node and bun against an embedded PostgreSQL that is removed
// afterwards, the table checked against the responses after each run; and the faults each check exists for:
// an update that does not persist, a wrong page, a DELETE answered 204 that deleted nothing.
//
// docs/workloads.md "The rest-api workload, and frameworks on every runtime", claim by claim:
// - endpoints, the mix and its weights, captured ids read back, figures per endpoint, the framework matrix, pinned
//   framework versions and the `server` fact, every combination running, the drizzle variant, nothing left behind:
//   "bench --workload rest-api on deno,node,bun completes every variant that runs and leaves nothing behind";
// - a lost update, a wrong page, a 204 DELETE that deleted nothing (hidden from reads, or only under load) are invalid:
//   tests/e2e/rest_api_faults_test.ts;
// - only rtbench's engine sends captured ids, another generator is refused with the reason:
//   "rest-api's captured ids need rtbench's engine: auto picks it, another generator is refused with the reason"
//   (and runners/engine/http_test.ts "a capture from a valid response fills later expectations");
// - the production stack's CORS, preflight and JWT checks, the same under every framework, and the prisma variant
//   (with tests/e2e/prisma_test.ts's header): the same test's run, which names the stack variants;
// - http-json's framework variants, run when named, parity across runtimes: "http-json on Express, Fastify, Hono,
//   Elysia and Oak: every framework answers alike on deno, node and bun".
import { assert, assertEquals, assertMatch, assertStringIncludes, assertThrows } from "@std/assert";
import { engineGenerator } from "../../runners/drivers/engine.ts";
import { pickLoadGenerator } from "../../runners/drivers/generators.ts";
import { wrkGenerator } from "../../runners/drivers/wrk.ts";
import { PROFILES } from "../../runners/suite/settings.ts";
import { parseResult, validateResult } from "../../runners/schema/mod.ts";
import { PRISMA_DEPENDENCIES } from "../../workloads/_prisma.ts";
import { exportResult } from "../../runners/report/mod.ts";
import { DRIZZLE_VERSION, restApi } from "../../workloads/rest_api.ts";
import { httpJson } from "../../workloads/http_json.ts";
import { planGroups } from "../../runners/suite/plan.ts";
import { FRAMEWORK_DEPENDENCIES, FRAMEWORKS } from "../../workloads/_frameworks.ts";
import { assertNothingLeft, runCli, withTmp } from "../_helpers.ts";

// One run holds every variant that runs by default, Prisma's among them, and the production stack's two, named: each
// variant's group starts its own embedded PostgreSQL, so one command line pays rtbench's start and install once.
Deno.test("bench --workload rest-api on deno,node,bun completes every variant that runs and leaves nothing behind", async () => {
  // The production-stack variants run when named; every other variant runs by default (the plan the CLI runs).
  const variants = restApi.variants.filter((v) => !v.optional).map((v) => v.name);
  assertEquals(planGroups([restApi], "quick", {}, {}).map((g) => g.variant), variants);
  const stacks = ["default-stack", "hono-stack"];
  await withTmp(async (tmp) => {
    const out = `${tmp}/r.json`;
    const cli = await runCli(
      [
        ...["--workload", "rest-api", "--variant", [...variants, ...stacks].join(","), "--runtime", "deno,node,bun"],
        ...["--duration", "0.3", "--warmup", "0.1", "--runs", "1", "--connections", "20", "--out", out],
      ],
      { TMPDIR: tmp },
    );
    assertEquals(cli.code, 0, cli.stderr + cli.stdout);
    const result = parseResult(await Deno.readTextFile(out));
    assertEquals(validateResult(result), []);
    assertEquals(result.records.map((r) => r.variant), [...variants, ...stacks].flatMap((v) => [v, v, v]));
    for (const record of result.records) {
      // A framework that does not run on a runtime declares why (FRAMEWORKS' `skip`); that record is skipped with it.
      const why = FRAMEWORKS[record.variant]?.skip?.[record.runtime.name];
      if (why) {
        assertEquals([record.status, record.skipReason], ["skipped", why], record.id);
        continue;
      }
      assertEquals(record.status, "completed", `${record.id}: ${JSON.stringify(record.error ?? record.skipReason)}`);
      assertEquals(record.facts.database, "embedded");
      // docs/workloads.md (rest-api): the database "exactly as for postgres": on a CPU of its own with 3 or more CPUs,
      // else shared and said so.
      const shares = record.warnings.some((w) => w.code === "db-shares-server-cpu");
      assertEquals(shares, navigator.hardwareConcurrency < 3, `${record.id}: ${JSON.stringify(record.warnings)}`);
      if (shares) assertEquals(record.facts.databaseCpus, record.cpus.server);
      else assert(!record.cpus.server?.split(",").includes(String(record.facts.databaseCpus)), "a CPU of its own");
      const checks = new Map(record.verification.checks.map((c) => [c.name, c]));
      // Through the server and in the database: the created user is stored, the update persisted, the delete deleted.
      for (const name of ["POST /users wrote the user it returned", "PUT /users/:id persisted the update"]) {
        assert(checks.get(`database: ${name}`)?.passed, `${record.id}: ${name}`);
      }
      assert(checks.get("database: DELETE /users/:id deleted the user")?.passed, record.id);
      // After the run, the table agrees with what the load's responses said: writes happened and were counted.
      const deletes = checks.get("run 1: database: deletes counted by PostgreSQL")!;
      assert(deletes.passed && Number(deletes.expected) >= 1, `${record.id}: ${JSON.stringify(deletes)}`);
      assert(checks.get("run 1: database: rows created minus deleted")?.passed, record.id);
      assert(checks.get("run 1: database: seeded rows unchanged")?.passed, record.id);
      assert(Number(record.summary.requestsPerSecond?.median) > 0, record.id);
    }
    // Each framework's exact version is recorded, the one rtbench pins; the runtime's own server says which it is.
    for (const record of result.records.filter((r) => r.variant in FRAMEWORKS && r.variant !== "default")) {
      const pinned = FRAMEWORK_DEPENDENCIES[FRAMEWORKS[record.variant].packages[0]];
      assertEquals([record.facts.framework, record.facts.frameworkVersion], [record.variant, pinned], record.id);
    }
    assertEquals(
      result.records.filter((r) => r.variant === "default").map((r) => r.facts.server),
      ["Deno.serve", "node:http", "Bun.serve"],
    );
    // The ORM variant: the same servers, their data through Drizzle.
    assertEquals(result.records.filter((r) => r.variant === "drizzle").map((r) => r.facts.orm), [
      `drizzle-orm ${DRIZZLE_VERSION}`,
      `drizzle-orm ${DRIZZLE_VERSION}`,
      `drizzle-orm ${DRIZZLE_VERSION}`,
    ]);
    // The prisma variant: Prisma's versions recorded, and every response under load checked (seeded reads byte for
    // byte, as the raw driver's and Drizzle's).
    const [prismaCli, prismaClient, prismaAdapter] = ["prisma", "@prisma/client", "@prisma/adapter-pg"].map((n) =>
      PRISMA_DEPENDENCIES[n]
    );
    for (const record of result.records.filter((r) => r.variant === "prisma")) {
      assertEquals(
        record.facts.orm,
        `prisma ${prismaCli} (@prisma/client ${prismaClient}, @prisma/adapter-pg ${prismaAdapter})`,
      );
      assertEquals(record.runs[0].counts, { errors: 0, timeouts: 0, non2xx: 0, mismatches: 0 }, record.id);
    }
    // The production stack, alike under every framework and runtime: every answer carries CORS; a preflight is
    // answered; no token, or one another secret signed, gets 401.
    for (const record of result.records.filter((r) => stacks.includes(r.variant))) {
      assertEquals(record.facts.stack, "CORS, JWT bearer (jose, HS256), body validation");
      const checks = new Map(record.verification.checks.map((c) => [c.name, c]));
      for (
        const name of [
          "CORS: access-control-allow-origin on an answer",
          "CORS: preflight allows the API's methods",
          "JWT: no token: GET /users/1 status",
          "JWT: a token signed with another secret: GET /users/1 body",
        ]
      ) assert(checks.get(name)?.passed, `${record.id}: ${name}: ${JSON.stringify(checks.get(name))}`);
    }
    // Figures per endpoint: the five endpoints, each with its rate and latency, in the record and in the table.
    for (const record of result.records.filter((r) => r.status === "completed")) {
      assertEquals(Object.keys(record.endpoints ?? {}).sort(), [
        "DELETE /users/:id",
        "GET /users",
        "GET /users/:id",
        "POST /users",
        "PUT /users/:id",
      ]);
    }
    // The mix, over every record (a short run of a slow start sees few writes): 12 reads of one user per create.
    const completed = result.records.filter((r) => r.status === "completed");
    const sum = (name: string) => completed.reduce((a, r) => a + r.endpoints![name].validResponses, 0);
    const ratio = sum("GET /users/:id") / sum("POST /users");
    assert(ratio > 8 && ratio < 16, `GET /users/:id per POST /users: ${ratio}`);
    // The load's deletes reached the table and were counted against it.
    assert(sum("DELETE /users/:id") > completed.length, `${sum("DELETE /users/:id")} deletes under load`);
    assertMatch(cli.stdout, /^endpoint\s+\S+ \S+ req\/s\s+p99/m);
    // The framework × runtime matrix: framework rows, runtime columns.
    assertStringIncludes(cli.stdout, "rest-api: requestsPerSecond (median), variant × runtime");
    assertMatch(cli.stdout, /^variant\s+deno\s+node\s+bun$/m);
    for (const variant of [...variants, ...stacks]) assertMatch(cli.stdout, new RegExp(`^${variant}\\s+\\S`, "m"));
    // Markdown and HTML show the same two tables.
    const md = exportResult(result, "md");
    assertStringIncludes(md, "## rest-api: requestsPerSecond (median), variant × runtime");
    assertMatch(md, /^\| endpoint \|/m);
    const html = exportResult(result, "html");
    assertStringIncludes(html, "<h3>Per endpoint</h3>");
    assertStringIncludes(html, "rest-api: requestsPerSecond (median), variant × runtime");
    // Nothing survives: no server, no load generator, no PostgreSQL, no data directory; only the result.
    await assertNothingLeft(tmp, ["r.json"]);
  }, { database: true });
});

Deno.test("http-json on Express, Fastify, Hono, Elysia and Oak: every framework answers alike on deno, node and bun", async () => {
  await withTmp(async (tmp) => {
    const out = `${tmp}/r.json`;
    const variants = Object.keys(FRAMEWORKS).filter((v) => v !== "default");
    const cli = await runCli([
      ...["--workload", "http-json", "--variant", variants.join(","), "--runtime", "deno,node,bun"],
      ...["--duration", "0.3", "--warmup", "0", "--connections", "10", "--runs", "1", "--out", out],
      // Parity is the point: one run each, without http-json's fixed-rate window and idle connections.
      ...["--cpu-rate", "0", "--idle-connections", "0"],
    ]);
    assertEquals(cli.code, 0, cli.stderr + cli.stdout);
    const result = parseResult(await Deno.readTextFile(out));
    assertEquals(result.records.map((r) => r.variant), variants.flatMap((v) => [v, v, v]));
    for (const record of result.records) {
      assertEquals(record.status, "completed", `${record.id}: ${JSON.stringify(record.error)}`);
      // Parity held: the same status, content-type, content-length and body from every runtime.
      assert(record.verification.checks.some((c) => c.name.startsWith("parity") && c.passed), record.id);
      assertEquals(record.facts.frameworkVersion, FRAMEWORK_DEPENDENCIES[FRAMEWORKS[record.variant].packages[0]]);
    }
    // Without --variant, http-json stays one record per runtime: its own server.
    assertEquals(planGroups([httpJson], "quick", {}, {}).map((g) => g.variant), ["default"]);
  });
});

Deno.test("rest-api's captured ids need rtbench's engine: auto picks it, another generator is refused with the reason", () => {
  const ctx = {
    variant: "default",
    options: {},
    settings: PROFILES.quick,
    tempDir: "",
    signal: new AbortController().signal,
  };
  const target = { baseUrl: "", requests: restApi.traffic(ctx).requests };
  const settings = { durationSec: 1, warmupSec: 0, connections: 1, pipelining: 1, requestTimeoutSec: 1 };
  const auto = pickLoadGenerator({ requested: "auto", candidates: [engineGenerator, wrkGenerator] }, target, settings);
  assertEquals(auto.generator.name, "rtbench");
  assertThrows(
    () => pickLoadGenerator({ requested: "wrk", candidates: [wrkGenerator] }, target, settings),
    TypeError,
    "wrk (it cannot send a value captured from an earlier response)",
  );
});
