// README walk: shows claims of docs/workloads.md "The `uuid-file` and `bcrypt` workloads" (bcrypt).
// bcrypt: every runtime's hashes verify with bcryptjs in the harness and on
// every later runtime's server, in both variants; a server that hashes the
// wrong thing, or whose verify endpoint says yes to anything, is invalid.
// Runs alone: bcrypt takes a CPU whole; beside another file a later run failed in its measurement before its check.
import { assert, assertEquals, assertMatch } from "@std/assert";
import { run } from "../_suite.ts";
import { validateResult } from "../../runners/schema/mod.ts";
import { bcrypt } from "../../workloads/bcrypt.ts";
import { bcryptFaulty } from "../fixtures/bcrypt_faults.ts";
import { assertNothingLeft, withTmp } from "../_helpers.ts";

// Cost 4 keeps a hash near a millisecond; the checks are the same at any cost.
const OPTIONS = { "bcrypt-cost": 4 };
const QUICK = { durationSec: 0.3, warmupSec: 0, runs: 1 };

Deno.test("bcrypt hashes cross-verify across deno, node and bun in both variants", async () => {
  await withTmp(async (tmp) => {
    const result = await run({
      workloads: [bcrypt],
      runtimes: ["deno", "node", "bun"],
      settings: QUICK,
      options: OPTIONS,
      tempDir: tmp,
    });
    assertEquals(validateResult(result), []);
    assertEquals(result.records.map((r) => r.id), [
      "bcrypt/bcryptjs/deno",
      "bcrypt/bcryptjs/node",
      "bcrypt/bcryptjs/bun",
      "bcrypt/native/deno",
      "bcrypt/native/node",
      "bcrypt/native/bun",
    ]);
    for (const record of result.records) {
      const rt = record.runtime.name;
      // The addon is a prebuilt Node-API binary for Linux x64 (and Bun has its own): every record runs. (A server that
      // cannot run says so and is skipped with its reason: server_skip_test.)
      assertEquals(record.status, "completed", `${record.id}: ${record.error?.message ?? record.skipReason}`);
      assertEquals(record.options["bcrypt-cost"], 4);
      assertEquals(record.facts.bcryptCost, 4);
      assertEquals(record.facts.hashingThread, record.variant === "bcryptjs" ? "main" : "pool");
      assertMatch(String(record.facts.implementation), record.variant === "bcryptjs" ? /^bcryptjs / : /bcrypt/);
      const passed = new Set(record.verification.checks.filter((c) => c.passed).map((c) => c.name));
      assertEquals(record.verification.checks.filter((c) => !c.passed), []);
      for (const i of [1, 2, 3]) assert(passed.has(`${rt} hash ${i} verifies with bcryptjs`), `${rt} hash ${i}`);
      assert(passed.has(`harness bcryptjs hash verifies on ${rt}`));
      assert(passed.has(`wrong password rejected by ${rt}`));
      // Every runtime measured before this one in the variant: its hash verifies here.
      const earlier = result.records.filter((r) =>
        r.variant === record.variant && r.status === "completed" &&
        result.records.indexOf(r) < result.records.indexOf(record)
      );
      for (const other of earlier) assert(passed.has(`${other.runtime.name} hash verifies on ${rt}`), other.id);
      assert(record.runs[0].figures.requestsPerSecond > 0);
    }
    const native = result.records.filter((r) => r.variant === "native");
    assertEquals(native.map((r) => String(r.facts.implementation).split(" ")[0]), [
      "bcrypt",
      "bcrypt",
      "Bun.password.hash",
    ]);
    assertMatch(String(native[0].facts.implementation), /loaded by Deno's Node-API support/);
    await assertNothingLeft(tmp);
  });
});

Deno.test("a bcrypt server hashing the wrong input, or verifying any password, or going wrong in a later run's process, is invalid", async () => {
  await withTmp(async (tmp) => {
    const result = await run({
      workloads: [bcryptFaulty],
      runtimes: ["node", "deno"],
      settings: { ...QUICK, runs: 2 },
      options: OPTIONS,
      tempDir: tmp,
    });
    const byId = new Map(result.records.map((r) => [r.id, r]));
    const failed = (id: string) => byId.get(id)!.verification.checks.filter((c) => !c.passed).map((c) => c.name);

    const rawBody = byId.get("bcrypt-faulty/hashes-raw-body/deno")!;
    assertEquals(rawBody.status, "invalid");
    assertEquals(rawBody.error?.phase, "verify");
    // The hash looks right (the body pattern passes) but is not the password's.
    assertEquals(failed(rawBody.id), [1, 2, 3].map((i) => `deno hash ${i} verifies with bcryptjs`));
    assertEquals(rawBody.runs.length, 0);

    const saysYes = byId.get("bcrypt-faulty/verify-says-yes/deno")!;
    assertEquals(saysYes.status, "invalid");
    assertEquals(failed(saysYes.id), ["wrong password rejected by deno"]);
    // Its own hashes are fine, and node's hash verified on it.
    assert(saysYes.verification.checks.some((c) => c.name === "node hash verifies on deno" && c.passed));

    // A later run's fresh server has one hash verified with bcryptjs: one that goes wrong there is caught in that run.
    // Where run 1's short window counted too few (a busy moment), its second attempt is that later process, and the
    // hashes sampled under load catch it (the attempt skips the workload's own verification, as a run measured again
    // does).
    const later = byId.get("bcrypt-faulty/later-process-raw-body/deno")!;
    assertEquals(later.status, "invalid");
    if (later.warnings.some((w) => w.code === "window-extended" && w.message.startsWith("run 1:"))) {
      assertEquals(later.error?.phase, "measure");
      assertMatch(later.error!.message, /hashes sampled under load .*verify: got "0 of \d+"/);
    } else {
      assertEquals([later.error?.phase, later.runs.length], ["verify", 1]);
      assertEquals(failed(later.id), ["deno hash 1 verifies with bcryptjs"]);
    }

    for (const variant of ["hashes-raw-body", "verify-says-yes", "later-process-raw-body"]) {
      assertEquals(byId.get(`bcrypt-faulty/${variant}/node`)!.status, "completed");
    }
    await assertNothingLeft(tmp);
  });
});

// docs/workloads.md (bcrypt): "Passwords stay under 72 bytes: bcrypt reads no more, and `Bun.password` pre-hashes
// longer ones"; "Before any load": `bcrypt` verifies 3 of its 64 requests, which differ only in the password.
Deno.test("bcrypt's traffic: 64 passwords under 72 bytes of UTF-8, 3 verified before load", () => {
  const ctx = { options: { "bcrypt-cost": 4 } } as unknown as Parameters<typeof bcrypt.traffic>[0];
  const traffic = bcrypt.traffic(ctx);
  assertEquals([traffic.requests.length, traffic.verified], [64, 3]);
  const passwords = traffic.requests.map((r) => JSON.parse(String(r.body)).password as string);
  assert(passwords.every((p) => new TextEncoder().encode(p).length < 72), passwords.join(" "));
  assert(passwords.some((p) => new TextEncoder().encode(p).length > p.length), "multi-byte UTF-8 among them");
  assertEquals(new Set(traffic.requests.map((r) => `${r.method} ${r.path}`)), new Set(["POST /hash"]));
});
