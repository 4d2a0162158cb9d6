// docs/workloads.md "The rest-api workload": a lost update, a wrong page and a 204 DELETE that deleted nothing (hidden
// from reads, or only under load) make the record invalid, each told by PostgreSQL or by the exact body.
// Runs alone: it points the process's TMPDIR at its own directory, which every file running beside it would share.
import { assert, assertEquals, assertMatch, assertStringIncludes } from "@std/assert";
import { run } from "../_suite.ts";
import { deleteNothing, deleteNothingLater, updateNotPersisted, wrongPage } from "../fixtures/rest_api_faults.ts";
import { assertNothingLeft, withEnv, withTmp } from "../_helpers.ts";

Deno.test("rest-api: a lost update, a wrong page and a DELETE that deleted nothing make the record invalid", async () => {
  await withTmp(async (tmp) => {
    // The embedded database goes to the system's temporary directory: point it at this test's.
    await withEnv({ TMPDIR: tmp }, async () => {
      const result = await run({
        workloads: [updateNotPersisted, wrongPage, deleteNothing, deleteNothingLater],
        runtimes: ["deno"],
        settings: { durationSec: 1, warmupSec: 0, runs: 1 },
        tempDir: tmp,
      });
      const [lost, page, deleted, deletedLater] = result.records;
      for (const record of result.records) assertEquals(record.status, "invalid", record.id);
      const failed = (r: typeof lost) => r.verification.checks.filter((c) => !c.passed).map((c) => c.name);

      // The update answered as done but not stored: the database says so, and reading it back says so.
      assertEquals(lost.error?.phase, "verify");
      assert(failed(lost).includes("database: PUT /users/:id persisted the update"), failed(lost).join());
      assertEquals(lost.runs.length, 0, "an invalid server is not measured");

      // Page 1 answered with page 2's users: the exact body differs.
      assertEquals(page.error?.phase, "verify");
      assertStringIncludes(page.error!.message, "GET /users?page=1&limit=20 body");

      // 204 and a 404 afterwards, yet the row is still there: only the database can tell.
      assertEquals(deleted.error?.phase, "verify");
      assertEquals(failed(deleted), ["database: DELETE /users/:id deleted the user"]);

      // The same fault under load only: the check after the run finds the deletes the responses reported missing.
      assertEquals(deletedLater.error?.phase, "cleanup");
      assertMatch(deletedLater.error!.message, /run 1: database: deletes counted by PostgreSQL: got 1, expected \d+/);
      const deletes = deletedLater.verification.checks.find((c) =>
        c.name === "run 1: database: deletes counted by PostgreSQL"
      )!;
      // Only verification's delete reached the table; the load's answered 204 in vain.
      assert(Number(deletes.expected) > 10, JSON.stringify(deletes));
    });
    await assertNothingLeft(tmp);
  }, { database: true });
});
