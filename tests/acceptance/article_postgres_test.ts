// README walk: shows claims of docs/reproduce.md "The articles' experiments, and `deno task reproduce`" (postgres's -native and users variants).
// 002's PostgreSQL experiments as postgres variants: each runtime's own driver (pg on Node.js, Bun.sql on Bun,
// pgwire on Deno; Go's pgx) beside postgres.js, and 002's query, SELECT * FROM users LIMIT 1000, beside /db.
import { assert, assertEquals, assertMatch } from "@std/assert";
import { run } from "../_suite.ts";
import { go, rust } from "../../adapters/mod.ts";
import { needs, runtime } from "../_needs.ts";
import { validateResult } from "../../runners/schema/mod.ts";
import { postgresWorkload } from "../../workloads/postgres.ts";
import { seededUser } from "../../fixtures/users.ts";
import { processesMatching, withTmp } from "../_helpers.ts";

const DRIVERS: Record<string, RegExp> = {
  deno: /^pgwire /,
  node: /^pg \(node-postgres\)$/,
  bun: /^Bun\.sql /,
  go: /^pgx /,
  rust: /^tokio-postgres$/,
};

Deno.test(needs([await runtime(go), await runtime(rust)], {
  name: "postgres db-native, users and users-native: every runtime's own driver, 002's query, checked in PostgreSQL",
  fn: () =>
    withTmp(async (tmp) => {
      const result = await run({
        workloads: [postgresWorkload],
        runtimes: ["deno", "node", "bun", "go", "rust"],
        variants: ["db-native", "queries-native", "users", "users-native"],
        settings: { durationSec: 0.3, warmupSec: 0.1, runs: 1, connections: 10 },
        tempDir: tmp,
      });
      assertEquals(validateResult(result), []);
      const record = (variant: string, runtime: string) =>
        result.records.find((r) => r.variant === variant && r.runtime.name === runtime)!;
      for (const runtime of ["deno", "node", "bun", "go", "rust"]) {
        for (const variant of ["db-native", "queries-native"]) {
          const native = record(variant, runtime);
          assertEquals(native.status, "completed", `${variant} ${runtime}: ${JSON.stringify(native.error)}`);
          assertMatch(String(native.facts.driver), DRIVERS[runtime]);
          // Every row the driver returned is the seeded one, and PostgreSQL counted the queries of the answered requests.
          const checks = new Map(native.verification.checks.map((c) => [c.name, c]));
          assertEquals(checks.get("rows match the seeded world table")?.passed, true);
          assertEquals(checks.get("run 1: queries counted vs expected")?.passed, true, `${variant} ${runtime}`);
        }
      }
      for (const runtime of ["deno", "node", "bun"]) {
        for (const variant of ["users", "users-native"]) {
          const r = record(variant, runtime);
          assertEquals(r.status, "completed", `${variant} ${runtime}: ${JSON.stringify(r.error)}`);
          assertMatch(String(r.facts.driver), variant === "users" ? /^postgres\.js$/ : DRIVERS[runtime]);
          const body = r.verification.checks.find((c) => c.name === "GET /users body");
          assertEquals(body?.passed, true, `${variant} ${runtime}`);
          // The 1,000 seeded users byte for byte, the last one written out here by hand.
          assert(String(body?.expected).endsWith(JSON.stringify(seededUser(1000)) + "]"));
          assert(
            String(body?.expected).endsWith(
              '{"id":1000,"name":"User 1000","email":"user1000@example.com","createdAt":"2026-01-01T16:40:00.000Z"}]',
            ),
          );
          // One users query per answered request, counted by PostgreSQL.
          const counted = r.verification.checks.find((c) => c.name === "run 1: queries on users counted vs expected");
          assertEquals(counted?.passed, true, JSON.stringify(counted));
          assert(Number(counted?.actual) >= r.runs[0].figures.validResponses);
          assertEquals(r.runs[0].counts.mismatches, 0);
        }
      }
      // The native servers have no /users: skipped with the reason.
      assertEquals(record("users", "go").status, "skipped");
      assertEquals(record("users-native", "rust").status, "skipped");
      assertEquals(await processesMatching(tmp), []);
    }),
}));
