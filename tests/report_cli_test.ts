// README walk: shows claims of README "Reports and comparisons" (`deno task report`).
// `deno task report <result.json> --format ...` renders a stored result with
// every exporter, to stdout or a file, and refuses bad input on one line.
import { assert, assertEquals, assertMatch } from "@std/assert";
import { EXPORT_FORMATS, exportResult } from "../runners/report/mod.ts";
import { entries, privateTmp, ROOT } from "./_helpers.ts";
import { HEAD_PATH, loadFixture } from "./_report_helpers.ts";

const head = await loadFixture(HEAD_PATH);

async function reportCli(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const tasks = JSON.parse(await Deno.readTextFile(`${ROOT}deno.json`)).tasks;
  const permissions = tasks.report.split(" ").filter((a: string) => a.startsWith("--allow-"));
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", ...permissions, `${ROOT}runners/cli/report.ts`, ...args],
    cwd: ROOT,
    env: { NO_COLOR: "1" },
    stdout: "piped",
    stderr: "piped",
  }).output();
  const dec = new TextDecoder();
  return { code: out.code, stdout: dec.decode(out.stdout), stderr: dec.decode(out.stderr) };
}

Deno.test("report renders a stored result in every format, byte for byte what the exporter returns", async () => {
  for (const format of EXPORT_FORMATS) {
    const run = await reportCli([HEAD_PATH, "--format", format]);
    assertEquals(run.code, 0, `${format}: ${run.stderr}`);
    assertEquals(run.stdout, exportResult(head, format), format);
    assertEquals(run.stderr, "");
  }
  const table = await reportCli([HEAD_PATH]);
  assertEquals(table.stdout, exportResult(head, "table"), "table is the default");
});

Deno.test("report --out writes the file and says so", async () => {
  const tmp = await privateTmp();
  const run = await reportCli([HEAD_PATH, "--format", "html", "--out", `${tmp}/r.html`]);
  assertEquals(run.code, 0, run.stderr);
  assertEquals(run.stdout, "");
  assertEquals(await Deno.readTextFile(`${tmp}/r.html`), exportResult(head, "html"));
  assertMatch(run.stderr, /Report written to .*r\.html/);
  assertEquals(await entries(tmp), ["r.html"]);
  await Deno.remove(tmp, { recursive: true });
});

Deno.test("report: bad input exits 2 with one line naming the flag or file", async () => {
  const tmp = await privateTmp();
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
    const run = await reportCli(args);
    assertEquals(run.code, 2, `${args.join(" ")}: ${run.stderr}`);
    const lines = run.stderr.trim().split("\n");
    assertEquals(lines.length, 1, run.stderr);
    assertMatch(lines[0], /^rtbench report: /);
    assertMatch(lines[0], message);
    assert(!run.stderr.includes("    at "), "no stack trace");
    assertEquals(run.stdout, "");
  }
  await Deno.remove(tmp, { recursive: true });
});
