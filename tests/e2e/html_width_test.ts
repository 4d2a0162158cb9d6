// The HTML report fits the browser's width (issue 45; docs/guide.md, the overview's markers). The stored default runs
// (fixtures/results, see its README) rendered with `formatHtml` and opened in headless Chromium: three runtimes at
// 1400×900 and five (with the go and rust native baselines) at 1920×1080. Every table, the per-run tables of each
// section opened too, is no wider than the page, and the page does not scroll sideways.
import { assert, assertEquals } from "@std/assert";
import { formatHtml } from "../../runners/report/mod.ts";
import { ROOT, withTmp } from "../_helpers.ts";
import { loadFixture } from "../_report_helpers.ts";
import { CHROMIUM, chromium } from "../_chromium.ts";
import { needs } from "../_needs.ts";

/** What the page measured of itself once laid out: its width, its scroll width, each table's. */
interface Widths {
  readonly clientWidth: number;
  readonly scrollWidth: number;
  readonly tables: readonly { className: string; scrollWidth: number; right: number; where: string }[];
}

// Opens every <details> (as a reader would), then writes the widths into the page, where --dump-dom shows them.
const MEASURE = `<script>addEventListener("load", () => {
  for (const d of document.querySelectorAll("details")) d.open = true;
  const page = document.documentElement;
  const tables = [...document.querySelectorAll("table")].map((t) => ({
    className: t.className,
    scrollWidth: t.scrollWidth,
    right: Math.ceil(t.getBoundingClientRect().right),
    where: t.closest("section")?.querySelector("h2")?.textContent ?? "",
  }));
  const out = document.createElement("pre");
  out.id = "widths";
  out.textContent = JSON.stringify({ clientWidth: page.clientWidth, scrollWidth: page.scrollWidth, tables });
  document.body.append(out);
});</script>`;

async function widthsOf(tmp: string, fixture: string, size: string): Promise<Widths> {
  const html = formatHtml(await loadFixture(`${ROOT}fixtures/results/${fixture}`));
  assert(!html.includes("<script"), "the report itself has no script");
  const page = `${tmp}/${fixture}.${size}.html`;
  await Deno.writeTextFile(page, html.replace("</body>", `${MEASURE}</body>`));
  const dom = await chromium(tmp, [`--window-size=${size}`, "--dump-dom", `file://${page}`]);
  const json = dom.match(/<pre id="widths">([^<]*)<\/pre>/);
  if (json === null) throw new Error("the page did not measure itself");
  return JSON.parse(json[1].replaceAll("&quot;", '"').replaceAll("&amp;", "&")) as Widths;
}

for (
  const [fixture, size, runtimes] of [
    ["default-deno-node-bun.json", "1400,900", 3],
    ["default-go-rust.json", "1920,1080", 5],
  ] as const
) {
  Deno.test(needs(CHROMIUM, {
    name: `html report of a default run on ${runtimes} runtimes fits ${size.replace(",", "×")}: no table wider`,
    async fn() {
      await withTmp(async (tmp) => {
        const widths = await widthsOf(tmp, fixture, size);
        assertEquals(widths.clientWidth, Number(size.split(",")[0]));
        const overview = widths.tables.find((t) => t.className === "overview");
        assert(overview, "an overview table");
        const wide = widths.tables.filter((t) => t.scrollWidth > widths.clientWidth || t.right > widths.clientWidth)
          .map((t) => `${t.where} ${t.className}: ${t.scrollWidth} px wide, right edge at ${t.right} px`);
        assertEquals(wide, [], `tables wider than the page's ${widths.clientWidth} px`);
        assert(widths.scrollWidth <= widths.clientWidth, `the page scrolls sideways: ${widths.scrollWidth} px`);
      });
    },
  }));
}
