// README walk: shows claims of README "Reports and comparisons" (`--format`, `--out`).
// bench --format: with --out the report goes to the file and the result JSON
// beside it; without --out the report is the only thing on stdout; clashing
// flags exit 2 on one line.
import { assert, assertEquals, assertMatch } from "@std/assert";
import { formatCsv, formatMarkdown } from "../runners/report/mod.ts";
import { parseResult } from "../runners/schema/mod.ts";
import { BENCH_PERMISSIONS, entries, privateTmp, processesMatching, ROOT, runCli } from "./_helpers.ts";
import { markdownRow, shows } from "./_report_helpers.ts";

const QUICK = ["--workload", "http-json", "--runtime", "deno", "--duration", "0.5", "--warmup", "0", "--runs", "1"];

Deno.test("bench --format md --out r.md writes the report and r.json, prints the table, a line per record", async () => {
  const tmp = await privateTmp();
  const run = await runCli([...QUICK, "--format", "md", "--out", `${tmp}/r.md`], { TMPDIR: tmp });
  assertEquals(run.code, 0, run.stderr);
  const result = parseResult(await Deno.readTextFile(`${tmp}/r.json`));
  const md = await Deno.readTextFile(`${tmp}/r.md`);
  assertEquals(md, formatMarkdown(result));
  const record = result.records[0];
  const row = markdownRow(md, `deno ${record.runtime.version}`);
  assert(shows(row[1], record.summary.requestsPerSecond.median), `${row[1]} is the JSON's median`);
  assertMatch(run.stdout, /^deno [\d.]+ +[\d,]+\/s/m, "the terminal table on stdout");
  // README "Reports and comparisons" (Progress): not a terminal, so a plain line per record and no redraws.
  assert(!run.stderr.includes("\x1b[") && !run.stderr.includes("\r"), "stderr is not a terminal: nothing redrawn");
  assertMatch(
    run.stderr,
    /^\[0:\d\d\] ✓ http-json \(default\) · deno [\d.]+: [\d,]+\/s requestsPerSecond · p99 .*\nReport written to .*r\.md\nResult written to .*r\.json\n$/,
  );
  assertEquals(await processesMatching(tmp), []);
  assertEquals((await entries(tmp)).sort(), ["r.json", "r.md"]);
  await Deno.remove(tmp, { recursive: true });
});

Deno.test("bench --format csv without --out: the CSV is all of stdout; the result goes to results/", async () => {
  const tmp = await privateTmp();
  // Run from an empty directory so the default results/ folder lands there.
  const out = await new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "--config",
      `${ROOT}deno.json`,
      ...BENCH_PERMISSIONS,
      `${ROOT}runners/cli/bench.ts`,
      ...QUICK,
      "--format",
      "csv",
    ],
    cwd: tmp,
    env: { TMPDIR: tmp, NO_COLOR: "1" },
    stdout: "piped",
    stderr: "piped",
  }).output();
  const stderr = new TextDecoder().decode(out.stderr);
  assertEquals(out.code, 0, stderr);
  const files = await entries(`${tmp}/results`);
  assertEquals(files.length, 1);
  assertMatch(files[0], /^rtbench-\d{8}-\d{6}\.json$/);
  const result = parseResult(await Deno.readTextFile(`${tmp}/results/${files[0]}`));
  assertEquals(new TextDecoder().decode(out.stdout), formatCsv(result));
  assertMatch(stderr, /Result written to results\/rtbench-/);
  assertEquals(await entries(tmp), ["results"]);
  await Deno.remove(tmp, { recursive: true });
});

Deno.test("bench: bad --format and clashing --out/--json exit 2 with one line", async () => {
  const cases: [string[], RegExp][] = [
    [["--format", "xml"], /--format: unknown format "xml" \(allowed: table, md, csv, json, html\)/],
    [["--format", "html", "--out", "r.json"], /--out: r\.json would be both the html report and the result file/],
    [["--format", "md", "--json"], /--format md and --json both print to stdout/],
  ];
  for (const [args, message] of cases) {
    const run = await runCli(args);
    assertEquals(run.code, 2, `${args.join(" ")}: ${run.stderr}`);
    const lines = run.stderr.trim().split("\n");
    assertEquals(lines.length, 1, run.stderr);
    assertMatch(lines[0], message);
    assertEquals(run.stdout, "");
  }
});
