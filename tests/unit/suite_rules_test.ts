// README walk: shows claims of docs/development.md "Tests" (the tiers, one helper for skips, one set of helpers, no
// test failing where an optional tool is missing, the CI paragraph): rules read off the test files and .ci/run.
import { assert, assertEquals, assertMatch } from "@std/assert";
import { benchArgs, ROOT, withTmp } from "../_helpers.ts";
import { unguardedOptional } from "../_needs.ts";
import { runsAlone, testFiles, tierOf } from "../_tiers.ts";
import {
  ALL_PERMISSIONS,
  checkedOnce,
  jobsOf,
  keepTimes,
  longestFirst,
  partsOf,
  readTimes,
  UNIT_PERMISSIONS,
} from "../_run.ts";
import { laneEnv, takeLane } from "../_lanes.ts";

// docs/development.md (Tests): "which tier a test is in is where it sits".
Deno.test("every test file sits in a tier's place: beside its code or in tests/unit, tests/e2e, tests/acceptance", async () => {
  const files = await testFiles();
  assert(files.includes("tests/unit/suite_rules_test.ts") && files.includes("runners/stats/paired_test.ts"));
  assertEquals(files.filter((f) => tierOf(f) === null), [], "a test file outside every tier");
  assertEquals(
    ["runners/stats/paired_test.ts", "tests/unit/x_test.ts", "tests/e2e/x_test.ts", "tests/acceptance/x_test.ts"].map(
      tierOf,
    ),
    ["unit", "unit", "e2e", "acceptance"],
  );
  assertEquals(tierOf("tests/x_test.ts"), null);
  const tasks = JSON.parse(await Deno.readTextFile(`${ROOT}deno.json`)).tasks;
  assertEquals(tasks["test:unit"], `${tasks.test} --unit`);
});

// docs/development.md (Tests): "`test` runs the unit tier (under the same permissions), then the other two".
Deno.test("the whole suite runs the unit tier apart, without --allow-net and --allow-run; named files with every permission", async () => {
  assert(!UNIT_PERMISSIONS.some((p) => p === "--allow-net" || p === "--allow-run"));
  const skipped = ["tests/e2e/aa_test.ts", "tests/acceptance/locust_test.ts"];
  const [unit, shared, alone, ...more] = await partsOf(false, ["--filter=x", `--ignore=./${skipped.join(",")}`]);
  assertEquals(more, []);
  assertEquals([unit.permissions, unit.parallel, shared.parallel, alone.parallel], [
    UNIT_PERMISSIONS,
    true,
    true,
    false,
  ]);
  assertEquals(unit.files, (await testFiles()).filter((f) => tierOf(f) === "unit"));
  assertEquals([shared.permissions, alone.permissions], [ALL_PERMISSIONS, ALL_PERMISSIONS]);
  // The files --ignore names are left out of the lists, every one of them (deno test leaves out only some of a list).
  const rest = [...shared.files, ...alone.files].toSorted();
  assertEquals(rest, (await testFiles()).filter((f) => tierOf(f) !== "unit" && !skipped.includes(f)));
  // docs/development.md (Tests): the files that run alone are those whose header says so, and only those.
  const marked = [];
  // Read here with its own pattern, not the runner's, so that a runner misreading the marker fails.
  for (const f of rest) if (/^\/\/ Runs alone: \S/m.test(await Deno.readTextFile(`${ROOT}${f}`))) marked.push(f);
  assertEquals(alone.files.toSorted(), marked);
  assert(marked.length > 0 && marked.length < rest.length / 2, `${marked.length} of ${rest.length} files run alone`);
  assertEquals([unit.flags, shared.flags, alone.flags], [["--filter=x"], ["--filter=x"], ["--filter=x"]]);
  // docs/development.md (Tests): every file type-checked once, before the parts, which then check nothing again.
  assertEquals(checkedOnce([unit, shared, alone]), [...unit.files, ...shared.files, ...alone.files]);
  assertEquals(checkedOnce([unit]), null);
  const noE2e = (await partsOf(false, ["--ignore=tests/e2e"])).flatMap((p) => p.files);
  assertEquals(noE2e.filter((f) => f.startsWith("tests/e2e/")), []);
  assertEquals(await partsOf(true, ["--filter=x"]), [{ ...unit, flags: ["--filter=x"] }]);
  // Named test files: two at a time, those that run alone after.
  assertEquals(await partsOf(false, ["--filter=x", "tests/e2e/aa_test.ts", "./tests/e2e/http_json_test.ts"]), [
    { permissions: ALL_PERMISSIONS, flags: ["--filter=x"], files: ["tests/e2e/http_json_test.ts"], parallel: true },
    { permissions: ALL_PERMISSIONS, flags: ["--filter=x"], files: ["tests/e2e/aa_test.ts"], parallel: false },
  ]);
  assertEquals(await partsOf(false, ["tests/e2e"]), [
    { permissions: ALL_PERMISSIONS, flags: ["tests/e2e"], files: [], parallel: false },
  ]);
  assertEquals(
    checkedOnce([unit, ...await partsOf(false, ["tests/e2e"])]),
    null,
    "a folder: deno test finds the files",
  );
});

