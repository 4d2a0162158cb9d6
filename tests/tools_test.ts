// README walk: shows claims of README "Other load generators" (CI paragraph).
// A test that needs a missing tool is ignored on a developer's machine, and fails the run under CI=true: CI cannot
// pass by skipping what it claims to test.
import { assert, assertEquals, assertMatch, assertStringIncludes } from "@std/assert";
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

// README (Other load generators, CI): "CI (`.ci/run`) installs every tool a test needs — wrk, hyperfine, chromium,
// inotify-tools from Debian, bombardier with `go install`, oha with `cargo install` (built in the background while the
// doc tests run …) — and runs the tests with `CI=true`".
Deno.test(".ci/run installs every tool the tests require, runs the doc tests while oha builds, then the tests under CI=true", async () => {
  const script = await Deno.readTextFile(`${ROOT}.ci/run`);
  const debian = /packages=\(([^)]*)\)/.exec(script)?.[1].trim().split(/\s+/) ?? [];
  // Each tool a test asks for (requireTool), and where .ci/run gets it.
  const source: Record<string, string> = {
    wrk: "wrk",
    hyperfine: "hyperfine",
    inotifywait: "inotify-tools",
    python3: "python3",
    script: "bsdutils",
    prlimit: "util-linux",
  };
  for (const pkg of [...Object.values(source), "chromium"]) assert(debian.includes(pkg), `apt installs ${pkg}`);
  assertMatch(script, /go" install github\.com\/codesenberg\/bombardier@v[\d.]+/);
  assertMatch(script, /\(cargo install [^)]*oha[^)]*\) &\n\s*oha_build=\$!/);
  const tests = [...Deno.readDirSync(`${ROOT}tests`)].filter((e) => e.name.endsWith(".ts"));
  const asked = new Set<string>();
  for (const e of tests) {
    const text = Deno.readTextFileSync(`${ROOT}tests/${e.name}`);
    for (const m of text.matchAll(/requireTool\(\s*"([^"]+)"/g)) asked.add(m[1]);
  }
  asked.delete("rtbench-no-such-tool");
  for (const tool of asked) {
    assert(
      tool in source || tool === "bombardier" || tool === "oha",
      `.ci/run provides ${tool}, which a test requires`,
    );
  }
  // README intro: "These two commands work on a machine with only Node.js and npm: Deno itself comes from npm" — CI
  // runs them so, on a clean clone.
  assertMatch(script, /npx -y deno@2 task test:doc\n/);
  assertMatch(script, /npx -y deno@2 task test\n/);
  assertMatch(script, /git clone --quiet "\$repo"/);
  const doc = script.indexOf("task test:doc");
  const wait = script.indexOf('wait "$oha_build"');
  const ci = script.search(/CI=true [^\n]*task test\n/);
  assert(
    doc > 0 && doc < wait && wait < ci,
    "doc tests run while oha builds; the tests wait for it and run under CI=true",
  );
});
