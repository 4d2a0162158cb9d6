// docs/guide.md "At a glance, across versions, over time", version sweeps.
// Version sweeps: `--runtime bun@1.2,bun@1.3,bun@1.4.5` measures three versions of one runtime like three runtimes
// (interleaved, run i of each before run i+1 of any), and the HTML report draws each workload's figure across the
// versions with its 95% intervals; headless Chromium parses and paints it. `--last <n>` picks the last n releases
// of each runtime from npm: one version per release line (Node.js majors, Deno and Bun minors), newest patch each.
// Bun 1.4.5 is the load engine's own, so the sweep provisions two further versions from npm (then cached).
// The registry npm is configured with, asked by --last: versions_test (it sets the process's npm registry).
import { assert, assertEquals, assertRejects } from "@std/assert";
import { builtinAdapters, lastReleases, lastReleasesOf, npmVersions } from "../../adapters/mod.ts";
import { formatHtml, RUNTIME_COLORS } from "../../runners/report/mod.ts";
import type { BenchRecord } from "../../runners/schema/result.ts";
import { summarize } from "../../runners/stats/summary.ts";
import { HEAD_PATH, loadFixture } from "../_report_helpers.ts";
import { MARK_COLORS } from "../../runners/report/_interval_chart.ts";
import { parseResult, validateResult } from "../../runners/schema/mod.ts";
import { RequestError } from "../../runners/base/mod.ts";
import { assertNothingLeft, runCli, withTmp } from "../_helpers.ts";
import { countColor, decodePng } from "../_png.ts";
import { CHROMIUM, chromium } from "../_chromium.ts";
import { needs, NETWORK } from "../_needs.ts";

// Bun 1.2 and 1.3 come from the npm registry: an opt-in (RTBENCH_TEST_NETWORK=1), as .ci/run runs it.
Deno.test(needs([CHROMIUM, NETWORK], {
  name: "a sweep over three bun versions on http-json and startup renders each figure across versions in Chromium",
  async fn() {
    await withTmp(async (tmp) => {
      const report = `${tmp}/sweep.html`;
      const versions = ["bun@1.2", "bun@1.3", "bun@1.4.5"];
      const run = await runCli([
        ...["--runtime", versions.join(","), "--workload", "http-json,startup", "--variant", "default,hello"],
        // Two runs for the intervals and the interleaving; short windows, no fixed-rate or idle phase.
        ...["--duration", "0.3", "--warmup", "0.1", "--runs", "2", "--cpu-rate", "0", "--idle-connections", "0"],
        ...["--format", "html", "--out", report],
      ], { TMPDIR: tmp });
      assertEquals(run.code, 0, run.stderr + run.stdout);
      const text = await Deno.readTextFile(`${tmp}/sweep.json`);
      assertEquals(validateResult(JSON.parse(text)), [], "the result validates against the JSON Schema");
      const result = parseResult(text);
      for (const workload of ["http-json", "startup"]) {
        const records = result.records.filter((r) => r.workload === workload);
        assertEquals(records.map((r) => r.runtime.requested), versions);
        assertEquals(records.map((r) => r.status), ["completed", "completed", "completed"], workload);
        assertEquals(new Set(records.map((r) => r.runtime.version)).size, 3, "three distinct versions");
        assert(records[0].runtime.version!.startsWith("1.2.") && records[1].runtime.version!.startsWith("1.3."));
        // Interleaved: every version's first run started before any version's second.
        if (workload === "http-json") {
          const first = records.map((r) => Date.parse(r.runs.find((x) => x.round === 0)!.startedAt));
          const second = records.map((r) => Date.parse(r.runs.find((x) => x.round === 1)!.startedAt));
          assert(Math.max(...first) < Math.min(...second), "round 0 of all three before round 1 of any");
        }
      }

      // What the browser parsed: one chart per workload, a point per version (oldest first) with its median and CI.
      const dom = await chromium(tmp, ["--dump-dom", `file://${report}`]);
      const charts = [
        ...dom.matchAll(
          /<figure data-workload="([^"]+)" data-variant="[^"]+">(<svg class="chart versions-chart"[\s\S]*?<\/svg>)/g,
        ),
      ];
      assertEquals(charts.map((c) => c[1]), ["http-json", "startup"]);
      const at = dom.indexOf('class="chart versions-chart"');
      assert(
        dom.indexOf('<section id="overview">') < at && at < dom.indexOf('<section class="workload"'),
        "under the overview",
      );
      let marks = 0;
      for (const [, workload, svg] of charts) {
        const records = result.records.filter((r) => r.workload === workload);
        const points = [
          ...svg.matchAll(
            /<g class="point" data-x="(\d)" data-value="([^"]+)" data-ci-low="([^"]+)" data-ci-high="([^"]+)"( data-mark="\w+")?>/g,
          ),
        ];
        assertEquals(points.length, 3, workload);
        points.forEach(([, x, value, low, high, mark], i) => {
          const s = records[i].summary[records[i].headline.figure];
          assertEquals([Number(x), Number(value), Number(low), Number(high)], [i, s.median, s.ci95!.low, s.ci95!.high]);
          if (mark) marks++;
        });
        const labels = [...svg.matchAll(/<text class="tick category"[^>]*>([^<]+)<\/text>/g)].map((m) => m[1]);
        assertEquals(labels, records.map((r) => r.runtime.version));
      }

      // What the browser painted: the same page with the sweep charts hidden has fewer pixels of bun's colour, by at
      // least the six dots; a ring marking a significant step is painted where the DOM has one, and only then.
      const hidden = `${tmp}/hidden.html`;
      await Deno.writeTextFile(
        hidden,
        (await Deno.readTextFile(report)).replace(
          "</head>",
          "<style>.versions-chart { visibility: hidden; }</style></head>",
        ),
      );
      const shot = async (page: string, png: string) => {
        await chromium(tmp, ["--window-size=1200,2000", `--screenshot=${png}`, `file://${page}`]);
        return decodePng(await Deno.readFile(png));
      };
      const [shown, without] = [await shot(report, `${tmp}/sweep.png`), await shot(hidden, `${tmp}/hidden.png`)];
      const painted = countColor(shown, RUNTIME_COLORS.bun) - countColor(without, RUNTIME_COLORS.bun);
      assert(painted >= 6 * 30, `the sweep charts painted ${painted} pixels of bun's colour`);
      const rings = countColor(shown, MARK_COLORS.worse) + countColor(shown, MARK_COLORS.better);
      assert(marks > 0 ? rings >= marks * 60 : rings === 0, `${marks} marks in the DOM, ${rings} ring pixels`);

      await assertNothingLeft(tmp, ["hidden.html", "hidden.png", "sweep.html", "sweep.json", "sweep.png"]);
    });
  },
}));

