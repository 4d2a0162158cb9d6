// README walk: shows claims of docs/reproduce.md "The articles' experiments, and `deno task reproduce`" (rest-api on Go and Rust).
// 004's stack on the native baselines: Go (net/http, pgx) and Rust (hyper, tokio-postgres) serve rest-api with the
// same middleware as the JavaScript -stack variants (CORS, JWT bearer verification, body validation), verified like
// them and answering byte for byte alike (the variant's parity check runs across all five runtimes).
import { assert, assertEquals } from "@std/assert";
import { run } from "../_suite.ts";
import { validateResult } from "../../runners/schema/mod.ts";
import { restApi } from "../../workloads/rest_api.ts";
import { processesMatching, withTmp } from "../_helpers.ts";
import { go, rust } from "../../adapters/mod.ts";
import { needs, runtime } from "../_needs.ts";

Deno.test(needs([await runtime(go), await runtime(rust)], {
  name: "rest-api default and default-stack on go and rust beside deno: CRUD, edge cases, CORS and JWT alike",
  fn: () =>
    withTmp(async (tmp) => {
      const result = await run({
        workloads: [restApi],
        runtimes: ["deno", "go", "rust"],
        variants: ["default", "default-stack", "express"],
        settings: { durationSec: 0.5, warmupSec: 0.2, runs: 1, connections: 10 },
        tempDir: tmp,
      });
      assertEquals(validateResult(result), []);
      const record = (variant: string, runtime: string) =>
        result.records.find((r) => r.variant === variant && r.runtime.name === runtime)!;
      for (const runtime of ["go", "rust"]) {
        for (const variant of ["default", "default-stack"]) {
          const r = record(variant, runtime);
          assertEquals(r.status, "completed", `${variant} ${runtime}: ${JSON.stringify(r.error)}`);
          assert(r.verification.passed, `${variant} ${runtime}`);
          const names = new Set(r.verification.checks.filter((c) => c.passed).map((c) => c.name));
          assert(names.has("database: PUT /users/:id persisted the update"), `${variant} ${runtime}`);
          assert(names.has("run 1: database: seeded rows unchanged"));
          if (variant === "default-stack") {
            for (
              const check of [
                "CORS: access-control-allow-origin on an answer",
                "CORS: preflight status",
                "CORS: preflight allows the API's methods",
              ]
            ) assert(names.has(check), `${runtime}: ${check}`);
            // Without a token, and with one signed by another secret: 401, with the stack's error body.
            assertEquals(r.verification.checks.filter((c) => c.name.startsWith("JWT: ") && c.passed).length >= 4, true);
          }
          assertEquals(r.runs[0].counts.mismatches, 0);
          assertEquals(r.facts.driver, runtime === "go" ? "pgx (pgxpool)" : "tokio-postgres");
        }
        // Express is a JavaScript framework: skipped on the native baselines, with the reason.
        assertEquals(record("express", runtime).status, "skipped");
      }
      assertEquals(await processesMatching(tmp), []);
    }),
}));