// docs/development.md (Tests): two suites at once place their servers on different CPUs.
Deno.test("suites at once take the default lane, then the swapped one, then none; a lane given back is taken again", () =>
  withTmp(async (dir) => {
    const split = () => Promise.resolve({ server: "0", client: "1" });
    const [first, second, third] = [await takeLane(dir, split), await takeLane(dir, split), await takeLane(dir, split)];
    assertEquals([first.cpus, second.cpus, third.cpus], [undefined, { server: "1", client: "0" }, undefined]);
    const args = ["--workload", "http-json"];
    assertEquals(laneEnv(second, args), { RTBENCH_CPUS: "1/0" });
    assertEquals([laneEnv(first, args), laneEnv(second, [...args, "--server-cpus=2"])], [{}, {}]);
    await second.release();
    await third.release();
    const again = await takeLane(dir, split);
    assertEquals(again.cpus, { server: "1", client: "0" });
    await Promise.all([first.release(), again.release()]);
    assertEquals([...Deno.readDirSync(dir)], []);
    // One CPU, or no taskset: nothing to swap.
    const unpinned = await takeLane(dir, () => Promise.resolve({ server: null, client: null }));
    const alsoUnpinned = await takeLane(dir, () => Promise.resolve({ server: null, client: null }));
    assertEquals([unpinned.cpus, alsoUnpinned.cpus], [undefined, undefined]);
  }));

// docs/development.md (Tests): files run two at a time in one process, which has one environment.
Deno.test("tests' bench runs leave out the fixed-rate window and idle connections unless they name them", () => {
  const off = ["--cpu-rate", "0", "--idle-connections", "0"];
  assertEquals(benchArgs(["-w", "http-json"]), [...off, "-w", "http-json"]);
  assertEquals(benchArgs(["--cpu-rate", "5000"]), ["--idle-connections", "0", "--cpu-rate", "5000"]);
  assertEquals(benchArgs(["--idle-connections=10"]), ["--cpu-rate", "0", "--idle-connections=10"]);
  // A file resumed keeps the settings it was measured with.
  assertEquals(benchArgs(["--resume", "r.json"]), ["--resume", "r.json"]);
});

