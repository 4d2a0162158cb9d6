// docs/guide.md "At a glance, across versions, over time", trends.
// `deno task trend <dir>` on the stored history (fixtures/history, see its README): each workload × runtime over
// time and versions, every step tested with compare's test and the steps into each result corrected together (Holm),
// the planted regression (node −50% in the third result) flagged as slower and nothing else — bun's real +34% in the
// same result does not survive the correction; as JSON, Markdown and HTML (in headless Chromium).
// `--fail-on-regression` fails only when a series' newest point regressed.
import { assert, assertAlmostEquals, assertEquals, assertMatch } from "@std/assert";
import { intervalChart, MARK_COLORS } from "../../runners/report/_interval_chart.ts";
import type { Trend } from "../../runners/report/trend.ts";
import { assertNothingLeft, ROOT, runTask, withTmp } from "../_helpers.ts";
import { countColor, decodePng } from "../_png.ts";
import { CHROMIUM, chromium } from "../_chromium.ts";
import { needs } from "../_needs.ts";

const HISTORY = `${ROOT}fixtures/history`;
const FILES = [
  "rtbench-20261119-140940.json",
  "rtbench-20261120-140940.json",
  "rtbench-20261121-141017.json",
  "rtbench-20261122-141017.json",
];

Deno.test("trend --format json: the planted regression is the one slower step, with its test's numbers", async () => {
  const run = await runTask("trend", [HISTORY, "--format", "json"]);
  assertEquals(run.code, 0, run.stderr);
  const trend = JSON.parse(run.stdout) as Trend;
  assertEquals(trend.results.map((r) => r.file.slice(r.file.lastIndexOf("/") + 1)), FILES);
  assertEquals(trend.series.map((s) => s.runtime), ["deno", "node", "bun", "node@99"]);
  assertEquals(trend.series.map((s) => s.points.length), [4, 4, 4, 2]);
  assertEquals(
    trend.changes.map((c) => [c.runtime, c.verdict, c.to.file.slice(c.to.file.lastIndexOf("/") + 1)]),
    [["node", "slower", FILES[2]]],
  );
  // Every other step was tested and found no significant change.
  const steps = trend.series.flatMap((s) => s.points.flatMap((p) => p.step ? [[s.runtime, p.step.verdict]] : []));
  assertEquals(steps.filter(([, v]) => v === "no significant difference").length, 9 - 1);
  assertEquals(steps.length, 9);

  // The step's numbers, by hand (the change of the geometric mean, from Welch's t-test on the logs of the runs;
  // 30-digit arithmetic, independent of rtbench):
  //   ln node on 11-20 (53197.03, 56002.78, 54892.6, 53694.34, 34918.19): mean 10.815975, s² 0.039828095
  //   ln node on 11-21 (26335.16, 28284.23, 26908.14, 27395.07, 17459.09): mean 10.122928, s² 0.040136270
  //   difference −0.693047, se = √(0.039828095/5 + 0.040136270/5) = 0.1264629, df 7.99988, t = −5.4802,
  //   p = 0.00058732; t(0.975, 7.99988) = 2.30601: e^(−0.693047 ± 0.291625) = 0.50005 (0.37356–0.66937), so
  //   −49.995% (−62.644% to −33.063%).
  // The steps into the same result, corrected together (Holm, 3 tests): node 3 × 0.00058732 = 0.0017620; bun (+34.06%,
  // t = 2.995, df 4.282, p = 0.036798) 2 × 0.036798 = 0.073595; deno (p = 0.13062) max(0.073595, 0.13062) = 0.13062.
  const step = trend.changes[0].to.step!;
  assertAlmostEquals(step.changePercent!, -49.995, 1e-3);
  assertAlmostEquals(step.ci95Percent!.low, -62.6438, 1e-3);
  assertAlmostEquals(step.ci95Percent!.high, -33.0633, 1e-3);
  assertAlmostEquals(step.p!, 0.00058732, 1e-7);
  assertAlmostEquals(step.pAdjusted!, 0.0017620, 1e-6);
  // bun's step into the same result had p < 0.05 alone; corrected with the other two runtimes' steps it is noise.
  const bun = trend.series.find((s) => s.runtime === "bun")!.points[2].step!;
  assertAlmostEquals(bun.p!, 0.036798, 1e-5);
  assertAlmostEquals(bun.pAdjusted!, 0.073595, 1e-5);
  assertEquals(bun.verdict, "no significant difference");
});

Deno.test("trend as Markdown marks the slower step and lists the changes first", async () => {
  const run = await runTask("trend", [HISTORY]);
  assertEquals(run.code, 0, run.stderr);
  const md = run.stdout;
  const changes = md.slice(md.indexOf("## Significant changes"), md.indexOf("## http-json (default)"));
  assertEquals(changes.split("\n").filter((l) => l.startsWith("- ")).length, 1);
  assertMatch(changes, /- ✗ http-json \(default\) node: requestsPerSecond slower on 2026-11-21 14:10: 26,908\/s/);
  const rows = md.split("\n").filter((l) => l.includes("✗ slower"));
  assertEquals(rows.length, 1);
  assertMatch(rows[0], /^\| 2026-11-21 14:10 \| node \| 20\.20\.2 \| 26,908\/s \| 19,778\/s – 30,774\/s \| −50\.0% /);
});

