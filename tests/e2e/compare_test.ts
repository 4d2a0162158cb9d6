// README walk: shows claims of docs/guide.md "Reports and comparisons" (compare).
// compare on the stored result pair: the known differences come out as the
// right verdicts, direction is respected for lower-is-better figures,
// --fail-on-regression sets the exit code, and bad input exits 2 on one line.
import { assert, assertAlmostEquals, assertEquals, assertMatch, assertStringIncludes } from "@std/assert";
import { compareResults, type FigureComparison, formatComparison, regressions } from "../../runners/report/compare.ts";
import type { BenchRecord, BenchResult } from "../../runners/schema/result.ts";
import { summarize } from "../../runners/stats/summary.ts";
import { welchTest } from "../../runners/stats/welch.ts";
import { type CliRun, runTask, withTmp } from "../_helpers.ts";
import { BASE_PATH, HEAD_PATH, loadFixture } from "../_report_helpers.ts";

const base = await loadFixture(BASE_PATH);
const head = await loadFixture(HEAD_PATH);

function find(figures: readonly FigureComparison[], runtime: string, figure: string): FigureComparison {
  const f = figures.find((x) => x.runtime === runtime && x.figure === figure);
  if (!f) throw new Error(`${runtime} ${figure} not compared`);
  return f;
}

function compareCli(args: string[]): Promise<CliRun> {
  return runTask("compare", args);
}

Deno.test("Welch's t-test matches R's t.test on the sleep data", () => {
  const g1 = [0.7, -1.6, -0.2, -1.2, -0.1, 3.4, 3.7, 0.8, 0.0, 2.0];
  const g2 = [1.9, 0.8, 1.1, 0.1, -0.1, 4.4, 5.5, 1.6, 4.6, 3.4];
  // R: t = -1.8608, df = 17.776, p-value = 0.07939, 95% CI -3.3654832 0.2054832
  const w = welchTest(g2, g1);
  assertAlmostEquals(w.t, -1.8608, 1e-4);
  assertAlmostEquals(w.df, 17.776, 1e-3);
  assertAlmostEquals(w.p, 0.07939, 1e-5);
  assertAlmostEquals(w.ci.low, -3.3654832, 1e-6);
  assertAlmostEquals(w.ci.high, 0.2054832, 1e-6);
});

// docs/guide.md (compare): "the headline and p99 only … Holm's correction over every test of the comparison".
Deno.test("compare finds the known differences between the stored results", () => {
  const c = compareResults(base, head);
  // Headline and tail only: derived figures (bytesPerSecond, p50 by Little's law) would repeat the headline.
  assertEquals([...new Set(c.figures.map((f) => f.figure))], ["requestsPerSecond", "latencyUs.p99"]);
  // node: every rate × 0.7 and every latency ÷ 0.7 in head.
  const nodeRps = find(c.figures, "node", "requestsPerSecond");
  assertAlmostEquals(nodeRps.changePercent!, -30, 0.01);
  assert(nodeRps.ci95Percent!.low < -30 && -30 < nodeRps.ci95Percent!.high, "the CI holds the change");
  // Significant alone (p 0.016), not after Holm over the comparison's six tests: five runs a side are too few.
  assert(nodeRps.p! < 0.05 && nodeRps.pAdjusted! > 0.05, `${nodeRps.p} ${nodeRps.pAdjusted}`);
  assertEquals(nodeRps.verdict, "no significant difference");
  const p99 = find(c.figures, "node", "latencyUs.p99");
  assertEquals(p99.verdict, "slower", "higher latency is slower");
  assertEquals(p99.higherIsBetter, false);
  assertAlmostEquals(p99.changePercent!, 100 / 0.7 - 100, 1);
  assert(p99.pAdjusted! < 0.05 && p99.pAdjusted! >= p99.p!);
  // bun: run B was faster, p 0.025 and 0.030 alone; not after Holm.
  assertEquals(find(c.figures, "bun", "requestsPerSecond").verdict, "no significant difference");
  assertEquals(find(c.figures, "bun", "latencyUs.p99").verdict, "no significant difference");
  // deno: runs overlap.
  const deno = find(c.figures, "deno", "requestsPerSecond");
  assertEquals(deno.verdict, "no significant difference");
  assert(deno.ci95Percent!.low < 0 && deno.ci95Percent!.high > 0);
  // The raw samples compared are the runs' own.
  assertEquals(nodeRps.base, base.records[1].runs.map((r) => r.figures.requestsPerSecond));
  assertEquals(c.onlyInHead, ["http-json/default/node@99"]);
  assertEquals(c.onlyInBase, []);
  // The threshold counts only what got worse by more than it.
  assertEquals(regressions(c, 35).map((f) => f.figure), ["latencyUs.p99"]);
  assertEquals(regressions(c, 50), []);
});