Deno.test("a slow-tier file that changes the process's environment (withEnv) runs alone", async () => {
  const sharing = [];
  for (const file of (await testFiles()).filter((f) => tierOf(f) !== "unit")) {
    const text = await Deno.readTextFile(`${ROOT}${file}`);
    if (/\bwithEnv\(/.test(text) && !await runsAlone(file)) sharing.push(file);
  }
  assertEquals(sharing, [], "a file that sets the process's environment while files beside it run");
});

// docs/development.md (Tests): "Every skip goes through one helper, `needs()` in `tests/_needs.ts`".
Deno.test("every test that can be ignored is ignored through needs(), which lists it and fails it under CI", async () => {
  const bypassing = [];
  for (const file of await testFiles()) {
    const text = await Deno.readTextFile(`${ROOT}${file}`);
    if (/\bignore:/.test(text) || /Deno\.test\.ignore\(/.test(text)) bypassing.push(file);
  }
  assertEquals(bypassing, [], "a test file that ignores a test without needs()");
});

// docs/development.md (Tests): "No test fails because an optional toolchain or load generator is missing".
Deno.test("every test asserting an optional runtime's or generator's record completed is declared through needs()", async () => {
  const found: string[] = [];
  // This file plants such tests in strings, below.
  for (const file of (await testFiles()).filter((f) => f !== "tests/unit/suite_rules_test.ts")) {
    for (const test of unguardedOptional(await Deno.readTextFile(`${ROOT}${file}`))) found.push(`${file}: ${test}`);
  }
  assertEquals(found, []);
});

Deno.test("the optional-record check finds a test measuring rust without needs(), and passes it declared with its need", () => {
  const body = `{
    const result = await run({ workloads: [restApi], runtimes: ["deno", "go", "rust"], tempDir: tmp });
    for (const r of result.records) assertEquals(r.status, "completed");
  }`;
  assertEquals(unguardedOptional(`Deno.test("rest-api on go and rust", async () => ${body});`), [
    'Deno.test("rest-api on go and rust", async () => { (go, rust)',
  ]);
  // A need that is not the runtime's own (Linux, a tool) does not cover it.
  assertEquals(unguardedOptional(`Deno.test(needs(LINUX, { name: "x", async fn() ${body} }));`).length, 1);
  const declared = `Deno.test(needs([await runtime(go), await runtime(rust)], { name: "x", async fn() ${body} }));`;
  assertEquals(unguardedOptional(declared), []);
  // A load generator by name, asserted completed, without needs().
  const oha = `Deno.test("oha", async () => { await run({ loadGenerator: "oha" }); "completed"; });`;
  assertEquals(unguardedOptional(oha).length, 1);
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
  // These read the task table itself: the unit tier's definition, the ok task's doc lint, every task's entry file.
  const reading = ["tests/unit/suite_rules_test.ts", "tests/e2e/public_api_test.ts", "tests/e2e/abrupt_exit_test.ts"];
  assertEquals(found.filter((f) => !reading.some((r) => f.startsWith(r) && f.includes("runTask"))), []);
});

// docs/development.md (CI): "CI (`.ci/run`) installs every tool a test needs … and runs the tests with `CI=true`".
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
  // Every test file, and the helpers beside them (tests/_chromium.ts declares Chromium).
  const helpers = [...Deno.readDirSync(`${ROOT}tests`)].filter((e) => e.name.endsWith(".ts")).map((e) =>
    `tests/${e.name}`
  );
  for (const file of [...await testFiles(), ...helpers]) {
    const text = await Deno.readTextFile(`${ROOT}${file}`);
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
  const doc = script.search(/npx -y deno@2 task test:doc\n/);
  const rest = script.search(/CI=true [^\n]*npx -y deno@2 task test --ignore=[^\n]*oha_tests/);
  const wait = script.indexOf('wait "$build"');
  const last = script.search(/CI=true [^\n]*npx -y deno@2 task test "\$\{oha_tests\[@\]\}"\n/);
  assert(script.indexOf("oha_build=$!") < doc, "oha's build starts before the tests");
  assert(script.indexOf("bombardier_build=$!") < doc, "bombardier's build starts before the tests");
  assertMatch(script, /for build in \$oha_build \$bombardier_build; do/);
  assert(
    0 < doc && doc < rest && rest < wait && wait < last,
    "all but oha's tests; then oha's, CI=true",
  );
  // The two parts are the whole suite: the files the second runs are exactly those that drive oha or bombardier.
  const listed = /oha_tests=\(([^)]*)\)/.exec(script)![1].trim().split(/\s+/).sort();
  const drive = [];
  for (const file of await testFiles()) {
    // The unit tier starts no process (it runs without --allow-run), so it drives no tool, whatever it imports.
    if (tierOf(file) === "unit") continue;
    const text = await Deno.readTextFile(`${ROOT}${file}`);
    if (/ohaGenerator|tool\(\s*"oha"|bombardierGenerator|tool\(\s*"bombardier"/.test(text)) drive.push(file);
  }
  assertEquals(listed, drive.sort());
});

// docs/development.md (Tests): "the files that ran longest last time start first".
Deno.test("two at a time, the files that ran longest last time start first, a file never timed before them", async () => {
  const files = ["a_test.ts", "b_test.ts", "c_test.ts", "d_test.ts", "e_test.ts"];
  // b ran 90 s, d 30 s, a and e 5 s each (a tie keeps its order); c was never timed.
  assertEquals(longestFirst(files, { a_test: 1, "a_test.ts": 5, "b_test.ts": 90, "d_test.ts": 30, "e_test.ts": 5 }), [
    "c_test.ts",
    "b_test.ts",
    "d_test.ts",
    "a_test.ts",
    "e_test.ts",
  ]);
  await withTmp(async (tmp) => {
    const path = `${tmp}/cache/test-times.json`;
    assertEquals(await readTimes(path), {});
    await keepTimes(path, [["a_test.ts", 5.04], ["b_test.ts", 90]]);
    // A later run of one file keeps the other's time.
    await keepTimes(path, [["a_test.ts", 7.26]]);
    assertEquals(await readTimes(path), { "a_test.ts": 7.3, "b_test.ts": 90 });
    await Deno.writeTextFile(path, "not json");
    assertEquals(await readTimes(path), {});
  });
});

// docs/development.md (Tests): "one more file at a time than the machine has CPUs".
Deno.test("end-to-end and acceptance files run one more at a time than the CPUs; the unit tier one a CPU; DENO_JOBS kept", async () => {
  const [unit, shared, alone] = await partsOf(false, []);
  assertEquals([jobsOf(unit, 2, undefined), jobsOf(shared, 2, undefined), jobsOf(alone, 2, undefined)], [
    undefined,
    "3",
    undefined,
  ]);
  assertEquals(jobsOf(shared, 2, "1"), "1");
});
