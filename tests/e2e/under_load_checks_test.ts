// docs/method.md "What is checked on every response under load": a server whose answers keep their form but go wrong
// after verification is caught under load by the workload's own check: postgres rows against the seeded table, bcrypt
// hashes sampled and verified against their passwords.
import { assert, assertEquals, assertMatch } from "@std/assert";
import { run } from "../_suite.ts";
import { validateResult } from "../../runners/schema/mod.ts";
import { bcryptWrongUnderLoad, postgresWrongNumber } from "../fixtures/under_load_faults.ts";
import { assertNothingLeft, withTmp } from "../_helpers.ts";

function measure(workload: typeof bcryptWrongUnderLoad, runtimes: string[], options?: Record<string, number>) {
  return withTmp(async (tmp) => {
    const result = await run({
      workloads: [workload],
      runtimes,
      ...(options ? { options } : {}),
      settings: { durationSec: 2, warmupSec: 0.5, runs: 1 },
      loadGenerator: "rtbench",
      tempDir: tmp,
    });
    assertEquals(validateResult(JSON.parse(JSON.stringify(result))), []);
    await assertNothingLeft(tmp);
    return result;
  }, { database: true });
}

Deno.test("postgres: a row whose randomNumber is not its id's, from mid-run on, makes the record invalid", async () => {
  const [record] = (await measure(postgresWrongNumber, ["node"])).records;
  assertEquals([record.status, record.error?.phase], ["invalid", "measure"], JSON.stringify(record.error));
  assert(record.verification.passed, "the fault starts after verification");
  assertMatch(record.error!.message, /mismatched .*with each randomNumber the one of its id/);
});

Deno.test("bcrypt: hashes of the wrong text under load, right in form, fail the sampled check; honest ones pass it", async () => {
  // The lowest cost: what is checked is the hashes' text, not their cost, and fast hashes count enough in one window.
  const records = (await measure(bcryptWrongUnderLoad, ["deno", "node"], { "bcrypt-cost": 4 })).records;
  const [deno, node] = records;
  assertEquals([deno.status, deno.error?.phase], ["invalid", "measure"], JSON.stringify(deno.error));
  assertMatch(deno.error!.message, /^sampled under load: hashes sampled under load .* verify: got "\d+ of \d+"/);
  assertEquals(node.status, "completed", JSON.stringify(node.error));
  const sampled = node.verification.checks.find((c) => c.name.startsWith("hashes sampled under load"));
  assertEquals(sampled?.passed, true, JSON.stringify(node.verification.checks));
});
