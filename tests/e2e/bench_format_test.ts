// README walk: shows claims of docs/guide.md "Reports and comparisons" (`--format`, `--out`).
// bench --format: with --out the report goes to the file and the result JSON
// beside it; without --out the report is the only thing on stdout; clashing
// flags exit 2 on one line.
import { assert, assertEquals, assertMatch } from "@std/assert";
import { parseResult } from "../../runners/schema/mod.ts";
import { assertNothingLeft, entries, runCli, runTask, withTmp } from "../_helpers.ts";
import { assertRenders, markdownRow, parseCsv, shows } from "../_report_helpers.ts";

const QUICK = ["--workload", "http-json", "--runtime", "deno", "--duration", "0.5", "--warmup", "0", "--cpu-rate", "0"];

Deno.test("bench --format md --out r.md writes the report and r.json, prints the table, a line per record", async () => {
  await withTmp(async (tmp) => {
    // Two runs, so that the row has an interval to show.
    const run = await runCli([...QUICK, "--runs", "2", "--format", "md", "--out", `${tmp}/r.md`], { TMPDIR: tmp });
    assertEquals(run.code, 0, run.stderr);
    const result = parseResult(await Deno.readTextFile(`${tmp}/r.json`));
    // The report is the result's: its row shows the JSON's median, 95% CI and latency.
    const md = await Deno.readTextFile(`${tmp}/r.md`);
    assertRenders("md", md, result);
    const record = result.records[0];
    const [, , ci, , p50, p99] = markdownRow(md, `deno ${record.runtime.version}`);
    const [low, high] = ci.split(" – ");
    const s = record.summary.requestsPerSecond;
    assert(shows(low, s.ci95!.low) && shows(high, s.ci95!.high), `${ci} is ${JSON.stringify(s.ci95)}`);
    assert(shows(p50, record.latencyUs!.p50) && shows(p99, record.latencyUs!.p99), `${p50} ${p99}`);
    assertRenders("table", run.stdout, result);
    // docs/guide.md "Reports and comparisons" (Progress): not a terminal, so plain lines (the variant, then the record)
    // and no redraws.
    assert(!run.stderr.includes("\x1b[") && !run.stderr.includes("\r"), "stderr is not a terminal: nothing redrawn");
    assertMatch(
      run.stderr,
      /^\[\d+:\d\d\] → http-json \(default\) · ~\d+:\d\d left\n\[0:\d\d\] ✓ http-json \(default\) · deno [\d.]+: [\d,]+\/s requestsPerSecond · p99 .*\nReport written to .*r\.md\nResult written to .*r\.json\n$/,
    );
    await assertNothingLeft(tmp, ["r.json", "r.md"]);
  });
});

Deno.test("bench --format csv without --out: the CSV is all of stdout; the result goes to results/", async () => {
  await withTmp(async (tmp) => {
    // Run from an empty directory so the default results/ folder lands there.
    // Three runs, so that the median differs from the mean.
    const args = [...QUICK, "--runs", "3", "--format", "csv"];
    const run = await runTask("bench", args, { cwd: tmp, env: { TMPDIR: tmp } });
    assertEquals(run.code, 0, run.stderr);
    const files = await entries(`${tmp}/results`);
    assertEquals(files.length, 1);
    assertMatch(files[0], /^rtbench-\d{8}-\d{6}\.json$/);
    const result = parseResult(await Deno.readTextFile(`${tmp}/results/${files[0]}`));
    assertRenders("csv", run.stdout, result);
    assertEquals(parseCsv(run.stdout).at(-1)?.length, parseCsv(run.stdout)[0].length, "nothing but CSV on stdout");
    assertMatch(run.stderr, /Result written to results\/rtbench-/);
    await assertNothingLeft(tmp, ["results"]);
  });
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
