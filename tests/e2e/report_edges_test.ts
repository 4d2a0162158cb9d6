// README walk: shows claims of docs/guide.md "Reports and comparisons" (CSV columns, charts) and docs/reference.md "Flags" (defaults, --list).
// Reports without rough edges: axis ticks are round numbers, resource series span the sampled window, every CSV row
// says whether its figure is better higher or lower where that means something, the overview's "no difference" line
// says what it counts, a record that never ran is ranked by its workload's figure, --list marks the optional variants,
// and --help and the Flags table of docs/reference.md give the same default for every flag.
import { assert, assertEquals } from "@std/assert";
import { niceTicks } from "../../runners/report/_svg.ts";
import { serverResources } from "../../runners/report/_resources_table.ts";
import { CSV_COLUMNS, formatCsv } from "../../runners/report/mod.ts";
import { formatTable } from "../../runners/report/table.ts";
import type { BenchRecord, BenchResult } from "../../runners/schema/result.ts";
import { run } from "../_suite.ts";
import { startup } from "../../workloads/startup.ts";
import { deno } from "../../adapters/mod.ts";
import { builtinWorkloads } from "../../workloads/mod.ts";
import { BASE_PATH, loadFixture, parseCsv } from "../_report_helpers.ts";
import { runCli, withTmp } from "../_helpers.ts";
import { docSection } from "../_docs.ts";

Deno.test("axis ticks are round numbers: 0.6, not 0.6000000000000001", () => {
  // Steps of 0.2 (by hand: 0, 0.2, …, 1.2 covers 1.1) and of 0.00001.
  assertEquals(niceTicks(0, 1.1, 6), [0, 0.2, 0.4, 0.6, 0.8, 1, 1.2]);
  assertEquals(niceTicks(0, 3.3e-5, 5), [0, 0.00001, 0.00002, 0.00003, 0.00004]);
  for (let max = 0.1; max < 50; max *= 1.37) {
    for (const t of niceTicks(0, max)) assert(String(t).length <= 8, `${t} from niceTicks(0, ${max})`);
  }
});

Deno.test("a run's resource series spans its whole sampled window", async () => {
  // A real 1 s run sampled every 250 ms: its intervals end at 250 … 1000 ms (or later, when the last sample comes
  // after the window), and the series drawn starts at 0 and ends with the last interval.
  const result = await run({
    workloads: [builtinWorkloads.find((w) => w.name === "http-json")!],
    runtimes: ["deno"],
    settings: { durationSec: 1, warmupSec: 0, runs: 1 },
  });
  const [record] = result.records;
  const series = record.runs[0].resources!;
  assert(series.tMs.at(-1)! >= 1000, `sampled to ${series.tMs.at(-1)} ms of a 1000 ms window`);
  const [drawn] = serverResources(record);
  assertEquals(drawn.points[0].tSec, 0);
  assertEquals(drawn.points.at(-1)!.tSec, series.tMs.at(-1)! / 1000);
});

Deno.test("every CSV row says higher_is_better where the figure has a direction", async () => {
  const base = await loadFixture(BASE_PATH);
  const rows = parseCsv(formatCsv(base)).slice(1);
  const col = (name: string) => CSV_COLUMNS.indexOf(name);
  const direction = new Map(rows.map((r) => [r[col("figure")], r[col("higher_is_better")]]));
  // By hand: rates up; times, latency and CPU (the load generator's too) down; the window's length neither.
  assertEquals(direction.get("requestsPerSecond"), "true");
  assertEquals(direction.get("bytesPerSecond"), "true");
  assertEquals(direction.get("validResponses"), "true");
  assertEquals(direction.get("latencyUs.p99"), "false");
  assertEquals(direction.get("latencyUs.stdev"), "false");
  assertEquals(direction.get("durationMs"), "");
  assertEquals(direction.get("clientCpuPercent"), "false");
});

