// The HTML report in a real browser: `bench --format html --out report.html`
// on three runtimes, then headless Chromium reads the page (DOM) and paints it
// (screenshot); the bars it draws carry the result file's numbers.
import { assert, assertEquals, assertMatch } from "@std/assert";
import { RUNTIME_COLORS } from "../../runners/report/mod.ts";
import { parseResult } from "../../runners/schema/mod.ts";
import { assertNothingLeft, runCli, withTmp } from "../_helpers.ts";
import { countColor, decodePng } from "../_png.ts";
import { CHROMIUM, chromium } from "../_chromium.ts";
import { needs } from "../_needs.ts";

Deno.test(needs(CHROMIUM, {
  name: "bench --format html --out report.html: headless Chromium shows a bar per runtime with the result's numbers",
  async fn() {
    await withTmp(async (tmp) => {
      const report = `${tmp}/report.html`;
      const run = await runCli(
        [
          "--workload",
          "http-json",
          "--runtime",
          "deno,node,bun",
          // Two runs for the whiskers; short windows, without http-json's fixed-rate and idle phases.
          "--duration",
          "0.5",
          "--warmup",
          "0",
          "--runs",
          "2",
          "--cpu-rate",
          "0",
          "--idle-connections",
          "0",
          "--format",
          "html",
          "--out",
          report,
        ],
        { TMPDIR: tmp },
      );
      assertEquals(run.code, 0, run.stderr + run.stdout);
      assert(run.stderr.includes(`Report written to ${report}`));
      assert(run.stderr.includes(`Result written to ${tmp}/report.json`), "the result goes beside the report");
      assert(!run.stderr.includes("\x1b[2K"), "no progress line when stderr is not a terminal");
      const result = parseResult(await Deno.readTextFile(`${tmp}/report.json`));
      assertEquals(result.records.filter((r) => r.status === "completed").length, 3);

      // What the browser parsed.
      const dom = await chromium(tmp, ["--dump-dom", `file://${report}`]);
      const bars = [
        ...dom.matchAll(/<g class="bar" data-runtime="([^"]+)" data-value="([^"]+)"[^>]*>([\s\S]*?)<\/g>/g),
      ];
      assertEquals(bars.length, 3, "three bars");
      const rects = new Map<string, number>();
      for (const [, runtime, value, inner] of bars) {
        const record = result.records.find((r) => r.runtime.requested === runtime)!;
        const median = record.summary.requestsPerSecond.median;
        assertEquals(Number(value), median, `${runtime} bar is its median`);
        assert(inner.includes(`>${Math.round(median).toLocaleString("en-US")}/s</text>`), `${runtime} value printed`);
        assertMatch(inner, /class="whisker"/, "a 95% CI whisker");
        const rect = inner.match(/<rect [^>]*y="([\d.]+)" width="([\d.]+)" height="([\d.]+)" fill="(#[0-9a-f]{6})"/)!;
        assertEquals(rect[4], RUNTIME_COLORS[record.runtime.name]);
        // The whisker (1.5 px wide, with 20 px caps) is drawn over the bar where the interval reaches into it.
        const low = inner.match(/class="whisker" d="M[\d.]+ ([\d.]+)V/);
        const into = low ? Math.max(0, Number(low[1]) - Number(rect[1])) : 0;
        const covered = into > 0 ? 1.5 * (into + 20) : 0;
        // Edges at fractional pixels are blended with the background: the bar's interior, 1 px in, is its colour.
        rects.set(rect[4], Math.max(0, Number(rect[2]) - 2) * Math.max(0, Number(rect[3]) - 2) - covered);
      }
      const latency = dom.slice(dom.indexOf("latency-chart"), dom.indexOf("</svg>", dom.indexOf("latency-chart")));
      assertEquals((latency.match(/<g class="series" data-runtime=/g) ?? []).length, 3, "a latency curve per runtime");
      assert(dom.includes("no resource samples") || dom.includes('class="chart cpu-chart"'));

      // What the browser painted: each bar's colour covers at least its rectangle's interior.
      const png = `${tmp}/report.png`;
      await chromium(tmp, ["--window-size=1200,2400", `--screenshot=${png}`, `file://${report}`]);
      const image = await decodePng(await Deno.readFile(png));
      for (const [color, area] of rects) {
        assert(
          countColor(image, color) >= area,
          `${color}: ${countColor(image, color)} pixels for a ${area} px² bar`,
        );
      }

      await assertNothingLeft(tmp, ["report.html", "report.json", "report.png"]);
    });
  },
}));