Deno.test("swapping base and head swaps faster and slower", () => {
  const c = compareResults(head, base);
  assertEquals(find(c.figures, "node", "latencyUs.p99").verdict, "faster");
  assertEquals(find(c.figures, "deno", "requestsPerSecond").verdict, "no significant difference");
  assertEquals(c.onlyInBase, ["http-json/default/node@99"]);
});

function wallRecord(template: BenchRecord, values: number[]): BenchRecord {
  return {
    ...template,
    kind: "process",
    loadGenerator: null,
    headline: { figure: "wallMs", higherIsBetter: false },
    runs: values.map((v, index) => ({
      index,
      startedAt: template.startedAt,
      figures: { wallMs: v },
      counts: { errors: 0, timeouts: 0, non2xx: 0, mismatches: 0 },
      latencyUs: null,
      latencyHistogram: null,
    })),
    summary: { wallMs: summarize(values) },
    latencyUs: null,
  };
}

Deno.test("for a lower-is-better figure, a higher value is slower and counts as a regression", () => {
  const t = base.records[0];
  const a: BenchResult = { ...base, records: [wallRecord(t, [100, 101, 99, 100])] };
  const b: BenchResult = { ...base, records: [wallRecord(t, [120, 121, 119, 120])] };
  const worse = compareResults(a, b);
  assertEquals(worse.figures.length, 1);
  assertEquals(worse.figures[0].verdict, "slower");
  // The ratio of geometric means: (120·121·119·120)^¼ / (100·101·99·100)^¼ − 1 = 20.0009%.
  assertAlmostEquals(worse.figures[0].changePercent!, 20.0009, 1e-4);
  assertEquals(regressions(worse, 10).length, 1);
  assertEquals(regressions(worse, 25).length, 0);
  const better = compareResults(b, a);
  assertEquals(better.figures[0].verdict, "faster");
  assertEquals(regressions(better, 0).length, 0, "getting faster is never a regression");
});

/** The stored record with the server's CPU per request at a fixed rate in its runs, one value a run. */
function atRateRecord(template: BenchRecord, cpuRate: number, values: number[]): BenchRecord {
  return {
    ...template,
    settings: { ...template.settings, cpuRate },
    runs: values.map((v, i) => {
      const run = template.runs[i % template.runs.length];
      return { ...run, index: i, figures: { ...run.figures, serverCpuUsPerRequestAtRate: v } };
    }),
  };
}

// README "What you get" (the figures compare tests) and docs/guide.md "compare": the server's CPU time per request
// at the fixed rate is compared where both records measured it, lower is better, and only at the same rate.
Deno.test("compare tests the server's CPU per request at the fixed rate, lower is better, at one rate only", () => {
  const t = base.records[0];
  const a: BenchResult = { ...base, records: [atRateRecord(t, 20_000, [10, 10.1, 9.9, 10, 10])] };
  const b: BenchResult = { ...base, records: [atRateRecord(t, 20_000, [12, 12.1, 11.9, 12, 12])] };
  const worse = compareResults(a, b);
  assertEquals(worse.figures.map((f) => f.figure), [
    "requestsPerSecond",
    "latencyUs.p99",
    "serverCpuUsPerRequestAtRate",
  ]);
  const cpu = find(worse.figures, "deno", "serverCpuUsPerRequestAtRate");
  assertEquals([cpu.higherIsBetter, cpu.verdict], [false, "slower"]);
  // The ratio of geometric means, by hand: (12·12.1·11.9·12·12)^⅕ / (10·10.1·9.9·10·10)^⅕ − 1
  // = (248,814.72 / 99,990)^⅕ − 1 = 20.0007%.
  assertAlmostEquals(cpu.changePercent!, 20.0007, 1e-4);
  assertEquals(regressions(worse, 10).map((f) => f.figure), ["serverCpuUsPerRequestAtRate"]);
  // At another rate it is another figure: not compared, and said why; the window's own figures still are.
  const other: BenchResult = { ...base, records: [atRateRecord(t, 10_000, [12, 12.1, 11.9, 12, 12])] };
  const moved = compareResults(a, other);
  const at = find(moved.figures, "deno", "serverCpuUsPerRequestAtRate");
  assertEquals(at.verdict, "not comparable");
  assertEquals(at.note, "measured at another fixed rate: cpuRate 20000 → 10000");
  assertEquals(find(moved.figures, "deno", "requestsPerSecond").verdict, "no significant difference");
  // Measured on one side only (the other without --cpu-rate, or no run held the rate): not a figure of the pair.
  assertEquals(compareResults(a, { ...base, records: [t] }).figures.map((f) => f.figure), [
    "requestsPerSecond",
    "latencyUs.p99",
  ]);
});