Deno.test("the overview's 'no difference' line says what it counts", async () => {
  const base = await loadFixture(BASE_PATH);
  // Every runtime of base has 3 runs or more: nothing about runs is said.
  assert(base.records.every((r) => r.runs.length >= 2));
  const text = formatTable(base);
  assert(text.includes("No significant difference between runtimes in any workload."), text);
  assert(!text.includes("at least 2 runs"));
  // One runtime measured once: the line says so, with the count.
  const once: BenchResult = {
    ...base,
    records: base.records.map((r, i) => i === 0 ? onlyFirstRun(r) : r),
  };
  assert(
    formatTable(once).includes(
      "No significant difference between runtimes found; in 1 of 1 workloads a pair had fewer than the 2 rounds " +
        "(or 2 runs on each side) an interval needs.",
    ),
  );
});

function onlyFirstRun(r: BenchRecord): BenchRecord {
  const runs = r.runs.slice(0, 1);
  const summary = Object.fromEntries(
    Object.entries(r.summary).map(([k, s]) => [k, { ...s, n: 1, mean: runs[0].figures[k], stdev: 0, ci95: null }]),
  );
  return { ...r, runs, summary: summary as BenchRecord["summary"] };
}

Deno.test("a record that never opened is ranked by its workload's figure (start-up: wallMs, lower better)", () =>
  withTmp(async (tmp) => {
    // A deno whose npm package does not exist: the record errors in provision, before any kind opens it.
    const failing = await run({
      workloads: [startup],
      runtimes: ["deno@1.0.0-rtbench-test"],
      variants: ["hello"],
      adapters: [{
        ...deno,
        npmPackage: "rtbench-test-no-such-package-7f3e",
      }],
      cacheDir: tmp,
    });
    const [record] = failing.records;
    assertEquals([record.status, record.error?.phase], ["errored", "provision"]);
    assertEquals(record.headline, { figure: "wallMs", higherIsBetter: false });
    assert(formatTable(failing).includes("wallMs ↓"), formatTable(failing));
  }));

Deno.test("--list marks the optional variants and those that run only when their workload is named", async () => {
  const list = await runCli(["--list"]);
  assertEquals(list.code, 0);
  const lines = list.stdout.split("\n");
  for (const w of builtinWorkloads) {
    const start = lines.findIndex((l) => l.startsWith(`  ${w.name} `));
    const own = lines.slice(start + 1, start + 1 + w.variants.length);
    for (const [i, v] of w.variants.entries()) {
      const line = own[i];
      assert(line.trim().startsWith(`variant ${v.name}`), `${w.name}/${v.name}: ${line}`);
      assertEquals(line.includes("(optional: runs when named with --variant)"), v.optional === true, line);
      assertEquals(
        line.includes(`(runs when --workload ${w.name} is named)`),
        !v.optional && v.inSuite === false,
        line,
      );
    }
  }
});

Deno.test("--help and the Flags table of docs/reference.md give the same default for every flag", async () => {
  const help = await runCli(["--help"]);
  const helpRows = [...help.stdout.matchAll(/^ {2}(--[a-z0-9-]+)\S*(?: \S+)*? {2,}(.*)$/gm)];
  assert(helpRows.length > 40, `${helpRows.length} flags in --help`);
  const flags = docSection("docs/reference.md", "## Flags");
  const table = new Map(
    flags.split("\n").filter((l) => l.startsWith("| `--")).map((l) => {
      const cells = l.split(/(?<!\\)\|/).map((c) => c.trim());
      return [/`(--[a-z0-9-]+)/.exec(cells[1])![1], cells[3].replaceAll("`", "")];
    }),
  );
  for (const [, flag, meaning] of helpRows) {
    assert(table.has(flag), `the Flags table of docs/reference.md has no row for ${flag}`);
    const stated = /\(default: ([^()]*(?:\([^()]*\))?[^()]*)\)$/.exec(meaning)?.[1] ?? "";
    assertEquals(table.get(flag), stated, `${flag}: docs/reference.md against --help`);
  }
});
