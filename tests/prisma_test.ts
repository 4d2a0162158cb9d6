// The rest-api workload's prisma variant and the postgres workload's db-prisma and queries-prisma: Prisma ORM 7 (pinned CLI, client and pg driver adapter from npm), its client
// generated offline for the variant into the variant's own directory, on Deno, Node and Bun's own servers, verified
// like every other variant (the create/update/delete cycle checked in the database, the table checked against the
// responses after the run), its versions recorded.
//
// README "The rest-api workload, and frameworks on every runtime": the prisma variant, sentence by sentence:
// "rest-api's prisma variant runs on deno, node and bun: verified, its versions recorded, nothing left"; README "The
// postgres workload": "postgres through Prisma: one query per row, counted by PostgreSQL, on deno, node and bun".
import { assert, assertEquals, assertMatch } from "@std/assert";
import { parseResult, validateResult } from "../runners/schema/mod.ts";
import { PRISMA_DEPENDENCIES } from "../workloads/_prisma.ts";
import { entries, privateTmp, processesMatching, runCli } from "./_helpers.ts";

Deno.test("rest-api's prisma variant runs on deno, node and bun: verified, its versions recorded, nothing left", async () => {
  const tmp = await privateTmp();
  // The embedded PostgreSQL runs as the user postgres when rtbench runs as root: it must enter the directory.
  if (Deno.uid() === 0) await Deno.chmod(tmp, 0o711);
  const out = `${tmp}/r.json`;
  const cli = await runCli(
    [
      ...["--workload", "rest-api", "--variant", "prisma", "--runtime", "deno,node,bun"],
      ...["--duration", "1", "--warmup", "0.5", "--runs", "1", "--connections", "20", "--out", out],
    ],
    { TMPDIR: tmp },
  );
  assertEquals(cli.code, 0, cli.stderr + cli.stdout);
  const result = parseResult(await Deno.readTextFile(out));
  assertEquals(validateResult(result), []);
  assertEquals(result.records.map((r) => [r.id, r.status]), [
    ["rest-api/prisma/deno", "completed"],
    ["rest-api/prisma/node", "completed"],
    ["rest-api/prisma/bun", "completed"],
  ]);
  const [cli7, client, adapter] = ["prisma", "@prisma/client", "@prisma/adapter-pg"].map((n) => PRISMA_DEPENDENCIES[n]);
  for (const r of result.records) {
    assertEquals(r.facts.orm, `prisma ${cli7} (@prisma/client ${client}, @prisma/adapter-pg ${adapter})`);
    const checks = new Map(r.verification.checks.map((c) => [c.name, c]));
    // Through the server and in the database: Prisma's create, update and delete did what they answered.
    for (
      const name of [
        "database: POST /users wrote the user it returned",
        "database: PUT /users/:id persisted the update",
        "database: DELETE /users/:id deleted the user",
        "run 1: database: rows created minus deleted",
        "run 1: database: deletes counted by PostgreSQL",
        "run 1: database: seeded rows unchanged",
      ]
    ) assert(checks.get(name)?.passed, `${r.id}: ${name}: ${JSON.stringify(checks.get(name))}`);
    // Every response under load checked: seeded reads byte for byte, as the raw driver's and Drizzle's.
    assertEquals(r.runs[0].counts, { errors: 0, timeouts: 0, non2xx: 0, mismatches: 0 });
    assert(Number(r.summary.requestsPerSecond?.median) > 0, r.id);
  }
  assertEquals(await processesMatching(tmp), []);
  assertEquals(await entries(tmp), ["r.json"]);
  await Deno.remove(tmp, { recursive: true });
});

Deno.test("postgres through Prisma: one query per row, counted by PostgreSQL, on deno, node and bun", async () => {
  const tmp = await privateTmp();
  if (Deno.uid() === 0) await Deno.chmod(tmp, 0o711);
  const out = `${tmp}/r.json`;
  const cli = await runCli(
    [
      ...["--workload", "postgres", "--variant", "db-prisma,queries-prisma", "--runtime", "deno,node,bun,go"],
      ...["--duration", "1", "--warmup", "0.5", "--runs", "1", "--connections", "20", "--out", out],
    ],
    { TMPDIR: tmp },
  );
  assertEquals(cli.code, 0, cli.stderr + cli.stdout);
  const result = parseResult(await Deno.readTextFile(out));
  assertEquals(validateResult(result), []);
  const statuses = result.records.map((r) => [r.id, r.status]);
  assertEquals(statuses, [
    ["postgres/db-prisma/deno", "completed"],
    ["postgres/db-prisma/node", "completed"],
    ["postgres/db-prisma/bun", "completed"],
    ["postgres/db-prisma/go", "skipped"],
    ["postgres/queries-prisma/deno", "completed"],
    ["postgres/queries-prisma/node", "completed"],
    ["postgres/queries-prisma/bun", "completed"],
    ["postgres/queries-prisma/go", "skipped"],
  ]);
  for (const r of result.records.filter((r) => r.status === "completed")) {
    assertEquals(
      r.facts.orm,
      `prisma ${PRISMA_DEPENDENCIES.prisma} (@prisma/client ${
        PRISMA_DEPENDENCIES["@prisma/client"]
      }, @prisma/adapter-pg ${PRISMA_DEPENDENCIES["@prisma/adapter-pg"]})`,
    );
    // PostgreSQL counted one query per row the responses hold: Prisma's batching of concurrent findUnique calls into
    // one query would fail this (the data layer reads with findFirst for that reason).
    const counted = r.verification.checks.find((c) => c.name === "run 1: queries counted vs expected");
    assert(counted?.passed, `${r.id}: ${JSON.stringify(counted)}`);
    assert(r.verification.checks.find((c) => c.name === "rows match the seeded world table")?.passed, r.id);
    assertEquals(r.runs[0].counts, { errors: 0, timeouts: 0, non2xx: 0, mismatches: 0 });
  }
  assertMatch(result.records[3].skipReason!, /Prisma ORM is a JavaScript library; go uses pgx/);
  assertEquals(await processesMatching(tmp), []);
  assertEquals(await entries(tmp), ["r.json"]);
  await Deno.remove(tmp, { recursive: true });
});
