// README walk: shows claims of docs/reproduce.md "The articles' experiments, and `deno task reproduce`" (signup).
// signup (003): the password hashed and the account inserted into PostgreSQL, with hashing on the main thread, in a
// pool of workers, or removed (the control), on deno, node and bun; each account checked in the database.
import { assert, assertEquals, assertMatch } from "@std/assert";
import { run } from "../_suite.ts";
import { validateResult } from "../../runners/schema/mod.ts";
import { signup } from "../../workloads/signup.ts";
import { processesMatching, withTmp } from "../_helpers.ts";

Deno.test("signup hash, worker-pool and no-hash on deno, node and bun: accounts inserted and checked in PostgreSQL", () =>
  withTmp(async (tmp) => {
    const result = await run({
      workloads: [signup],
      runtimes: ["deno", "node", "bun"],
      // Cost 4: a hash in about a millisecond, so that the test measures the path, not bcrypt.
      options: { "bcrypt-cost": 4 },
      settings: { durationSec: 0.3, warmupSec: 0.1, runs: 1, connections: 10 },
      tempDir: tmp,
    });
    assertEquals(validateResult(result), []);
    assertEquals(result.records.length, 9);
    for (const record of result.records) {
      const id = `${record.variant} ${record.runtime.name}`;
      assertEquals(record.status, "completed", `${id}: ${JSON.stringify(record.error)}`);
      const checks = new Map(record.verification.checks.map((c) => [c.name, c]));
      assertEquals(checks.get("database: POST /signup inserted the account it answered with")?.passed, true, id);
      if (record.variant === "no-hash") {
        assertEquals(checks.get("database: no hash stored (the control)")?.passed, true, id);
        assertEquals(record.facts.bcryptCost, null);
      } else {
        assertEquals(checks.get("database: the stored hash verifies with bcryptjs")?.passed, true, id);
        assertEquals(record.facts.bcryptCost, 4);
      }
      assertEquals(record.facts.hashWorkers, record.variant === "worker-pool" ? 4 : null);
      assertMatch(String(record.facts.hashing), record.variant === "worker-pool" ? /pool of workers/ : /./);
      // Every answered signup is a row: PostgreSQL's count against the responses, the invalid probe inserting none.
      assertEquals(checks.get("run 1: accounts inserted vs expected")?.passed, true, id);
      assertEquals(record.runs[0].counts.mismatches, 0);
      assert(record.runs[0].figures.validResponses > 0);
    }
    assertEquals(await processesMatching(tmp), []);
  }));
