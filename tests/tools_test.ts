// README walk: shows claims of docs/development.md "Tests" (the two tiers, skips listed at the end, CI=true, one helper for skips,
// one set of helpers, the CI paragraph). A test that needs what the machine lacks is ignored on a developer's machine and listed,
// with why, at the end of the run; under CI=true it fails: CI cannot pass by skipping what it claims to test.
import { assert, assertEquals, assertMatch, assertStringIncludes } from "@std/assert";
import { ROOT, runTask, withTmp } from "./_helpers.ts";
import { UNIT_TESTS } from "./_run.ts";

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
  // The list is the last thing the run prints.
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

/** Every test file of the repository, relative to the root. */
async function testFiles(): Promise<string[]> {
  const files: string[] = [];
  const walk = async (dir: string) => {
    for await (const e of Deno.readDir(`${ROOT}${dir}`)) {
      if (e.isDirectory && !["node_modules", ".git", "fixtures", "servers"].includes(e.name)) {
        await walk(`${dir}${e.name}/`);
      } else if (e.isFile && e.name.endsWith("_test.ts")) files.push(`${dir}${e.name}`);
    }
  };
  await walk("");
  return files.sort();
}

// docs/development.md (Tests): "Every skip goes through one helper, `needs()` in `tests/_needs.ts`".
Deno.test("every test that can be ignored is ignored through needs(), which lists it and fails it under CI", async () => {
  const bypassing = [];
  for (const file of await testFiles()) {
    const text = await Deno.readTextFile(`${ROOT}${file}`);
    if (/\bignore:/.test(text) || /Deno\.test\.ignore\(/.test(text)) bypassing.push(file);
  }
  assertEquals(bypassing, [], "a test file that ignores a test without needs()");
});

// docs/development.md (Tests): "The tests share one set of helpers, `tests/_helpers.ts`".
Deno.test("tests clean up through the shared helpers: temporary directories, environment changes, task runs", async () => {
  const rules: [RegExp, string][] = [
    [/\b(privateTmp|databaseTmp|Deno\.makeTempDir)\(/, "a temporary directory without withTmp(), which removes it"],
    [/\bDeno\.env\.(set|delete)\(/, "an environment change without withEnv(), which restores it"],
    [/\.tasks\b|\btasks\[/, "a deno task run without runTask()"],
  ];
  const found: string[] = [];
  for (const file of await testFiles()) {
    const lines = (await Deno.readTextFile(`${ROOT}${file}`)).split("\n");
    lines.forEach((line, i) => {
      for (const [rule, what] of rules) if (rule.test(line)) found.push(`${file}:${i + 1}: ${what}`);
    });
  }
  // Three read the task table itself: the unit tier's definition, the ok task's doc lint, every task's entry file.
  const reading = ["tests/tools_test.ts", "tests/public_api_test.ts", "tests/abrupt_exit_test.ts"];
  assertEquals(found.filter((f) => !reading.some((r) => f.startsWith(r) && f.includes("runTask"))), []);
});

// docs/development.md (Tests): "`test:unit` … runs without `--allow-net` and `--allow-run` … The list is `UNIT_TESTS`".
Deno.test("the unit tier is a list of existing test files, run without --allow-net and --allow-run", async () => {
  const all = await testFiles();
  for (const file of UNIT_TESTS) assert(all.includes(file), `${file} is a test file`);
  const tasks = JSON.parse(await Deno.readTextFile(`${ROOT}deno.json`)).tasks;
  assertEquals(tasks["test:unit"], `${tasks.test} --unit`);
});

// docs/development.md (Tests, CI): "CI (`.ci/run`) installs every tool a test needs — wrk, hyperfine, chromium,
// inotify-tools from Debian, bombardier with `go install`, oha with `cargo install` (built in the background while the
// doc tests run …) — and runs the tests with `CI=true`".
Deno.test(".ci/run installs every tool the tests need, runs all but oha's tests while oha builds, then those, under CI=true", async () => {
  const script = await Deno.readTextFile(`${ROOT}.ci/run`);
  const debian = /packages=\(([^)]*)\)/.exec(script)?.[1].trim().split(/\s+/) ?? [];
  // Each tool a test asks for (tool() in tests/), and the Debian package .ci/run gets it from.
  const source: Record<string, string> = {
    wrk: "wrk",
    hyperfine: "hyperfine",
    inotifywait: "inotify-tools",
    python3: "python3",
    script: "bsdutils",
    prlimit: "util-linux",
    taskset: "util-linux",
    chromium: "chromium",
    chattr: "e2fsprogs",
  };
  for (const pkg of Object.values(source)) assert(debian.includes(pkg), `apt installs ${pkg}`);
  assertMatch(script, /go" install github\.com\/codesenberg\/bombardier@v[\d.]+/);
  assertMatch(script, /\(nice -n 10 cargo install [^)]*oha[^)]*\) &\n\s*oha_build=\$!/);
  const asked = new Set<string>();
  for (const e of Deno.readDirSync(`${ROOT}tests`)) {
    if (!e.name.endsWith(".ts")) continue;
    const text = Deno.readTextFileSync(`${ROOT}tests/${e.name}`);
    for (const m of text.matchAll(/\btool\(\s*\[?\s*"([^"]+)"/g)) asked.add(m[1]);
  }
  asked.delete("rtbench-no-such-tool");
  assert(asked.has("wrk") && asked.has("chromium"), [...asked].join());
  for (const name of asked) {
    assert(name in source || name === "bombardier" || name === "oha", `.ci/run provides ${name}, which a test needs`);
  }
  // README intro: "These two commands work on a machine with only Node.js and npm: Deno itself comes from npm" — CI
  // runs them so, on a clean clone.
  assertMatch(script, /git clone --quiet "\$repo"/);
  // oha builds first, before the Debian packages; everything else runs while it builds.
  assert(script.indexOf("oha_build=$!") < script.indexOf("apt-get install"), "oha's build starts first");
  const doc = script.search(/npx -y deno@2 task test:doc\n/);
  const unit = script.search(/npx -y deno@2 task test:unit\n/);
  const rest = script.search(/CI=true [^\n]*npx -y deno@2 task test --ignore=[^\n]*oha_tests/);
  const wait = script.indexOf('wait "$oha_build"');
  const last = script.search(/CI=true [^\n]*npx -y deno@2 task test "\$\{oha_tests\[@\]\}"\n/);
  assert(
    0 < doc && doc < unit && unit < rest && rest < wait && wait < last,
    "all but oha's tests; then oha's, CI=true",
  );
  // The two parts are the whole suite: the files the second runs are exactly those that drive oha.
  const listed = /oha_tests=\(([^)]*)\)/.exec(script)![1].trim().split(/\s+/).sort();
  const drive = [...Deno.readDirSync(`${ROOT}tests`)].map((e) => e.name).filter((n) => n.endsWith("_test.ts"))
    // This file names oha's generator in the pattern below, and drives nothing.
    .filter((n) => n !== "tools_test.ts")
    .filter((n) => /ohaGenerator|tool\(\s*"oha"/.test(Deno.readTextFileSync(`${ROOT}tests/${n}`)))
    .map((n) => `tests/${n}`).sort();
  assertEquals(listed, drive);
});
