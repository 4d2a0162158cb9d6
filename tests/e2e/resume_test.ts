// README walk: shows claims of docs/guide.md "Nothing lost: `--resume`".
// --resume: done records (completed, invalid, skipped) are kept as they are, errored and missing ones are
// measured into the same file; a file measured with other settings is refused, one line, exit 2, untouched.
import { assert, assertEquals, assertMatch, assertNotEquals } from "@std/assert";
import { parseResult } from "../../runners/schema/mod.ts";
import type { BenchRecord, BenchResult } from "../../runners/schema/result.ts";
import { entries, processesWithTmpdir, runCli, withTmp } from "../_helpers.ts";

const SUITE = [
  "--workload",
  "http-json",
  "--runtime",
  "deno,node,bun",
  "--duration",
  "0.3",
  "--warmup",
  "0",
  "--runs",
  "1",
  // What is kept and what is measured again is the point, not what a run measures.
  "--cpu-rate",
  "0",
  "--idle-connections",
  "0",
];

// One real suite, shared by the tests below (each works on its own copy).
let base: BenchResult | undefined;
async function baseResult(): Promise<BenchResult> {
  if (base) return base;
  base = await withTmp(async (tmp) => {
    const cli = await runCli([...SUITE, "--out", `${tmp}/r.json`], { TMPDIR: tmp });
    assertEquals(cli.code, 0, cli.stderr);
    return parseResult(await Deno.readTextFile(`${tmp}/r.json`));
  });
  return base;
}

/** The base result as a suite interrupted after node errored and before bun ran. */
function interrupted(result: BenchResult): BenchResult {
  const [deno, node] = result.records;
  const errored: BenchRecord = {
    ...node,
    status: "errored",
    error: { phase: "measure", name: "PhaseError", message: "Server exited with code 1 during the measurement" },
    runs: [],
    summary: {},
    latencyUs: null,
    resources: null,
  };
  return { ...result, finishedAt: null, records: [deno, errored] };
}

Deno.test("--resume keeps done records, measures errored and missing ones into the same file", async () => {
  await withTmp(async (tmp) => {
    const file = `${tmp}/r.json`;
    const before = interrupted(await baseResult());
    await Deno.writeTextFile(file, JSON.stringify(before, null, 2));
    const cli = await runCli(["--resume", file], { TMPDIR: tmp });
    assertEquals(cli.code, 0, cli.stderr);
    const after = parseResult(await Deno.readTextFile(file));
    assertEquals(after.records.map((r) => r.id), [
      "http-json/default/deno",
      "http-json/default/node",
      "http-json/default/bun",
    ]);
    assertEquals(after.records[0], before.records[0], "the completed record is kept as it was");
    assertEquals(after.records[1].status, "completed", "the errored record is measured again");
    assertNotEquals(after.records[1].startedAt, before.records[1].startedAt);
    assertEquals(after.records[2].status, "completed", "the missing record is measured");
    assertEquals(after.startedAt, before.startedAt, "the suite keeps its first start");
    assert(after.finishedAt !== null);
    assertMatch(after.warnings.find((w) => w.code === "resumed")!.message, /from 1 done records; 2 measured now/);
    assertEquals(await processesWithTmpdir(tmp), []);
    assertEquals(await entries(tmp), ["r.json"]);
    // Nothing left to do: a second resume measures nothing and changes no record.
    const again = await runCli(["--resume", file], { TMPDIR: tmp });
    assertEquals(again.code, 0, again.stderr);
    assertEquals(parseResult(await Deno.readTextFile(file)).records, after.records);
  });
});

// docs/guide.md "Faults tried": "`--resume` with other settings or on another machine"; "missing, corrupted …
// `--resume`".
Deno.test("--resume refuses other settings, another machine, a corrupted file: one line, exit 2, file untouched", async () => {
  await withTmp(async (tmp) => {
    const file = `${tmp}/r.json`;
    const good = interrupted(await baseResult());
    const cases: [string, BenchResult | string, string[], RegExp][] = [
      [
        "settings",
        good,
        ["--duration", "2"],
        /^rtbench: --resume .*r\.json: --duration 2 differs from the file's 0\.3 \(resume with the same flags\)$/,
      ],
      ["runtimes", good, ["--runtime", "deno"], /--runtime deno differs from the file's deno,node,bun/],
      ["profile", good, ["--profile", "full"], /--profile full differs from the file's quick/],
      ["host", good, ["--host", "0.0.0.0"], /--host 0\.0\.0\.0 differs from the file's 127\.0\.0\.1/],
      [
        "machine",
        { ...good, environment: { ...good.environment, cpuModel: "Imaginary CPU 9000" } },
        [],
        /measured with CPU model "?Imaginary CPU 9000"?, this machine has .* \(start a new file\)$/,
      ],
      [
        "runtime version",
        {
          ...good,
          records: [{ ...good.records[0], runtime: { ...good.records[0].runtime, version: "0.0.1" } }, good.records[1]],
        },
        [],
        /http-json\/default\/deno measured deno 0\.0\.1, now deno \S+ is found \(start a new file\)$/,
      ],
      [
        "corrupted",
        '{"schemaVersion": 1, "records": [',
        [],
        /^rtbench: --resume: .*r\.json is not an rtbench result: /,
      ],
      ["--out", good, ["--out", `${tmp}/other.json`], /^rtbench: --out: with --resume, results go to /],
    ];
    for (const [what, content, flags, message] of cases) {
      const text = typeof content === "string" ? content : JSON.stringify(content, null, 2);
      await Deno.writeTextFile(file, text);
      const cli = await runCli(["--resume", file, ...flags], { TMPDIR: tmp });
      assertEquals(cli.code, 2, `${what}: ${cli.stderr}`);
      const lines = cli.stderr.trim().split("\n");
      assertEquals(lines.length, 1, `${what}: one line, got\n${cli.stderr}`);
      assertMatch(lines[0], message, what);
      assertEquals(await Deno.readTextFile(file), text, `${what}: the file is untouched`);
    }
    const missing = await runCli(["--resume", `${tmp}/nope.json`], { TMPDIR: tmp });
    assertEquals(missing.code, 2);
    assertMatch(missing.stderr.trim(), /^rtbench: --resume: Cannot read .*nope\.json: no such file$/);
    assertEquals(await entries(tmp), ["r.json"]);
  });
});
