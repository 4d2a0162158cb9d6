// The rest-api workload's prisma variant and the postgres workload's db-prisma and queries-prisma: Prisma ORM 7 (pinned CLI, client and pg driver adapter from npm), its client
// generated offline for the variant into the variant's own directory, on Deno, Node and Bun's own servers, verified
// like every other variant (the create/update/delete cycle checked in the database, the table checked against the
// responses after the run), its versions recorded.
//
// docs/workloads.md "The rest-api workload, and frameworks on every runtime": the prisma variant, sentence by sentence:
// tests/e2e/rest_api_test.ts "bench --workload rest-api on deno,node,bun completes every variant that runs and leaves
// nothing behind" (its prisma records: verified, versions recorded, nothing left); "The
// postgres workload": "postgres through Prisma: one query per row, counted by PostgreSQL, on deno, node and bun".
import { assert, assertEquals, assertMatch } from "@std/assert";
import { parseResult, validateResult } from "../../runners/schema/mod.ts";
import { PRISMA_DEPENDENCIES } from "../../workloads/_prisma.ts";
import { postgresWorkload } from "../../workloads/postgres.ts";
import { go } from "../../adapters/mod.ts";
import { run } from "../_suite.ts";
import { needs, runtime } from "../_needs.ts";
import { assertNothingLeft, runCli, withTmp } from "../_helpers.ts";

Deno.test("postgres through Prisma: one query per row, counted by PostgreSQL, on deno, node and bun", async () => {
  await withTmp(async (tmp) => {
    const out = `${tmp}/r.json`;
    const cli = await runCli(
      [
        ...["--workload", "postgres", "--variant", "db-prisma,queries-prisma", "--runtime", "deno,node,bun"],
        ...["--duration", "0.5", "--warmup", "0.2", "--runs", "1", "--connections", "20", "--out", out],
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
      ["postgres/queries-prisma/deno", "completed"],
      ["postgres/queries-prisma/node", "completed"],
      ["postgres/queries-prisma/bun", "completed"],
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
    await assertNothingLeft(tmp, ["r.json"]);
  }, { database: true });
});

// Where Go is installed: its postgres server uses pgx, so the Prisma variants skip it, saying so.
Deno.test(needs(await runtime(go), {
  name: "postgres through Prisma on go: skipped, Prisma being a JavaScript library",
  async fn() {
    await withTmp(async (tmp) => {
      const result = await run({
        workloads: [postgresWorkload],
        runtimes: ["go"],
        variants: ["db-prisma", "queries-prisma"],
        settings: { durationSec: 0.5, warmupSec: 0, runs: 1 },
        tempDir: tmp,
      });
      for (const r of result.records) {
        assertEquals(r.status, "skipped", r.id);
        assertMatch(r.skipReason!, /Prisma ORM is a JavaScript library; go uses pgx/);
      }
      assertEquals(result.records.length, 2);
    }, { database: true });
  },
}));