Deno.test("records that did not complete or have one run are not comparable, not guessed", () => {
  const t = base.records[0];
  const one: BenchResult = { ...base, records: [wallRecord(t, [100])] };
  const two: BenchResult = { ...base, records: [wallRecord(t, [120, 121])] };
  const c = compareResults(one, two);
  assertEquals(c.figures[0].verdict, "not comparable");
  assertMatch(c.figures[0].note!, /needs ≥ 2 runs/);
  const broken: BenchResult = {
    ...base,
    records: [{ ...t, status: "errored", error: { phase: "start", name: "Error", message: "port in use" } }],
  };
  const d = compareResults(base, broken);
  assertEquals(find(d.figures, "deno", "requestsPerSecond").verdict, "not comparable");
  assertMatch(find(d.figures, "deno", "requestsPerSecond").note!, /errored in head: start: port in use/);
});

Deno.test("formatComparison prints change, CI, p and verdict per figure, and marks regressions", () => {
  const text = formatComparison(compareResults(base, head), "table", 10);
  const line = text.split("\n").find((l) => /^node .*latencyUs\.p99/.test(l))!;
  assertMatch(line, /\+42\.\d%/);
  assertMatch(line, /✗ slower \(regression\)/);
  assertStringIncludes(text, "over all 6 tests (p corrected by Holm)");
  assertStringIncludes(text, "Welch's t-test");
  assertStringIncludes(text, "only in head: http-json/default/node@99");
  const md = formatComparison(compareResults(base, head), "md");
  assertMatch(
    md,
    /\| http-json \(default\) \| node 20\.20\.2 \| latencyUs\.p99 \(per run\) \|.*\+42\.\d%.*✗ slower \|/,
  );
  // Which p99 it is, said once: each run's own, where reports merge every run's responses.
  assertStringIncludes(
    md,
    "latencyUs.p99 (per run) = each run's own p99 (reports show the p99 of all runs' responses merged)",
  );
});

// docs/guide.md (compare): "the change is a ratio, its interval computed on the log scale: it never passes −100%".
Deno.test("a change's interval is a ratio's, on the log scale: a large drop never reads below −100%", () => {
  const t = base.records[0];
  // Base rates spread widely; head's fell to a fifth. On the linear scale, mean ± t·s/√n of the difference reaches
  // below −100% of base's mean.
  const wide = [50_000, 120_000, 30_000, 140_000];
  const fell = [10_000, 24_000, 6_000, 28_000];
  const rps = (r: BenchRecord, values: number[]): BenchRecord => ({
    ...r,
    runs: r.runs.slice(0, values.length).map((run, i) => ({
      ...run,
      figures: { ...run.figures, requestsPerSecond: values[i] },
    })),
    summary: { ...r.summary, requestsPerSecond: summarize(values) },
  });
  const linear = welchTest(wide, fell);
  assert(100 * linear.ci.low / linear.meanBase < -100, "the linear interval would pass −100%");
  const c = compareResults({ ...base, records: [rps(t, wide)] }, { ...base, records: [rps(t, fell)] });
  const f = find(c.figures, "deno", "requestsPerSecond");
  // Every run fell to exactly a fifth: the ratio of geometric means is 0.2, a change of −80%, with no spread.
  assertAlmostEquals(f.changePercent!, -80, 1e-9);
  assert(f.ci95Percent!.low > -100, JSON.stringify(f.ci95Percent));
});

// docs/method.md (A/A): "compare and --fail-on-regression refuse to call a change smaller than the A/A run's floor".
Deno.test("a significant change smaller than the noise floor is within noise floor, never a regression", () => {
  const t = base.records[0];
  const a: BenchResult = { ...base, records: [wallRecord(t, [100, 101, 99, 100])] };
  const b: BenchResult = { ...base, records: [wallRecord(t, [104, 105, 103, 104])] };
  assertEquals(compareResults(a, b).figures[0].verdict, "slower", "significant without a floor");
  assertEquals(regressions(compareResults(a, b), 1).length, 1);
  const floor = new Map([["http-json/default/wallMs", 5]]);
  const c = compareResults(a, b, { noiseFloor: floor });
  assertEquals(c.figures[0].verdict, "within noise floor");
  assertMatch(c.figures[0].note!, /slower, but by less than the noise floor of ±5\.0% \(A\/A\)/);
  assertEquals(regressions(c, 1), []);
  // A change beyond the floor is still called.
  const far: BenchResult = { ...base, records: [wallRecord(t, [120, 121, 119, 120])] };
  assertEquals(compareResults(a, far, { noiseFloor: floor }).figures[0].verdict, "slower");
});

