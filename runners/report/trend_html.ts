/**
 * The trend of a history as one self-contained HTML page (inline CSS and SVG,
 * no script): per workload × variant, each runtime's headline median over the
 * history's results with its 95% CI, significant changes ringed (red slower,
 * green faster), and the table of every point.
 *
 * @module
 */

import { escapeXml as e } from "./_svg.ts";
import { intervalChart, type IntervalPoint, type IntervalSeries } from "./_interval_chart.ts";
import { EXTRA_COLORS, RUNTIME_COLORS } from "./html.ts";
import { formatFigure } from "./format.ts";
import { pointTime, type Trend, trendMethod, trendTables, versionText } from "./trend.ts";

const STYLE = `
body { font: 15px/1.45 system-ui, sans-serif; color: #1f2328; margin: 0; background: #fff; }
main { max-width: 980px; margin: 0 auto; padding: 24px; }
h2 { margin: 36px 0 4px; font-size: 21px; border-bottom: 1px solid #d0d7de; padding-bottom: 4px; }
.note { color: #59636e; font-size: 13px; }
svg.chart { max-width: 100%; height: auto; display: block; }
svg text { font: 12px system-ui, sans-serif; fill: #1f2328; }
svg .chart-title { font-size: 14px; font-weight: 600; }
svg .chart-subtitle, svg .tick { fill: #59636e; font-size: 11px; }
svg .grid { stroke: #eaeef2; }
svg .axis { stroke: #8c959f; }
svg .whisker { stroke-width: 1.5; fill: none; }
table { border-collapse: collapse; margin: 8px 0; font-size: 13px; }
th, td { border: 1px solid #d0d7de; padding: 4px 8px; text-align: left; white-space: nowrap; }
tr.slower td { background: #ffebe9; }
tr.faster td { background: #dafbe1; }
li.slower { color: #a40e26; }
li.faster { color: #116329; }
`;

/**
 * Renders a trend as one self-contained HTML page.
 *
 * @param trend A trend from `buildTrend`.
 * @returns The page.
 *
 * @example Render the stored history
 * ```ts
 * import { assert } from "@std/assert";
 * import { buildTrend, formatTrendHtml, readHistory } from "@rtbench/rtbench/runners";
 * const html = formatTrendHtml(buildTrend(await readHistory("fixtures/history")));
 * assert(html.includes('data-mark="worse"'));
 * ```
 */
export function formatTrendHtml(trend: Trend): string {
  const categories = trend.results.map((r) => r.startedAt.slice(5, 16).replace("T", " "));
  const x = new Map(trend.results.map((r, i) => [r.file, i]));
  const sections = trendTables(trend).map((table) => {
    let extra = 0;
    const series = table.series.map((s): IntervalSeries => ({
      key: s.runtime,
      label: s.runtime,
      color: RUNTIME_COLORS[s.runtime] ?? EXTRA_COLORS[extra++ % EXTRA_COLORS.length],
      points: s.points.flatMap((p, i) => p.median === null ? [] : [{ p, i }]).map(({ p, i }): IntervalPoint => ({
        x: x.get(p.file)!,
        y: p.median!,
        low: p.ci95?.low ?? null,
        high: p.ci95?.high ?? null,
        mark: p.step?.verdict === "slower" ? "worse" : p.step?.verdict === "faster" ? "better" : null,
        tooltip: `${s.runtime} ${versionText(s, i)} on ${pointTime(p)}: ${formatFigure(s.figure, p.median!)}`,
      })),
    })).filter((s) => s.points.length > 0);
    const rows = table.rows.map((r) =>
      `<tr class="${r.verdict === "slower" ? "slower" : r.verdict === "faster" ? "faster" : ""}">${
        r.cells.map((c) => `<td>${e(c)}</td>`).join("")
      }</tr>`
    );
    const [workload, variant] = [table.series[0].workload, table.series[0].variant];
    return `<section class="trend" data-workload="${e(workload)}" data-variant="${e(variant)}">` +
      `<h2>${e(table.title)}</h2><p class="note">${e(table.figure)}</p>` +
      `<figure>${
        intervalChart({
          className: "trend-chart",
          title: `${table.series[0].figure} over time`,
          subtitle: "dot: median · whisker: 95% CI · ring: significant change from the previous point",
          categories,
          series,
          formatY: (v) => formatFigure(table.series[0].figure, v),
        })
      }</figure>` +
      `<table><thead><tr>${table.header.map((h) => `<th>${e(h)}</th>`).join("")}</tr></thead><tbody>${
        rows.join("")
      }</tbody></table></section>`;
  });
  const changes = trend.changes.length > 0
    ? `<ul class="changes">${trend.changes.map((c) => `<li class="${c.verdict}">${e(c.sentence)}</li>`).join("")}</ul>`
    : `<p class="note">None.</p>`;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>rtbench trend</title>
<style>${STYLE}</style>
</head>
<body>
<main>
<h1>rtbench trend</h1>
<p class="note">${e(trendMethod(trend))}</p>
<h2>Significant changes</h2>
${changes}
${sections.join("\n")}
</main>
</body>
</html>
`;
}
