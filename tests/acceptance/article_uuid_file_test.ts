// README walk: shows claims of docs/reproduce.md "The articles' experiments, and `deno task reproduce`" (uuid-file's no-params and url-parse).
// 001's variants of uuid-file: the same servers without query parameters (on every runtime, native ones included),
// and the JavaScript servers parsing the query with url.parse + querystring, as the article rewrote them.
import { assert, assertEquals } from "@std/assert";
import { run } from "../_suite.ts";
import { go, rust } from "../../adapters/mod.ts";
import { needs, runtime } from "../_needs.ts";
import { validateResult } from "../../runners/schema/mod.ts";
import { uuidFile } from "../../workloads/uuid_file.ts";
import { entries, processesMatching, withTmp } from "../_helpers.ts";

const QUICK = { durationSec: 0.5, warmupSec: 0, runs: 1 };

Deno.test(needs([await runtime(go), await runtime(rust)], {
  name: "uuid-file no-params: GET / on deno, node, bun, go and rust writes, reads and deletes a file of nulls",
  fn: () =>
    withTmp(async (tmp) => {
      const result = await run({
        workloads: [uuidFile],
        runtimes: ["deno", "node", "bun", "go", "rust"],
        variants: ["no-params"],
        settings: QUICK,
        tempDir: tmp,
      });
      assertEquals(validateResult(result), []);
      assertEquals(result.records.map((r) => r.runtime.name), ["deno", "node", "bun", "go", "rust"]);
      for (const record of result.records) {
        assertEquals(record.status, "completed", `${record.runtime.name}: ${JSON.stringify(record.error)}`);
        assertEquals(record.variant, "no-params");
        // The only request under load was the bare path, answered with the nulls, and every one was checked.
        const body = record.verification.checks.find((c) => c.name.startsWith("GET / body"));
        assertEquals(body?.passed, true, JSON.stringify(record.verification.checks.slice(0, 5)));
        assertEquals(body?.expected, '{"q1":null,"q2":null,"q3":null,"q4":null}');
        assertEquals(record.runs[0].counts.mismatches, 0);
        assert(record.runs[0].figures.validResponses > 0);
        assertEquals(
          record.verification.checks.find((c) => c.name === "run 1: files left in the data directory")?.actual,
          0,
        );
      }
      assertEquals(await processesMatching(tmp), []);
      assertEquals(await entries(tmp), []);
    }),
}));

Deno.test("uuid-file url-parse: deno, node and bun parse with url.parse + querystring and echo every query exactly", () =>
  withTmp(async (tmp) => {
    const result = await run({
      workloads: [uuidFile],
      runtimes: ["deno", "node", "bun"],
      variants: ["url-parse"],
      settings: QUICK,
      tempDir: tmp,
    });
    assertEquals(validateResult(result), []);
    const byRuntime = new Map(result.records.map((r) => [r.runtime.name, r]));
    for (const name of ["deno", "node", "bun"]) {
      const record = byRuntime.get(name)!;
      assertEquals(record.status, "completed", `${name}: ${JSON.stringify(record.error)}`);
      assertEquals(record.facts.queryParser, "url.parse + querystring.parse");
      // The same 256 seeded queries as the default variant, percent-encoded and multi-byte, every body compared.
      assertEquals(record.facts.distinctRequests, 256);
      assert(record.verification.passed, name);
      assertEquals(record.runs[0].counts.mismatches, 0);
      // The server really ran the legacy parser: its command carries the variant's argument.
      assertEquals(record.command?.at(-1), "url-parse");
    }
    assertEquals(await processesMatching(tmp), []);
  }));
