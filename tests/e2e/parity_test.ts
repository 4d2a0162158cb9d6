// README walk: shows claims of docs/method.md "Parity across runtimes" and "Verification before any load" (every distinct request).
// Parity across runtimes before load: a server whose content-length (and body)
// differs from the other runtimes' is marked invalid and not measured, while
// the runtimes that agree are measured; the odd one is picked by majority.
import { verifiedRequests } from "../../runners/kinds/http.ts";
import { assert, assertEquals, assertMatch } from "@std/assert";
import { judgeParity } from "../../runners/kinds/parity.ts";
import { validateResult } from "../../runners/schema/mod.ts";
import { run } from "../_suite.ts";
import type { HttpExchange, HttpRequestSpec } from "../../workloads/types.ts";
import { looseJson } from "../fixtures/loose_json.ts";
import { numberedLoose, numberedWrong } from "../fixtures/numbered.ts";
import { assertNothingLeft, processesMatching, withTmp } from "../_helpers.ts";

Deno.test("a server whose content-length differs from the other runtimes' is invalid", async () => {
  await withTmp(async (tmp) => {
    const result = await run({
      workloads: [looseJson],
      runtimes: ["deno", "node", "bun"],
      settings: { durationSec: 0.5, warmupSec: 0, runs: 1 },
      tempDir: tmp,
    });
    assertEquals(validateResult(result), []);
    const byName = Object.fromEntries(result.records.map((r) => [r.runtime.name, r]));
    const node = byName.node;
    assertEquals(node.status, "invalid");
    assertEquals(node.error?.phase, "verify");
    assertMatch(node.error!.message, /parity GET \/ content-length: "28" where deno and bun send "27"/);
    assertEquals(node.runs.length, 0, "the odd one is not measured");
    const failed = node.verification.checks.filter((c) => !c.passed).map((c) => c.name);
    assertEquals(failed, ["parity GET / content-length", "parity GET / body"]);
    for (const name of ["deno", "bun"]) {
      const record = byName[name];
      assertEquals(record.status, "completed", JSON.stringify(record.error));
      assert(record.verification.checks.some((c) => c.name === "parity GET / content-length" && c.passed));
    }
    await assertNothingLeft(tmp);
  });
});

function seen(request: HttpRequestSpec, body: string, contentType = "application/json"): HttpExchange {
  return {
    request,
    status: 200,
    headers: { "content-type": contentType, "content-length": String(body.length) },
    body,
    bodyBytes: body.length,
  };
}

Deno.test("with two runtimes that disagree no majority decides, so both are invalid", () => {
  const request = { path: "/", expect: { status: 200, contentType: "application/json" } };
  const verdicts = judgeParity([
    { runtime: "deno", exchanges: [seen(request, "{}")] },
    { runtime: "node", exchanges: [seen(request, "{ }")] },
  ]);
  for (const runtime of ["deno", "node"]) {
    assertMatch(verdicts.get(runtime)!.invalid!, /no majority says which is right/);
  }
});

Deno.test("varying bodies are compared by their pattern, not byte for byte", () => {
  const request = {
    path: "/",
    expect: { status: 200, contentType: "application/json", bodyPattern: '\\{"n":\\d+\\}' },
  };
  const verdicts = judgeParity([
    { runtime: "deno", exchanges: [seen(request, '{"n":1}')] },
    { runtime: "node", exchanges: [seen(request, '{"n":22}')] },
    { runtime: "bun", exchanges: [seen(request, '{"n":333}', "text/plain")] },
  ]);
  assertEquals(verdicts.get("deno")!.invalid, null);
  assertEquals(verdicts.get("node")!.invalid, null);
  assertMatch(
    verdicts.get("bun")!.invalid!,
    /content-type: "text\/plain" where deno and node send "application\/json"/,
  );
  assertEquals(verdicts.get("deno")!.checks.map((c) => c.name), [
    "parity GET / status",
    "parity GET / content-type",
    "parity GET / body pattern",
  ]);
});

Deno.test("a runtime that fails its own expectation does not vote", () => {
  const request = { path: "/", expect: { status: 200, contentType: "application/json", body: "{}" } };
  const verdicts = judgeParity(
    [
      { runtime: "deno", exchanges: [seen(request, "{}")] },
      { runtime: "node", exchanges: [seen(request, "[]")] },
    ],
    (runtime) => runtime === "deno",
  );
  assertEquals([...verdicts.keys()], ["deno"]);
  assertEquals(verdicts.get("deno")!.invalid, null);
});

// docs/method.md (Verification before any load): "every distinct request of the workload's traffic" is verified, and
// compared across runtimes, not only the first few.
Deno.test("verification and parity send every distinct request: a fault in the eighth of ten is caught before load", async () => {
  await withTmp(async (tmp) => {
    const result = await run({
      workloads: [numberedWrong, numberedLoose],
      runtimes: ["deno", "node", "bun"],
      settings: { durationSec: 0.5, warmupSec: 0, runs: 1, connections: 4 },
      tempDir: tmp,
    });
    assertEquals(validateResult(result), []);
    for (const record of result.records.filter((r) => r.workload === "numbered-wrong")) {
      assertEquals([record.status, record.error?.phase], ["invalid", "verify"], JSON.stringify(record.error));
      assertMatch(record.error!.message, /GET \/7 body/);
      assertEquals(record.runs.length, 0, "not measured");
    }
    const loose = Object.fromEntries(
      result.records.filter((r) => r.workload === "numbered-loose").map((r) => [r.runtime.name, r]),
    );
    assertEquals([loose.node.status, loose.node.error?.phase], ["invalid", "verify"]);
    assertMatch(loose.node.error!.message, /parity GET \/7 content-length: "8" where deno and bun send "7"/);
    for (const name of ["deno", "bun"]) {
      const record = loose[name];
      assertEquals(record.status, "completed", JSON.stringify(record.error));
      assertEquals(record.facts.verifiedRequests, 10, "ten distinct of twenty");
      // The record stays readable: the first requests in full, one line for the rest.
      assert(
        record.verification.checks.some((c) =>
          c.name === "the other 7 distinct requests: status, content-type, content-length and body" && c.passed
        ),
      );
      assert(record.verification.checks.some((c) => c.name === "parity: the other 7 distinct requests" && c.passed));
      assert(record.verification.checks.length < 40, String(record.verification.checks.length));
    }
    assertEquals(await processesMatching(tmp), []);
  });
});

// docs/method.md (Verification before any load): "every distinct request … on the first server of each runtime, and the
// first three again on each later run's fresh server"; bcrypt verifies 3 of its 64.
Deno.test("the first run's server is verified on every distinct request, each later run's on the first three", () => {
  const requests = Array.from({ length: 20 }, (_, i) => ({
    path: `/${i % 10}`,
    expect: { status: 200, contentType: "text/plain", body: String(i % 10) },
  }));
  assertEquals(verifiedRequests({ requests }, 0).map((r) => r.path), Array.from({ length: 10 }, (_, i) => `/${i}`));
  assertEquals(verifiedRequests({ requests }, 1).map((r) => r.path), ["/0", "/1", "/2"]);
  assertEquals(verifiedRequests({ requests, verified: 3 }, 0).length, 3);
});
