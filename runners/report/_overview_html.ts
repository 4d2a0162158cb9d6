// The overview in HTML: the at-a-glance table with standings and numbered
// warning markers (their legend under it), the key findings, and, for a version sweep, each workload's figure
// across the versions with its intervals.

import { formatFigure } from "./format.ts";
import { formatNumber } from "../stats/mod.ts";
import type { ResultView } from "./_view.ts";
import { escapeXml as e } from "./_svg.ts";
import { FINDINGS_METHOD, type Overview, OVERVIEW_LEGEND, overviewOf, type OverviewRow } from "./_overview.ts";
import { FLOOR_METHOD, floorSentence, noFindingText, standingText } from "./_overview.ts";
import { versionSweeps } from "./_versions.ts";
import { intervalChart, type IntervalPoint } from "./_interval_chart.ts";
import { recordLabel } from "./_groups.ts";
import { FAIR_SHARE_LEGEND, FAIR_SHARE_SHARED_NOTE, fairShareTable, fairShareTitle } from "./fair_share.ts";

/**
 * Styles of the overview's badges and standings, added to the page's style sheet. A cell's parts (figure, standing,
 * runs) never break inside, only between; a warning is a small numbered marker, its code in the legend under the
 * table and its message in the marker's title, so a cell stays one or two lines at any number of runtimes.
 */
export const OVERVIEW_STYLE = `
table.overview td.best { background: #dafbe1; font-weight: 600; }
table.overview td.tie { background: #eef9f0; }
table.overview th { white-space: normal; }
table.overview td.cell { white-space: normal; }
table.overview .part { white-space: nowrap; }
.badge { display: inline-block; margin-left: 3px; padding: 0 4px; border-radius: 8px; font-size: 11px; line-height: 15px;
  background: #fff8c5; border: 1px solid #d4a72c; color: #7d4e00; font-weight: normal; white-space: nowrap; }
ul.findings li { margin: 4px 0; }
`;

/** The overview's warning codes, numbered in order of first appearance: one marker and one legend entry each. */
function badgeNumbers(overview: Overview): Map<string, number> {
  const numbers = new Map<string, number>();
  for (const row of overview.rows) {
    for (const cell of row.cells) {
      for (const w of cell?.warnings ?? []) numbers.set(w.code, numbers.get(w.code) ?? numbers.size + 1);
    }
  }
  return numbers;
}

function cellHtml(row: OverviewRow, index: number, numbers: Map<string, number>): string {
  const cell = row.cells[index];
  if (cell === null) return `<td class="text">–</td>`;
  const badges = cell.warnings.map((w) =>
    `<span class="badge" data-code="${e(w.code)}" title="${e(`${w.code}: ${w.message}`)}">⚠${
      numbers.get(w.code)
    }</span>`
  );
  const value = cell.ranked ? ` data-value="${formatNumber(cell.ranked.headline.median)}"` : "";
  // The parts of the text every format shows, each kept whole: the cell breaks only between them.
  // The markers stay with the last part, so they never wrap onto a line of their own.
  const texts = standingText(row, cell).split(" · ");
  const parts = texts.map((part, i) =>
    `<span class="part">${e(part)}${i === texts.length - 1 ? badges.join("") : ""}</span>`
  ).join(" · ");
  return `<td class="text cell ${cell.standing ?? `status-${cell.record.status}`}" data-runtime="${
    e(cell.record.runtime.requested)
  }" data-standing="${cell.standing ?? cell.record.status}"${value}>${parts}</td>`;
}

/** Under the table: what each numbered marker stands for. */
function badgeLegend(numbers: Map<string, number>): string {
  if (numbers.size === 0) return "";
  const entries = [...numbers].map(([code, n]) => `<span class="badge">⚠${n}</span> ${e(code)}`);
  return `<p class="note badges">${
    entries.join(" · ")
  } — each explained in the workload's section; hover a marker for ` +
    `its message.</p>`;
}

function tableHtml(overview: Overview, numbers: Map<string, number>): string {
  const head = ["workload", "headline", ...overview.labels].map((h) => `<th class="text">${e(h)}</th>`).join("");
  const rows = overview.rows.map((row) =>
    `<tr><td class="text">${e(row.title)}</td><td class="text">${e(row.group.figure)} ${
      row.group.higherIsBetter ? "↑" : "↓"
    }</td>${row.cells.map((_, i) => cellHtml(row, i, numbers)).join("")}</tr>`
  );
  return `<table class="overview"><thead><tr>${head}</tr></thead><tbody>${rows.join("")}</tbody></table>`;
}