Deno.test(needs(CHROMIUM, {
  name: "trend --format html in headless Chromium: each runtime over time, the regression ringed in red",
  async fn() {
    await withTmp(async (tmp) => {
      const page = `${tmp}/trend.html`;
      const run = await runTask("trend", [HISTORY, "--format", "html", "--out", page]);
      assertEquals(run.code, 0, run.stderr);
      assertEquals(run.stderr.trim(), `Trend written to ${page}`);
      const dom = await chromium(tmp, ["--dump-dom", `file://${page}`]);
      const chart = dom.slice(dom.indexOf('<svg class="chart trend-chart"'), dom.indexOf("</svg>"));
      const series = [...chart.matchAll(/<g class="series" data-series="([^"]+)">([\s\S]*?)<\/g><\/g>/g)];
      assertEquals(series.map((s) => s[1]), ["deno", "node", "bun"], "node@99 never completed: no line");
      const marks = [...chart.matchAll(/data-x="(\d)" data-value="[^"]+"[^>]*data-mark="(\w+)"/g)].map((
        m,
      ) => [m[1], m[2]]);
      assertEquals(marks, [["2", "worse"]]);
      const nodeLine = series[1][2];
      assertEquals([...nodeLine.matchAll(/class="point" data-x="(\d)"/g)].map((m) => m[1]), ["0", "1", "2", "3"]);
      assert(nodeLine.includes('data-mark="worse"'));
      assertMatch(dom, /<tr class="slower"><td>2026-11-21 14:10<\/td><td>node<\/td>/);

      const png = `${tmp}/trend.png`;
      await chromium(tmp, ["--window-size=1100,1400", `--screenshot=${png}`, `file://${page}`]);
      const image = await decodePng(await Deno.readFile(png));
      // A ring of radius 9 and width 3 covers about 170 px; antialiasing leaves well over a third in the exact colour.
      assert(countColor(image, MARK_COLORS.worse) >= 60, `red ring: ${countColor(image, MARK_COLORS.worse)} px`);
      assertEquals(countColor(image, MARK_COLORS.better), 0, "no improvement ringed");

      await assertNothingLeft(tmp, ["trend.html", "trend.png"]);
    });
  },
}));

Deno.test("trend --fail-on-regression: exit 1 when a series' newest point regressed, 0 when it recovered or held", async () => {
  const held = await runTask("trend", [HISTORY, "--format", "json", "--fail-on-regression", "5"]);
  assertEquals(held.code, 0, "the newest result is no worse than the one before it");
  await withTmp(async (tmp) => {
    for (const file of FILES.slice(0, 3)) await Deno.copyFile(`${HISTORY}/${file}`, `${tmp}/${file}`);
    const regressed = await runTask("trend", [tmp, "--format", "json", "--fail-on-regression", "5"]);
    assertEquals(regressed.code, 1);
    const lines = regressed.stderr.trim().split("\n");
    assertEquals(lines.length, 1);
    assertMatch(lines[0], /^rtbench trend: regression: http-json \(default\) node: requestsPerSecond slower/);
    assertEquals((await runTask("trend", [tmp, "--fail-on-regression", "60"])).code, 0, "−50% is within 60%");
  });
});

Deno.test("a long history labels only every k-th result on the chart's axis, so labels never overlap", () => {
  const categories = Array.from({ length: 40 }, (_, i) => `11-${String(i + 1).padStart(2, "0")} 14:00`);
  const svg = intervalChart({
    className: "trend-chart",
    title: "t",
    subtitle: "",
    categories,
    formatY: String,
    series: [{
      key: "deno",
      label: "deno",
      color: "#3b6fd8",
      points: categories.map((_, x) => ({ x, y: 10, low: null, high: null, mark: null, tooltip: "" })),
    }],
  });
  const labels = [...svg.matchAll(/<text class="tick category" x="([\d.]+)"/g)].map((m) => Number(m[1]));
  assertEquals(labels.length, 8);
  assert(labels.every((x, i) => i === 0 || x - labels[i - 1] >= 60), `label positions ${labels}`);
  assertEquals((svg.match(/<g class="point"/g) ?? []).length, 40, "every point is still drawn");
});

Deno.test("trend compares no step across machines: the planted regression measured elsewhere is not comparable", async () => {
  await withTmp(async (tmp) => {
    for (const file of FILES) {
      const result = JSON.parse(await Deno.readTextFile(`${HISTORY}/${file}`));
      if (file === FILES[2]) result.environment.cpuModel = "Another CPU";
      await Deno.writeTextFile(`${tmp}/${file}`, JSON.stringify(result));
    }
    const run = await runTask("trend", [tmp, "--format", "json"]);
    assertEquals(run.code, 0, run.stderr);
    const trend = JSON.parse(run.stdout) as Trend;
    assertEquals(trend.changes, []);
    const node = trend.series.find((s) => s.runtime === "node")!;
    assertEquals(node.points.map((p) => p.step?.verdict ?? null), [
      null,
      "no significant difference",
      "not comparable",
      "not comparable",
    ]);
    assertEquals(node.points[2].step!.note, "another machine: CPU AMD EPYC → Another CPU");
  });
});

Deno.test("trend follows a runtime across versions: a point whose version changed names the one before", async () => {
  await withTmp(async (tmp) => {
    for (const file of FILES) {
      const result = JSON.parse(await Deno.readTextFile(`${HISTORY}/${file}`));
      if (file >= FILES[2]) {
        for (const r of result.records) if (r.runtime.requested === "node") r.runtime.version = "22.21.1";
      }
      await Deno.writeTextFile(`${tmp}/${file}`, JSON.stringify(result));
    }
    const md = (await runTask("trend", [tmp])).stdout;
    const node = md.split("\n").filter((l) => l.includes("| node |")).map((l) => l.split(" | ")[2]);
    assertEquals(node, ["20.20.2", "20.20.2", "22.21.1 (was 20.20.2)", "22.21.1"]);
    assertMatch(md, /\| 2026-11-21 14:10 \| node \| 22\.21\.1 \(was 20\.20\.2\) \| 26,908\/s .* ✗ slower \|/);
  });
});
