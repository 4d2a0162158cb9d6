// README walk: shows claims of docs/reproduce.md "The articles' experiments, and `deno task reproduce`" (rest-api's favourite).
// 002's "each runtime on its own favourite stack" as ONE rest-api variant: Elysia on Bun, Express on Node.js, Oak on
// Deno, each on Prisma ORM, whose arms run interleaved round by round and answer byte for byte alike.
import { assert, assertEquals } from "@std/assert";
import { run } from "../_suite.ts";
import { validateResult } from "../../runners/schema/mod.ts";
import { restApi } from "../../workloads/rest_api.ts";
import { processesMatching, withTmp } from "../_helpers.ts";

Deno.test("rest-api favourite: each runtime on its own framework and Prisma, in one interleaved comparison", () =>
  withTmp(async (tmp) => {
    const result = await run({
      workloads: [restApi],
      runtimes: ["deno", "node", "bun"],
      variants: ["favourite"],
      settings: { durationSec: 0.5, warmupSec: 0.2, runs: 2, connections: 10 },
      tempDir: tmp,
    });
    assertEquals(validateResult(result), []);
    const frameworks = Object.fromEntries(result.records.map((r) => [r.runtime.name, r.facts.framework]));
    assertEquals(frameworks, { deno: "oak", node: "express", bun: "elysia" });
    for (const record of result.records) {
      assertEquals(record.status, "completed", `${record.runtime.name}: ${JSON.stringify(record.error)}`);
      assert(String(record.facts.orm).startsWith("prisma "), String(record.facts.orm));
      // The CRUD cycle was checked in the database, and the database after each run matches the responses.
      assert(record.verification.passed, record.runtime.name);
      assertEquals(
        record.verification.checks.find((c) => c.name === "run 2: database: seeded rows unchanged")?.passed,
        true,
      );
      assertEquals(record.runs.reduce((n, r) => n + r.counts.mismatches, 0), 0);
    }
    // Interleaved: every runtime's first run started before any runtime's second.
    const starts = (index: number) => result.records.map((r) => Date.parse(r.runs[index].startedAt));
    assert(Math.max(...starts(0)) < Math.min(...starts(1)), JSON.stringify([starts(0), starts(1)]));
    assertEquals(await processesMatching(tmp), []);
  }));
