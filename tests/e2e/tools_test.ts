// README walk: shows claims of docs/development.md "Tests" (skips listed at the end, CI=true, the slowest files, the unit
// tier's permissions). A test that needs what the machine lacks is ignored on a developer's machine and listed, with
// why, at the end of the run; under CI=true it fails: CI cannot pass by skipping what it claims to test. The rules read
// off the test files themselves are tests/unit/suite_rules_test.ts.
import { assert, assertEquals, assertMatch, assertStringIncludes } from "@std/assert";
import { ROOT, runTask, withTmp } from "../_helpers.ts";

/** Runs `deno task test` on one file that has a test needing a missing tool and one needing nothing. */
function runNeedingMissingTool(ci: boolean): Promise<{ code: number; out: string; stdout: string }> {
  return withTmp(async (dir) => {
    const file = `${dir}/needs_test.ts`;
    await Deno.writeTextFile(
      file,
      `import { needs, tool } from "${ROOT}tests/_needs.ts";\n` +
        `const ABSENT = tool("rtbench-no-such-tool", "apt-get install nothing");\n` +
        `Deno.test(needs(ABSENT, { name: "needs the tool", fn() {} }));\n` +
        `Deno.test("needs nothing", () => {});\n`,
    );
    const run = await runTask("test", [file], { env: { CI: ci ? "true" : "" } });
    return { code: run.code, out: run.stdout + run.stderr, stdout: run.stdout };
  });
}

// docs/development.md (Tests): "a test that needs what this machine lacks is ignored, and the run ends by listing each
// skipped test and why"; "under CI=true the same test fails".
Deno.test("a missing tool: its test ignored and listed with why at the end outside CI, failing under CI=true", async () => {
  const dev = await runNeedingMissingTool(false);
  assertEquals(dev.code, 0, dev.out);
  assertMatch(dev.out, /needs the tool \.\.\. ignored/);
  assertMatch(dev.out, /needs nothing \.\.\. ok/);
  // docs/development.md (Tests): "At its end `deno task test` prints the ten slowest files and their times".
  assertMatch(
    dev.stdout,
    /\nSlowest files \(of 1; the whole run took [\d.]+ s\):\n {2}\S*needs_test\.ts {2}\d+\.\d s\n/,
  );
  // The list of skips is the last thing the run prints.
  assertMatch(
    dev.stdout,
    /\nSkipped on this machine: 1 test \(under CI=true each fails instead\)\n {2}needs the tool\n {4}needs: rtbench-no-such-tool is not on PATH \(apt-get install nothing\)\n+$/,
  );
  const ci = await runNeedingMissingTool(true);
  assertEquals(ci.code, 1, ci.out);
  assertMatch(ci.out, /needs the tool \.\.\. FAILED/);
  assertStringIncludes(
    ci.out,
    "rtbench-no-such-tool is not on PATH (apt-get install nothing): under CI=true a test that needs it runs",
  );
  assert(!ci.out.includes("Skipped on this machine"), ci.out);
});

// docs/development.md (Tests): an opt-in (a service CI's machines may not reach, such as jsr.io) is not a missing tool:
// absent, its test is skipped and listed under CI=true too.
Deno.test("an opt-in left unset: its test skipped and listed, under CI=true too", () =>
  withTmp(async (dir) => {
    const file = `${dir}/opt_in_test.ts`;
    await Deno.writeTextFile(
      file,
      `import { needs, optIn } from "${ROOT}tests/_needs.ts";\n` +
        `const CHOSEN = optIn("a service", "RTBENCH_TEST_NO_SUCH_OPT_IN", "reaches a service");\n` +
        `Deno.test(needs(CHOSEN, { name: "needs the service", fn() { throw new Error("ran"); } }));\n`,
    );
    const run = await runTask("test", [file], { env: { CI: "true" } });
    assertEquals(run.code, 0, run.stdout + run.stderr);
    assertMatch(run.stdout, /needs the service \.\.\. ignored/);
    assertStringIncludes(run.stdout, "reaches a service: opt in with RTBENCH_TEST_NO_SUCH_OPT_IN=1");
  }));

// docs/development.md (Tests): "`test:unit` … runs without `--allow-net` and `--allow-run`, so a test added to it that
// starts a server or any other process … fails there".
Deno.test("the unit tier runs without --allow-run: a test there that starts a process fails", () =>
  withTmp(async (dir) => {
    const file = `${dir}/starts_test.ts`;
    await Deno.writeTextFile(
      file,
      `Deno.test("starts a process", async () => { await new Deno.Command("true").output(); });\n`,
    );
    const run = await runTask("test:unit", [file]);
    assertEquals(run.code, 1, run.stdout + run.stderr);
    assertMatch(run.stdout + run.stderr, /starts a process \.\.\. FAILED[\s\S]*NotCapable/);
  }));