function versionsHtml(view: ResultView, colors: Readonly<Record<string, string>>): string {
  const charts = view.sections.flatMap((section) =>
    versionSweeps(section.group).map((sweep) => {
      const { figure } = sweep.group;
      const points = sweep.points.map((p, i): IntervalPoint => ({
        x: i,
        y: p.ranked.headline.median,
        low: p.ranked.headline.ci95?.low ?? null,
        high: p.ranked.headline.ci95?.high ?? null,
        mark: p.step?.verdict === "slower" ? "worse" : p.step?.verdict === "faster" ? "better" : null,
        tooltip: `${recordLabel(p.ranked.record)}: median ${formatFigure(figure, p.ranked.headline.median)}` +
          (p.step?.changePercent != null
            ? `, ${p.step.changePercent.toFixed(1)}% vs the previous (${p.step.verdict})`
            : ""),
      }));
      return `<figure data-workload="${e(sweep.group.workload)}" data-variant="${e(sweep.group.variant)}">` +
        intervalChart({
          className: "versions-chart",
          title: `${section.title}: ${figure} across ${sweep.runtime} versions`,
          subtitle: `dot: median · whisker: 95% CI · ring: significant change from the previous version`,
          categories: sweep.points.map((p) => p.version),
          formatY: (v) => formatFigure(figure, v),
          series: [{ key: sweep.runtime, label: sweep.runtime, color: colors[sweep.runtime] ?? "#7048e8", points }],
        }) + `</figure>`;
    })
  );
  return charts.length > 0 ? `<h3>Across versions</h3>${charts.join("")}` : "";
}

/** The fair share of a multi-core result: per workload × variant a line per core budget (see `fair_share.ts`). */
function fairShareHtml(overview: Overview): string {
  if (overview.fairShare.length === 0) return "";
  const tables = overview.fairShare.map((t) => {
    const view = fairShareTable(t);
    const cls = view.columns.map((c) => c.numeric ? "" : ` class="text"`);
    const head = view.columns.map((c, i) => `<th${cls[i]}>${e(c.header)}</th>`).join("");
    const rows = view.rows.map((row) =>
      `<tr>${row.map((cell, i) => `<td${cls[i]}>${e(String(cell))}</td>`).join("")}</tr>`
    );
    const shared = t.lines.some((l) => l.shared) ? `<p class="note">${e(FAIR_SHARE_SHARED_NOTE)}</p>` : "";
    return `<p>${e(fairShareTitle(t))}</p><table class="fair-share"><thead><tr>${head}</tr></thead><tbody>${
      rows.join("")
    }</tbody></table>${shared}`;
  });
  return `<h3>At equal CPU</h3>${tables.join("")}<p class="note">${e(FAIR_SHARE_LEGEND)}</p>`;
}

function floorHtml(overview: Overview): string {
  if (overview.floor.length === 0) return "";
  return `<h3>Noise floor (A/A)</h3><ul class="floor">${
    overview.floor.map((r) => `<li>${e(floorSentence(r))}</li>`).join("")
  }</ul><p class="note">${e(FLOOR_METHOD)}</p>`;
}

/**
 * The overview section of the HTML report: table, findings, an A/A run's noise floor and version sweeps.
 *
 * @example The stored head
 * ```ts
 * import { overviewHtml } from "./_overview_html.ts";
 * import { buildView } from "./_view.ts";
 * import { readResultFile } from "../schema/read.ts";
 * const html = overviewHtml(buildView(await readResultFile("fixtures/results/head.json")), {});
 * console.log(html.includes('data-standing="tie"')); // true
 * ```
 */
export function overviewHtml(view: ResultView, colors: Readonly<Record<string, string>>): string {
  if (view.sections.length === 0) return "";
  const overview = overviewOf(view);
  const findings = overview.findings.length > 0
    ? `<ul class="findings">${overview.findings.map((f) => `<li>${e(f.sentence)}</li>`).join("")}</ul>`
    : `<p class="empty">${e(noFindingText(overview))}</p>`;
  const releases = overview.releases.length > 0
    ? `<ul class="releases">${overview.releases.map((w) => `<li>⚠ ${e(w.message)}</li>`).join("")}</ul>`
    : "";
  const numbers = badgeNumbers(overview);
  return `<section id="overview"><h2>At a glance</h2>${tableHtml(overview, numbers)}${
    badgeLegend(numbers)
  }${releases}<p class="note">${e(OVERVIEW_LEGEND)}</p>${
    fairShareHtml(overview)
  }<h3>Key findings</h3>${findings}<p class="note">${e(FINDINGS_METHOD)}</p>${floorHtml(overview)}${
    versionsHtml(view, colors)
  }<style>${OVERVIEW_STYLE}</style></section>`;
}
