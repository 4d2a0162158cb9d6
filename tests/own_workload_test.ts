// The README's "Write your own workload", proven: the section's files are byte for byte the ones in
// tests/fixtures/own_workload/, and its command runs them from another Deno program (no edit to rtbench), measuring
// all three runtimes into a valid result. A broken expectation in the same user-defined workload is caught.

import { assert, assertEquals, assertMatch } from "@std/assert";
import { run } from "../runners/suite/run.ts";
import { parseResult } from "../runners/schema/mod.ts";
import { validateWorkload } from "../workloads/validate.ts";
import type { HttpWorkload } from "../workloads/types.ts";
import { greet } from "./fixtures/own_workload/greet.ts";
import { assertNothingLeft, ROOT, withTmp } from "./_helpers.ts";

const FIXTURE = `${ROOT}tests/fixtures/own_workload/`;

/** The README's "Write your own workload" section, up to the next heading of its level or above. */
async function section(): Promise<string> {
  const readme = await Deno.readTextFile(`${ROOT}README.md`);
  const start = readme.indexOf("\n### Write your own workload\n");
  assert(start >= 0, "README has a Write your own workload section");
  const end = readme.slice(start + 1).search(/\n#{1,3} /);
  return end === -1 ? readme.slice(start) : readme.slice(start, start + 1 + end);
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

Deno.test("the README's own-workload files are the tested fixture, byte for byte", async () => {
  const text = await section();
  const blocks = [...text.matchAll(/^```\w+ title="([^"]+)"\n([\s\S]*?)^```$/gm)].map((m) => [m[1], m[2]]);
  assertEquals(blocks.map(([name]) => name).sort(), await fixtureFiles(), "README blocks and fixture files");
  for (const [name, code] of blocks) assertEquals(code, await Deno.readTextFile(`${FIXTURE}${name}`), name);
});

Deno.test("the README's command runs the own workload on deno, node and bun into a valid result", async () => {
  const text = await section();
  // The command as the README prints it, minus the redirect: its permissions must be enough.
  const line = /^deno run (.+) bench\.ts > greet\.json$/m.exec(text);
  if (!line) throw new Error("README shows no `deno run ... bench.ts > greet.json` command");
  await withTmp(async (tmp) => {
    const out = await new Deno.Command(Deno.execPath(), {
      args: ["run", ...line[1].split(" "), `${FIXTURE}bench.ts`],
      cwd: ROOT,
      env: { TMPDIR: tmp, NO_COLOR: "1" },
      stdout: "piped",
      stderr: "piped",
      stdin: "null",
    }).output();
    const stdout = new TextDecoder().decode(out.stdout);
    const stderr = new TextDecoder().decode(out.stderr);
    assertEquals(out.code, 0, stderr);

    const result = parseResult(stdout);
    assertEquals(result.settings.workloads, ["greet"]);
    assertEquals(result.records.map((r) => r.id), ["greet/default/deno", "greet/default/node", "greet/default/bun"]);
    const body = JSON.stringify({ greeting: "Hello, JSR!" });
    for (const record of result.records) {
      assertEquals(record.status, "completed", JSON.stringify(record.error));
      assertEquals(record.options, { "greet-name": "JSR" });
      // The workload's quick defaults, not the profile's 2 s × 3 runs.
      assertEquals([record.settings.durationSec, record.runs.length], [1, 1]);
      assert(record.verification.passed);
      const bodyCheck = record.verification.checks.find((c) => c.name === "GET /greet?name=JSR body");
      assertEquals(bodyCheck?.passed, true);
      assertEquals(bodyCheck?.expected, body);
      assert(record.runs[0].figures.validResponses > 0);
      assertEquals(record.runs[0].counts.mismatches, 0);
      // The server that answered is the fixture's own file, run by that runtime.
      assertMatch(record.command!.join(" "), new RegExp(`${record.runtime.name === "node" ? "node\\.mjs" : "\\.ts"}$`));
    }
    for (const name of ["deno", "node", "bun"]) assertMatch(stderr, new RegExp(`^${name} \\d`, "m"));
    await assertNothingLeft(tmp);
  });
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