Deno.test("--last picks one version per release line, newest stable patch, oldest first", async () => {
  const bun = ["1.1.45", "1.2.0", "1.2.23", "1.3.0-canary.20250901.1", "1.3.0", "1.3.14", "1.4.0", "1.4.5"];
  assertEquals(lastReleases("bun", bun, 3), ["1.2.23", "1.3.14", "1.4.5"]);
  assertEquals(lastReleases("node", ["20.20.2", "22.0.0", "22.21.1", "24.11.1", "26.0.0-rc.1"], 2), [
    "22.21.1",
    "24.11.1",
  ]);
  const lookup = (a: { name: string }) => Promise.resolve(a.name === "bun" ? bun : ["2.8.3", "2.9.0", "2.9.6"]);
  assertEquals(await lastReleasesOf(["deno", "bun"], 2, builtinAdapters, lookup), [
    "deno@2.8.3",
    "deno@2.9.6",
    "bun@1.3.14",
    "bun@1.4.5",
  ]);
  // The library names the field; the command line names it --last.
  const error = await assertRejects(() => lastReleasesOf(["bun@1.2"], 2, builtinAdapters, lookup), RequestError);
  assertEquals(error.field, "last");
});

Deno.test("--last on the command line: bad values are exit 2 naming the flag", async () => {
  for (const bad of ["0", "x", "1.5", "11"]) {
    const run = await runCli(["--last", bad, "--runtime", "bun", "--workload", "startup"]);
    assertEquals(run.code, 2, run.stderr);
    assertEquals(run.stderr.trim().split("\n").length, 1);
    assert(run.stderr.startsWith("rtbench: --last must be a whole number ≥ 1 and ≤ 10"), run.stderr);
  }
  const named = await runCli(["--last", "2", "--runtime", "bun@1.2", "--workload", "startup"]);
  assertEquals(named.code, 2);
  assert(named.stderr.startsWith("rtbench: --last: bun@1.2 names a version"), named.stderr);
});

// One real lookup (RTBENCH_TEST_NETWORK=1): npm lists Bun's releases, and the last three are three release lines.
Deno.test(needs(NETWORK, {
  name: "--last on registry.npmjs.org: Bun's last three releases are three release lines",
  async fn() {
    const [adapter] = builtinAdapters.filter((a) => a.name === "bun");
    const picked = lastReleases("bun", await npmVersions(adapter), 3);
    assertEquals(picked.length, 3);
    assertEquals(new Set(picked.map((v) => v.split(".").slice(0, 2).join("."))).size, 3);
  },
}));

// By hand: 1.2.0 → 1.3.0 is 100,000, 101,000, 102,000 (mean 101,000, s² 1,000,000) → 97,000, 98,000, 99,500 (mean
// 98,166.67, s² 1,583,333.3): Welch's t = −2,833.33 / √(333,333.3 + 527,777.8) = −3.053, df = 861,111.1² /
// (333,333.3²/2 + 527,777.8²/2) = 3.806, two-sided p = 0.0405 < 0.05: alone, a significant step. 1.3.0 → 1.4.0,
// 97,500, 98,500, 99,000 (mean 98,333.33): t = 166.67 / 849.84 = 0.196, df 3.298, p = 0.856. Holm over the sweep's two
// steps: the first becomes min(1, 2 × 0.0405) = 0.0809 ≥ 0.05, so no step is ringed.
Deno.test("the version chart rings a significant step, corrected over the sweep's steps (Holm)", async () => {
  const head = await loadFixture(HEAD_PATH);
  const bun = head.records.find((r) => r.runtime.requested === "bun")!;
  const version = (v: string, values: number[]): BenchRecord => ({
    ...bun,
    id: `http-json/default/bun@${v}`,
    runtime: { ...bun.runtime, requested: `bun@${v}`, version: v },
    warnings: [],
    runs: bun.runs.slice(0, 3).map((run, i) => ({ ...run, figures: { ...run.figures, requestsPerSecond: values[i] } })),
    summary: { ...bun.summary, requestsPerSecond: summarize(values) },
  });
  const [v1, v2, v3] = [[100_000, 101_000, 102_000], [97_000, 98_000, 99_500], [97_500, 98_500, 99_000]];
  const marks = (records: BenchRecord[]) =>
    [...formatHtml({ ...head, records }).matchAll(/<g class="point"[^>]*data-mark="(\w+)"/g)].map((m) => m[1]);
  assertEquals(marks([version("1.2.0", v1), version("1.3.0", v2)]), ["worse"], "one step: ringed, as slower");
  assertEquals(marks([version("1.2.0", v1), version("1.3.0", v2), version("1.4.0", v3)]), [], "two steps: not");
});