Deno.test("compare CLI: table and verdicts, exit 1 on a regression beyond the threshold", async () => {
  const plain = await compareCli([BASE_PATH, HEAD_PATH]);
  assertEquals(plain.code, 0, plain.stderr);
  assertMatch(plain.stdout, /node 20\.20\.2\s+latencyUs\.p99 .*✗ slower/);
  assertMatch(plain.stdout, /deno 2\.9\.6\s+requestsPerSecond .*no significant difference/);

  const failing = await compareCli([BASE_PATH, HEAD_PATH, "--fail-on-regression", "10"]);
  assertEquals(failing.code, 1);
  assertMatch(failing.stderr, /regression: http-json\/default\/node latencyUs\.p99 \+42\.\d%/);
  const lenient = await compareCli([BASE_PATH, HEAD_PATH, "--fail-on-regression", "50"]);
  assertEquals(lenient.code, 0, lenient.stderr);
  const reversed = await compareCli([HEAD_PATH, BASE_PATH, "--fail-on-regression=10"]);
  assertEquals(reversed.code, 0, "node got faster, not worse; bun's change is not significant after Holm");

  const json = await compareCli([BASE_PATH, HEAD_PATH, "--format", "json"]);
  assertEquals(json.code, 0);
  assertEquals(JSON.parse(json.stdout).figures.length, compareResults(base, head).figures.length);
});

Deno.test("compare CLI: missing, corrupted or mismatched files exit 2 with one line", async () => {
  await withTmp(async (tmp) => {
    const text = await Deno.readTextFile(BASE_PATH);
    await Deno.writeTextFile(`${tmp}/truncated.json`, text.slice(0, text.length / 2));
    await Deno.writeTextFile(`${tmp}/bad-status.json`, text.replace('"status": "completed"', '"status": "fast"'));
    const other = JSON.parse(text);
    for (const r of other.records) {
      r.workload = "ws-echo";
      r.id = r.id.replace("http-json", "ws-echo");
    }
    await Deno.writeTextFile(`${tmp}/other.json`, JSON.stringify(other));
    const cases: [string[], RegExp][] = [
      [[BASE_PATH, `${tmp}/missing.json`], /Cannot read .*missing\.json: no such file/],
      [
        [BASE_PATH, `${tmp}/truncated.json`],
        /truncated\.json is not an rtbench result: Invalid result at \/: not JSON/,
      ],
      [
        [`${tmp}/bad-status.json`, HEAD_PATH],
        /bad-status\.json is not an rtbench result: Invalid result at \/records\/0\/status/,
      ],
      [[BASE_PATH, `${tmp}/other.json`], /no workload × variant × runtime in common/],
      [[BASE_PATH], /Expected two result files, base and head, got 1/],
      [
        [BASE_PATH, HEAD_PATH, "--fail-on-regression", "lots"],
        /--fail-on-regression must be a percentage ≥ 0, got "lots"/,
      ],
      [[BASE_PATH, HEAD_PATH, "--fail-on-regression", "-5"], /--fail-on-regression must be a percentage ≥ 0/],
      [[BASE_PATH, HEAD_PATH, "--format", "xml"], /--format: unknown format "xml"/],
      [[BASE_PATH, HEAD_PATH, "--frobnicate"], /Unknown flag --frobnicate/],
    ];
    for (const [args, message] of cases) {
      const run = await compareCli(args);
      assertEquals(run.code, 2, `${args.join(" ")}: ${run.stderr}`);
      const lines = run.stderr.trim().split("\n");
      assertEquals(lines.length, 1, run.stderr);
      assertMatch(lines[0], /^rtbench compare: /);
      assertMatch(lines[0], message);
      assertEquals(run.stdout, "");
    }
  });
});

// docs/guide.md (compare): "a pair measured with different load generators or measurement settings is not comparable".
Deno.test("a pair measured with another load generator or other settings is not comparable, and is not tested", () => {
  const other: BenchResult = {
    ...head,
    records: head.records.map((r) =>
      r.runtime.name === "node"
        ? { ...r, loadGenerator: { ...r.loadGenerator!, name: "oha" } }
        : r.runtime.name === "bun"
        ? { ...r, settings: { ...r.settings, connections: 50, runs: 7 } }
        : r
    ),
  };
  const c = compareResults(base, other);
  for (const f of c.figures.filter((f) => f.runtime === "node")) {
    assertEquals([f.verdict, f.p, f.pAdjusted], ["not comparable", null, null]);
    assertMatch(f.note!, /^measured differently: load generator autocannon → oha/);
  }
  for (const f of c.figures.filter((f) => f.runtime === "bun")) {
    assertEquals(f.verdict, "not comparable");
    // More runs change the plan, not what a run measures: only connections is named.
    assertEquals(f.note, "measured differently: connections 100 → 50");
  }
  // Holm's family is the tests actually made: deno's two.
  assertStringIncludes(formatComparison(c), "over all 2 tests");
});
