// README walk: shows claims of docs/guide.md "Reports and comparisons" (`deno task report`).
// `deno task report <result.json> --format ...` renders a stored result with
// every exporter, to stdout or a file, and refuses bad input on one line.
import { assert, assertEquals, assertMatch } from "@std/assert";
import { EXPORT_FORMATS, exportResult } from "../../runners/report/mod.ts";
import { readResultFile } from "../../runners/schema/mod.ts";
import { assertNothingLeft, ROOT, runTask, withTmp } from "../_helpers.ts";
import { assertRenders, HEAD_PATH, loadFixture } from "../_report_helpers.ts";

const head = await loadFixture(HEAD_PATH);

Deno.test("report renders a stored result in every format, each showing the file's figures", async () => {
  assertEquals([...EXPORT_FORMATS].sort(), ["csv", "html", "json", "md", "table"]);
  for (const format of EXPORT_FORMATS) {
    const run = await runTask("report", [HEAD_PATH, "--format", format]);
    assertEquals(run.code, 0, `${format}: ${run.stderr}`);
    assertEquals(run.stderr, "");
    assertRenders(format, run.stdout, head);
  }
  // docs/guide.md (Formats): "`json` — the result document itself, byte for byte the result file".
  const json = await runTask("report", [HEAD_PATH, "--format", "json"]);
  assertEquals(json.stdout, await Deno.readTextFile(HEAD_PATH));
  const table = await runTask("report", [HEAD_PATH]);
  assertRenders("table", table.stdout, head);
  assertMatch(table.stdout, /^At a glance\n/, "table is the default");
});

// docs/reference.md (Commands): `rtbench report` (the report task) prints, byte for byte, what the exporter renders
// from the stored file, as the report entry did before the commands became one command line.
Deno.test("rtbench report prints each stored result byte for byte as the exporters render it", async () => {
  for (const name of ["base", "head", "server-cpus-1"]) {
    const path = `${ROOT}fixtures/results/${name}.json`;
    const result = await readResultFile(path);
    for (const format of EXPORT_FORMATS) {
      const run = await runTask("report", [path, "--format", format]);
      assertEquals([run.code, run.stderr], [0, ""], `${name} ${format}`);
      assert(run.stdout === exportResult(result, format), `${name} ${format}: not byte for byte the exporter's text`);
    }
  }
});

Deno.test("report --out writes the file and says so", async () => {
  await withTmp(async (tmp) => {
    const run = await runTask("report", [HEAD_PATH, "--format", "html", "--out", `${tmp}/r.html`]);
    assertEquals(run.code, 0, run.stderr);
    assertEquals(run.stdout, "");
    assertRenders("html", await Deno.readTextFile(`${tmp}/r.html`), head);
    assertMatch(run.stderr, /Report written to .*r\.html/);
    await assertNothingLeft(tmp, ["r.html"]);
  });
});

Deno.test("report: bad input exits 2 with one line naming the flag or file", async () => {
  await withTmp(async (tmp) => {
    await Deno.writeTextFile(`${tmp}/empty.json`, "");
    const cases: [string[], RegExp][] = [
      [[], /Expected one result file, got 0/],
      [[HEAD_PATH, HEAD_PATH], /Expected one result file, got 2/],
      [[`${tmp}/nope.json`], /Cannot read .*nope\.json: no such file/],
      [[tmp], /Cannot read .*: is a directory/],
      [[`${tmp}/empty.json`], /empty\.json is not an rtbench result: Invalid result at \/: not JSON/],
      [[HEAD_PATH, "--format", "pdf"], /--format: unknown format "pdf" \(allowed: table, md, csv, json, html\)/],
      [[HEAD_PATH, "--out", "/dev/null/r.md"], /--out: cannot write \/dev\/null\/r\.md \(a part of the path is a file/],
      [[HEAD_PATH, "--colour"], /Unknown flag --colour/],
    ];
    for (const [args, message] of cases) {
      const run = await runTask("report", args);
      assertEquals(run.code, 2, `${args.join(" ")}: ${run.stderr}`);
      const lines = run.stderr.trim().split("\n");
      assertEquals(lines.length, 1, run.stderr);
      assertMatch(lines[0], /^rtbench report: /);
      assertMatch(lines[0], message);
      assert(!run.stderr.includes("    at "), "no stack trace");
      assertEquals(run.stdout, "");
    }
  });
});
