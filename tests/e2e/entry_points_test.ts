// README walk: shows claims of docs/reference.md "Exit codes" (2) and docs/guide.md "Faults tried" (bad input rows): every entry point, one line, no stack trace.
// Bad input at every entry point (bench, report, compare, trend, calibrate, vs-wrk, compare-startup, ws-ceiling):
// one line naming the flag or file, exit 2, never a stack trace, nothing on stdout.
import { assert, assertEquals, assertMatch } from "@std/assert";
import { devTools, runDevTool, runTask, withTmp } from "../_helpers.ts";

const DEV_TOOLS = await devTools();
/** Runs a task of deno.json, or a development tool of runners/dev/ by its name. */
const task = (name: string, args: string[]) => DEV_TOOLS.includes(name) ? runDevTool(name, args) : runTask(name, args);

const modules = "tests/fixtures/modules";

/** The bad inputs, with files made in `tmp`: a corrupted result and a JSON file that is no result. */
async function casesIn(tmp: string): Promise<[string, string[], RegExp][]> {
  const corrupted = `${tmp}/corrupted.json`;
  await Deno.writeTextFile(corrupted, '{"schemaVersion": 1, "records": [');
  const notResult = `${tmp}/not_result.json`;
  await Deno.writeTextFile(notResult, JSON.stringify({ hello: "world" }));
  return [
    [
      "bench",
      ["--workload-file", `${modules}/throws_on_import.ts`],
      /--workload-file .*throws_on_import\.ts: cannot import \(database password missing\)/,
    ],
    [
      "bench",
      ["--workload-file", `${modules}/not_a_workload.ts`],
      /--workload-file .*not_a_workload\.ts \(export default\): not a workload: /,
    ],
    [
      "bench",
      ["--workload-file", `${modules}/no_workload.ts`],
      /--workload-file .*no_workload\.ts: exports no workload/,
    ],
    ["bench", ["--workload-file", `${tmp}/missing.ts`], /--workload-file .*missing\.ts: cannot import/],
    ["bench", ["--workload-file", `${modules}/duplicate_name.ts`], /a workload named "http-json" is already defined/],
    ["bench", ["--workload-file"], /--workload-file needs a path/],
    ["bench", ["--resume", corrupted], /--resume: .*corrupted\.json is not an rtbench result: /],
    ["bench", ["--port", "abc"], /--port must be a number, got "abc"/],
    ["bench", ["--port", "0"], /--port must be a whole number from 1 to 65535, got 0/],
    ["bench", ["--port", "6000"], /--port 6000 is a port fetch refuses to connect to/],
    ["bench", ["--port", "10080"], /--port 10080 is a port fetch refuses to connect to/],
    [
      "bench",
      ["--host", "192.0.2.77"],
      /--host: cannot listen on 192\.0\.2\.77: address 192\.0\.2\.77 is not available here/,
    ],
    [
      "bench",
      ["--out", `${notResult}/r.json`],
      /--out: cannot write .*not_result\.json\/r\.json \(a part of the path is a file/,
    ],
    [
      "bench",
      ["--out", tmp],
      /--out: cannot write .* \(it is a folder; give a file path, for example .*\/rtbench\.json\)/,
    ],
    ["report", [corrupted], /corrupted\.json is not an rtbench result: .*not JSON/],
    ["report", [notResult], /not_result\.json is not an rtbench result: /],
    ["report", [`${tmp}/missing.json`], /Cannot read .*missing\.json: no such file/],
    ["report", [tmp], /Cannot read .*: is a directory/],
    ["report", [notResult, "--frobnicate"], /Unknown flag --frobnicate/],
    ["compare", [corrupted, notResult], /is not an rtbench result/],
    ["compare", [corrupted], /Expected two result files, base and head, got 1/],
    [
      "compare",
      [notResult, notResult, "--fail-on-regression", "x"],
      /--fail-on-regression must be a percentage ≥ 0, got "x"/,
    ],
    ["calibrate", ["--frobnicate"], /Unknown flag --frobnicate/],
    ["calibrate", ["--duration", "x"], /--duration must be a number > 0/],
    ["calibrate", ["--load-generator", "ab"], /--load-generator: unknown load generator "ab"/],
    ["vs-wrk", ["--rounds", "0"], /--rounds must be a whole number ≥ 1/],
    ["vs-wrk", ["stray"], /Unexpected argument "stray"/],
    ["compare-startup", ["--batch", "1"], /--batch must be a whole number ≥ 2/],
    ["compare-startup", ["--variant", "warm"], /--variant: unknown variant "warm"/],
    ["ws-ceiling", ["--message-size", "2"], /--message-size must be a whole number ≥ 8/],
    ["ws-ceiling", ["--frobnicate"], /Unknown flag --frobnicate/],
    ["order-drift", ["--runtime", "deno"], /--runtime needs exactly two runtimes, got 1/],
    ["order-drift", ["--runs", "1"], /--runs must be a whole number ≥ 2/],
    // docs/guide.md "History and trends": a --history that is no directory, or holds a file that is no result, is
    // refused.
    ["trend", [`${tmp}/missing`], /Cannot read history .*missing: no such directory/],
    ["trend", [tmp], /(corrupted|not_result)\.json is not an rtbench result: /],
    [
      "trend",
      ["fixtures/history", "--out", `${notResult}/t.md`],
      /--out: cannot write .*not_result\.json\/t\.md \(a part/,
    ],
    ["trend", [tmp, "--format", "csv"], /--format: unknown format "csv" \(allowed: md, html, json\)/],
    ["bench", ["--fail-on-regression", "5"], /--fail-on-regression needs --history <dir>/],
    ["bench", ["--history", notResult], /--history: .*not_result\.json is not a directory/],
    ["bench", ["--history", tmp], /--history: .*(corrupted|not_result)\.json is not an rtbench result/],
    ["bench", ["--last", "0", "--runtime", "bun"], /--last must be a whole number ≥ 1 and ≤ 10, got "0"/],
  ];
}

// docs/guide.md "Faults tried": "workload module that throws on import, exports no workload or a malformed one, or a
// name taken twice"; "unknown flag, stray argument or bad value"; "missing, corrupted or non-result file"; "`--out` in
// a missing directory" (the `cases` above).
Deno.test("bad input at every entry point: one line, exit 2, no stack trace", async () => {
  await withTmp(async (tmp) => {
    const cases = await casesIn(tmp);
    // Four at a time: each case is a process start, and the machine is small.
    const results: string[] = [];
    for (let i = 0; i < cases.length; i += 4) {
      await Promise.all(
        cases.slice(i, i + 4).map(async ([name, args, message]) => {
          const run = await task(name, args);
          const label = `deno task ${name} ${args.join(" ")}`;
          assertEquals(run.code, 2, `${label}: ${run.stderr}`);
          const lines = run.stderr.trim().split("\n");
          assertEquals(lines.length, 1, `${label}: expected one line, got\n${run.stderr}`);
          assertMatch(lines[0], new RegExp(`^rtbench( ${name === "bench" ? "" : name})?:? `), label);
          assertMatch(lines[0], message, label);
          assert(!run.stderr.includes("    at "), `${label}: no stack trace`);
          assertEquals(run.stdout, "", label);
          results.push(label);
        }),
      );
    }
    assertEquals(results.length, cases.length);
  });
});

Deno.test("--debug shows the stack of a usage error", async () => {
  const run = await task("bench", ["--workload-file", `${modules}/throws_on_import.ts`, "--debug"]);
  assertEquals(run.code, 2);
  assertMatch(run.stderr, /^rtbench: --workload-file .*cannot import/);
  assert(run.stderr.includes("    at "), "a stack with --debug");
});

Deno.test("every entry point answers --help with exit 0", async () => {
  for (const name of ["bench", "report", "compare", "trend", "calibrate", "vs-wrk", "compare-startup", "ws-ceiling"]) {
    const run = await task(name, ["--help"]);
    assertEquals(run.code, 0, `${name}: ${run.stderr}`);
    assertMatch(run.stdout, /--/, name);
  }
});
