// docs/reference.md "Write your own workload", proven: the section's files are byte for byte the ones in
// tests/fixtures/own_workload/ (tests/acceptance/consumer_project_test.ts runs them in a project of their own, as the page
// says), and a broken expectation in the same user-defined workload is caught.

import { assertEquals } from "@std/assert";
import { run } from "../_suite.ts";
import { validateWorkload } from "../../workloads/validate.ts";
import type { HttpWorkload } from "../../workloads/types.ts";
import { greet } from "../fixtures/own_workload/greet.ts";
import { assertNothingLeft, ROOT, withTmp } from "../_helpers.ts";
import { docSection } from "../_docs.ts";

const FIXTURE = `${ROOT}tests/fixtures/own_workload/`;

/** The "Write your own workload" section of docs/reference.md, up to the next heading of its level or above. */
function section(): string {
  return docSection("docs/reference.md", "### Write your own workload");
}

/** Every file the fixture directory holds, relative to it. */
async function fixtureFiles(dir = FIXTURE, prefix = ""): Promise<string[]> {
  const names: string[] = [];
  for await (const e of Deno.readDir(dir)) {
    if (e.isDirectory) names.push(...await fixtureFiles(`${dir}${e.name}/`, `${prefix}${e.name}/`));
    else names.push(`${prefix}${e.name}`);
  }
  return names.sort();
}

Deno.test("the own-workload files of docs/reference.md are the tested fixture, byte for byte", async () => {
  const text = section();
  const blocks = [...text.matchAll(/^```\w+ title="([^"]+)"\n([\s\S]*?)^```$/gm)].map((m) => [m[1], m[2]]);
  assertEquals(
    blocks.map(([name]) => name).sort(),
    await fixtureFiles(),
    "docs/reference.md's blocks and fixture files",
  );
  for (const [name, code] of blocks) assertEquals(code, await Deno.readTextFile(`${FIXTURE}${name}`), name);
});

Deno.test("a wrong expectation in a user-defined workload makes its record invalid, and nothing is measured", async () => {
  const wrong: HttpWorkload = {
    ...validateWorkload(greet, "greet.ts") as HttpWorkload,
    traffic(ctx) {
      const [request] = greet.traffic(ctx).requests;
      return { requests: [{ ...request, expect: { ...request.expect, body: '{"greeting":"Hi, JSR!"}' } }] };
    },
  };
  await withTmp(async (tmp) => {
    const result = await run({
      workloads: [wrong],
      runtimes: ["deno"],
      options: { "greet-name": "JSR" },
      tempDir: tmp,
    });
    const [record] = result.records;
    assertEquals([record.status, record.error?.phase], ["invalid", "verify"]);
    assertEquals(record.runs, []);
    const bodyCheck = record.verification.checks.find((c) => c.name === "GET /greet?name=JSR body");
    assertEquals([bodyCheck?.passed, bodyCheck?.actual], [false, '{"greeting":"Hello, JSR!"}']);
    await assertNothingLeft(tmp);
  });
});
