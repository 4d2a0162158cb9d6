// A chart of medians with their 95% intervals over ordered categories (runtime
// versions, results over time): one line per series, a whisker per point, and
// a ring on the points a test marked (a significant change), so a reader sees
// which steps are beyond noise. The latency and resource charts have no
// intervals, which is why this is a chart of its own.

import { formatNumber } from "../stats/mod.ts";
import { escapeXml, frame, HEIGHT, legendAndAxis, niceTicks, num, WIDTH, yGrid } from "./_svg.ts";

/** One point: a median with its interval, and whether a test marked it. */
export interface IntervalPoint {
  /** Index of the category on the x axis. */
  readonly x: number;
  /** The median. */
  readonly y: number;
  /** The 95% interval, when there is one. */
  readonly low: number | null;
  readonly high: number | null;
  /** `worse` or `better` rings the point in red or green. */
  readonly mark: "worse" | "better" | null;
  /** Tooltip. */
  readonly tooltip: string;
}

/** One line. */
export interface IntervalSeries {
  /** Stable key, for `data-series`. */
  readonly key: string;
  /** Legend label. */
  readonly label: string;
  /** Stroke colour. */
  readonly color: string;
  /** Points in x order. */
  readonly points: readonly IntervalPoint[];
}

/** The ring of a significant change: red for worse, green for better. */
export const MARK_COLORS = { worse: "#d00000", better: "#008a00" } as const;

/**
 * Renders the chart as an inline SVG.
 *
 * @example Two versions of one runtime
 * ```ts
 * import { intervalChart } from "./_interval_chart.ts";
 * const svg = intervalChart({
 *   className: "versions-chart",
 *   title: "requestsPerSecond across versions",
 *   subtitle: "",
 *   categories: ["20.20.2", "22.21.1"],
 *   formatY: (v) => `${v}/s`,
 *   series: [{ key: "node", label: "node", color: "#2f9e44", points: [
 *     { x: 0, y: 50, low: 45, high: 55, mark: null, tooltip: "" },
 *     { x: 1, y: 70, low: 65, high: 75, mark: "better", tooltip: "" },
 *   ] }],
 * });
 * console.log(svg.includes('class="mark better"')); // true
 * ```
 */
export function intervalChart(options: {
  readonly className: string;
  readonly title: string;
  readonly subtitle: string;
  readonly categories: readonly string[];
  readonly series: readonly IntervalSeries[];
  readonly formatY: (y: number) => string;
}): string {
  const m = { top: 56, right: 150, bottom: 56, left: 84 };
  const w = WIDTH - m.left - m.right;
  const h = HEIGHT - m.top - m.bottom;
  const points = options.series.flatMap((s) => s.points);
  const ticks = niceTicks(0, Math.max(1, ...points.map((p) => Math.max(p.y, p.high ?? 0))) * 1.08);
  const top = ticks.at(-1)!;
  const slot = w / Math.max(1, options.categories.length);
  const x = (i: number) => m.left + slot * (i + 0.5);
  const y = (v: number) => m.top + h - (Math.max(0, v) / top) * h;
  const parts = [yGrid(ticks, y, m, options.formatY)];
  // A long history labels every k-th category only, so that labels never overlap (about 60 px each).
  const every = Math.ceil(options.categories.length / Math.max(1, Math.floor(w / 60)));
  options.categories.forEach((label, i) => {
    if (i % every !== 0) return;
    // Long labels (dates with versions) are split on " · " into two lines.
    const [first, second] = label.split(" · ");
    parts.push(
      `<text class="tick category" x="${num(x(i))}" y="${m.top + h + 16}" text-anchor="middle">${
        escapeXml(first)
      }</text>` +
        (second
          ? `<text class="tick" x="${num(x(i))}" y="${m.top + h + 30}" text-anchor="middle">${escapeXml(second)}</text>`
          : ""),
    );
  });
  for (const s of options.series) {
    const d = s.points.map((p, i) => `${i === 0 ? "M" : "L"}${num(x(p.x))} ${num(y(p.y))}`).join("");
    const dots = s.points.map((p) => {
      const whisker = p.low !== null && p.high !== null
        ? `<path class="whisker" stroke="${s.color}" d="M${num(x(p.x))} ${num(y(p.low))}V${num(y(p.high))}M${
          num(x(p.x) - 6)
        } ${num(y(p.low))}H${num(x(p.x) + 6)}M${num(x(p.x) - 6)} ${num(y(p.high))}H${num(x(p.x) + 6)}"/>`
        : "";
      const ring = p.mark
        ? `<circle class="mark ${p.mark}" cx="${num(x(p.x))}" cy="${num(y(p.y))}" r="9" fill="none" stroke="${
          MARK_COLORS[p.mark]
        }" stroke-width="3"/>`
        : "";
      return `<g class="point" data-x="${formatNumber(p.x)}" data-value="${formatNumber(p.y)}"${
        p.low !== null && p.high !== null
          ? ` data-ci-low="${formatNumber(p.low)}" data-ci-high="${formatNumber(p.high)}"`
          : ""
      }${p.mark ? ` data-mark="${p.mark}"` : ""}><title>${escapeXml(p.tooltip)}</title>${whisker}` +
        `<circle cx="${num(x(p.x))}" cy="${num(y(p.y))}" r="4" fill="${s.color}"/>${ring}</g>`;
    }).join("");
    parts.push(
      `<g class="series" data-series="${escapeXml(s.key)}"><path d="${d}" fill="none" stroke="${s.color}" ` +
        `stroke-width="2"/>${dots}</g>`,
    );
  }
  parts.push(legendAndAxis(options.series, m));
  return frame(options.className, options.title, options.title, options.subtitle, parts.join(""));
}
