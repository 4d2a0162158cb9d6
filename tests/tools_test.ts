// README walk: shows claims of README "Other load generators" (CI paragraph).
// A test that needs a missing tool is ignored on a developer's machine, and fails the run under CI=true: CI cannot
// pass by skipping what it claims to test.
import { assertEquals, assertMatch, assertStringIncludes } from "@std/assert";
import { ROOT } from "./_helpers.ts";

async function runNeedingMissingTool(ci: boolean): Promise<{ code: number; out: string }> {
  const dir = await Deno.makeTempDir({ prefix: "rtbench-tools-" });
  try {
    const file = `${dir}/needs_test.ts`;
    await Deno.writeTextFile(
      file,
      `import { requireTool } from "${ROOT}tests/_tools.ts";\n` +
        `const absent = requireTool("rtbench-no-such-tool", "apt-get install nothing") === null;\n` +
        `Deno.test({ name: "needs the tool", ignore: absent, fn() {} });\n`,
    );
    const env: Record<string, string> = { NO_COLOR: "1", CI: ci ? "true" : "" };
    const out = await new Deno.Command(Deno.execPath(), {
      args: ["test", "--allow-read", "--allow-env", `--config=${ROOT}deno.json`, file],
      env,
      stdout: "piped",
      stderr: "piped",
    }).output();
    const dec = new TextDecoder();
    return { code: out.code, out: dec.decode(out.stdout) + dec.decode(out.stderr) };
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

// README (Tests and CI): "under CI=true a test that needs a missing tool fails instead of being ignored".
Deno.test("a missing tool ignores its tests outside CI and fails the run under CI=true", async () => {
  const dev = await runNeedingMissingTool(false);
  assertEquals(dev.code, 0, dev.out);
  assertStringIncludes(dev.out, "skipping the tests that need rtbench-no-such-tool");
  assertMatch(dev.out, /needs the tool \.\.\. ignored/);
  const ci = await runNeedingMissingTool(true);
  assertEquals(ci.code, 1, ci.out);
  assertMatch(ci.out, /rtbench-no-such-tool is installed, as CI requires \.\.\. FAILED/);
  assertStringIncludes(ci.out, "under CI=true a test that needs it must run, not be ignored");
});
