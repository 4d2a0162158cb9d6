// Inline SVG charts for the HTML report: bars with confidence whiskers and
// line charts. Plain markup, no script and no external reference, so a report
// opens anywhere, offline. Every mark carries its number as a `data-*`
// attribute (without float noise: `formatNumber`) and a `<title>` tooltip, so the numbers survive in the DOM.

import { formatNumber } from "../stats/mod.ts";

/** Escapes text for XML and HTML content and attribute values. */
export function escapeXml(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;")
    .replace(/'/g, "&#39;");
}

/** A coordinate as it goes into markup: one decimal at most. */
export function num(n: number): string {
  return String(Math.round(n * 10) / 10);
}

/** Round tick values from `min` to at least `max`, about `count` of them. */
export function niceTicks(min: number, max: number, count = 5): number[] {
  if (!(max > min)) max = min + (min === 0 ? 1 : Math.abs(min));
  const raw = (max - min) / count;
  const power = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 2.5, 5, 10].map((m) => m * power).find((s) => s >= raw) ?? 10 * power;
  const ticks: number[] = [];
  for (let v = Math.floor(min / step) * step; v < max + step * 0.999; v += step) {
    // 3 × 0.2 is 0.6000000000000001: twelve significant digits give the round number back.
    ticks.push(Number((Math.round(v / step) * step).toPrecision(12)));
    if (v >= max) break;
  }
  return ticks;
}

/** 1-2-5 ticks from the largest at or below `min` to the smallest at or above `max` (both > 0), for a log axis. */
export function logTicks(min: number, max: number): number[] {
  const all: number[] = [];
  for (let e = Math.floor(Math.log10(min)) - 1; e <= Math.ceil(Math.log10(max)); e++) {
    for (const m of [1, 2, 5]) all.push(Number((m * 10 ** e).toPrecision(1)));
  }
  const low = all.filter((v) => v <= min * 1.0001).at(-1) ?? all[0];
  const high = all.find((v) => v >= max / 1.0001) ?? all.at(-1)!;
  const ticks = all.filter((v) => v >= low && v <= high);
  return ticks.length >= 2 ? ticks : [low, high * 10];
}

/** One bar: a runtime's headline median with its 95% CI. */
export interface BarDatum {
  /** Stable key (runtime requested), for `data-runtime`. */
  readonly key: string;
  /** Label under the bar. */
  readonly label: string;
  /** Second line under the bar (relative speed). */
  readonly sublabel: string;
  /** Bar height. */
  readonly value: number;
  /** Whisker from `low` to `high`, when there is an interval. */
  readonly low: number | null;
  readonly high: number | null;
  /** Fill colour. */
  readonly color: string;
  /** The value as people read it, shown above the bar. */
  readonly display: string;
  /** Tooltip. */
  readonly tooltip: string;
}

/** Every chart's size. */
export const WIDTH = 720;
export const HEIGHT = 320;

/** A plot's margins inside the chart. */
export interface Margins {
  readonly top: number;
  readonly right: number;
  readonly bottom: number;
  readonly left: number;
}

/** The chart around a plot: the `<svg>` with its accessible label, title and subtitle. */
export function frame(className: string, label: string, title: string, subtitle: string, body: string): string {
  return `<svg class="chart ${className}" viewBox="0 0 ${WIDTH} ${HEIGHT}" width="${WIDTH}" height="${HEIGHT}" ` +
    `role="img" aria-label="${escapeXml(label)}" preserveAspectRatio="xMinYMin meet">` +
    `<title>${escapeXml(label)}</title>` +
    `<text class="chart-title" x="12" y="20">${escapeXml(title)}</text>` +
    (subtitle ? `<text class="chart-subtitle" x="12" y="36">${escapeXml(subtitle)}</text>` : "") +
    body + `</svg>`;
}

/** Horizontal grid lines at `ticks`, each labelled on the left; `y` maps a value to its coordinate. */
export function yGrid(
  ticks: readonly number[],
  y: (v: number) => number,
  m: Margins,
  format: (v: number) => string,
): string {
  const right = WIDTH - m.right;
  return ticks.map((t) =>
    `<line class="grid" x1="${m.left}" x2="${right}" y1="${num(y(t))}" y2="${num(y(t))}"/>` +
    `<text class="tick" x="${m.left - 6}" y="${num(y(t) + 4)}" text-anchor="end">${escapeXml(format(t))}</text>`
  ).join("");
}

/** The legend right of the plot, one coloured square and label per entry; then the x axis line. */
export function legendAndAxis(
  entries: readonly { readonly label: string; readonly color: string }[],
  m: Margins,
): string {
  const right = WIDTH - m.right;
  const bottom = HEIGHT - m.bottom;
  return entries.map((s, i) => {
    const ly = m.top + 8 + i * 20;
    return `<g class="legend-item"><rect x="${right + 16}" y="${ly - 9}" width="12" height="12" fill="${s.color}"/>` +
      `<text x="${right + 34}" y="${ly + 1}">${escapeXml(s.label)}</text></g>`;
  }).join("") + `<line class="axis" x1="${m.left}" x2="${right}" y1="${bottom}" y2="${bottom}"/>`;
}

/** A vertical bar chart with 95% CI whiskers and the value above each bar. */
export function barChart(options: {
  readonly title: string;
  readonly subtitle: string;
  readonly bars: readonly BarDatum[];
  readonly formatTick: (v: number) => string;
}): string {
  const { bars } = options;
  const m = { top: 56, right: 16, bottom: 48, left: 84 };
  const w = WIDTH - m.left - m.right;
  const h = HEIGHT - m.top - m.bottom;
  const ticks = niceTicks(0, Math.max(...bars.map((b) => Math.max(b.value, b.high ?? 0)), 0) * 1.08);
  const top = ticks.at(-1)!;
  const y = (v: number) => m.top + h - (Math.max(0, v) / top) * h;
  const parts = [yGrid(ticks, y, m, options.formatTick)];
  const slot = w / Math.max(1, bars.length);
  const barWidth = Math.min(110, slot * 0.55);
  bars.forEach((b, i) => {
    const cx = m.left + slot * (i + 0.5);
    const x = cx - barWidth / 2;
    const whisker = b.low !== null && b.high !== null
      ? `<path class="whisker" d="M${num(cx)} ${num(y(b.low))}V${num(y(b.high))}M${num(cx - 10)} ${num(y(b.low))}H${
        num(cx + 10)
      }M${num(cx - 10)} ${num(y(b.high))}H${num(cx + 10)}"/>`
      : "";
    const labelY = Math.min(y(b.value), b.high !== null ? y(b.high) : Infinity) - 6;
    parts.push(
      `<g class="bar" data-runtime="${escapeXml(b.key)}" data-value="${formatNumber(b.value)}"` +
        (b.low !== null && b.high !== null
          ? ` data-ci-low="${formatNumber(b.low)}" data-ci-high="${formatNumber(b.high)}"`
          : "") +
        `>` +
        `<title>${escapeXml(b.tooltip)}</title>` +
        `<rect x="${num(x)}" y="${num(y(b.value))}" width="${num(barWidth)}" height="${
          num(m.top + h - y(b.value))
        }" fill="${b.color}"/>` + whisker +
        `<text class="value" x="${num(cx)}" y="${num(Math.max(m.top - 4, labelY))}" text-anchor="middle">${
          escapeXml(b.display)
        }</text>` +
        `<text class="label" x="${num(cx)}" y="${m.top + h + 18}" text-anchor="middle">${escapeXml(b.label)}</text>` +
        `<text class="sublabel" x="${num(cx)}" y="${m.top + h + 34}" text-anchor="middle">${
          escapeXml(b.sublabel)
        }</text></g>`,
    );
  });
  parts.push(legendAndAxis([], m));
  const label = `${options.title}: ` + bars.map((b) => `${b.label} ${b.display}`).join(", ");
  return frame("bar-chart", label, options.title, options.subtitle, parts.join(""));
}

/** One line of a line chart. */
export interface LineSeries {
  /** Stable key (runtime requested), for `data-runtime` and the legend. */
  readonly key: string;
  /** Legend label. */
  readonly label: string;
  readonly color: string;
  /** Points in x order; `tooltip` becomes the point's `<title>`. */
  readonly points: readonly {
    readonly x: number;
    readonly y: number;
    readonly tooltip?: string;
    /** Ring this point (a sweep's knee), with `data-ring` on its mark. */
    readonly ring?: boolean;
  }[];
  /** Draw a marker on every point. */
  readonly markers?: boolean;
}

/** A line chart with a legend; `logY` plots y on a log axis. */
export function lineChart(options: {
  readonly className: string;
  readonly title: string;
  readonly subtitle: string;
  readonly xLabel: string;
  readonly series: readonly LineSeries[];
  readonly formatX: (x: number) => string;
  readonly formatY: (y: number) => string;
  /** Fixed x ticks with labels; by default round ticks over the data. */
  readonly xTicks?: readonly { readonly value: number; readonly label: string }[];
  readonly logY?: boolean;
  /** Lowest value the y axis shows (linear axis). @default {0} */
  readonly yFloor?: number;
  /** Dashed horizontal lines across the plot (an objective), each labelled. */
  readonly guides?: readonly { readonly y: number; readonly label: string }[];
}): string {
  const m = { top: 56, right: 150, bottom: 44, left: 84 };
  const w = WIDTH - m.left - m.right;
  const h = HEIGHT - m.top - m.bottom;
  const all = options.series.flatMap((s) => s.points);
  const xs = all.map((p) => p.x);
  const ys = [...all.map((p) => p.y), ...(options.guides ?? []).map((g) => g.y)].filter((v) => !options.logY || v > 0);
  const xTicks = options.xTicks ??
    niceTicks(Math.min(...xs, 0), Math.max(...xs, 1), 6).map((v) => ({ value: v, label: options.formatX(v) }));
  const xMin = Math.min(...xTicks.map((t) => t.value), ...xs);
  const xMax = Math.max(...xTicks.map((t) => t.value), ...xs);
  const yTicks = options.logY
    ? logTicks(Math.min(...ys), Math.max(...ys))
    : niceTicks(options.yFloor ?? 0, Math.max(...ys, (options.yFloor ?? 0) + 1), 5);
  const yLow = options.logY ? Math.min(yTicks[0], ...ys) : yTicks[0];
  const yHigh = Math.max(yTicks.at(-1)!, ...ys);
  const fy = (v: number) => options.logY ? Math.log10(Math.max(v, yLow)) : v;
  const x = (v: number) => m.left + (xMax === xMin ? 0.5 : (v - xMin) / (xMax - xMin)) * w;
  const y = (v: number) => m.top + h - (fy(v) - fy(yLow)) / ((fy(yHigh) - fy(yLow)) || 1) * h;
  const parts = [yGrid(yTicks, y, m, options.formatY)];
  for (const t of xTicks) {
    parts.push(
      `<line class="grid" x1="${num(x(t.value))}" x2="${num(x(t.value))}" y1="${m.top}" y2="${m.top + h}"/>` +
        `<text class="tick" x="${num(x(t.value))}" y="${m.top + h + 16}" text-anchor="middle">${
          escapeXml(t.label)
        }</text>`,
    );
  }
  for (const g of options.guides ?? []) {
    parts.push(
      `<g class="guide" data-y="${formatNumber(g.y)}"><line x1="${m.left}" x2="${m.left + w}" y1="${num(y(g.y))}" y2="${
        num(y(g.y))
      }"/><text class="tick" x="${m.left + w - 4}" y="${num(y(g.y) - 4)}" text-anchor="end">${
        escapeXml(g.label)
      }</text></g>`,
    );
  }
  parts.push(
    `<text class="axis-label" x="${m.left + w / 2}" y="${HEIGHT - 6}" text-anchor="middle">${
      escapeXml(options.xLabel)
    }</text>`,
  );
  for (const s of options.series) {
    const d = s.points.map((p, i) => `${i === 0 ? "M" : "L"}${num(x(p.x))} ${num(y(p.y))}`).join("");
    const markers = s.markers
      ? s.points.map((p) =>
        `<circle cx="${num(x(p.x))}" cy="${num(y(p.y))}" r="3.5" fill="${s.color}">` +
        (p.tooltip ? `<title>${escapeXml(p.tooltip)}</title>` : "") + `</circle>` +
        (p.ring
          ? `<circle class="ring" data-ring="${formatNumber(p.x)}:${formatNumber(p.y)}" cx="${num(x(p.x))}" cy="${
            num(y(p.y))
          }" r="8" ` +
            `fill="none" stroke="${s.color}" stroke-width="2"/>`
          : "")
      ).join("")
      : "";
    parts.push(
      `<g class="series" data-runtime="${escapeXml(s.key)}" data-points="${
        escapeXml(s.points.map((p) => `${formatNumber(p.x)}:${formatNumber(p.y)}`).join(" "))
      }"><path d="${d}" fill="none" stroke="${s.color}" stroke-width="2"/>${markers}</g>`,
    );
  }
  parts.push(legendAndAxis([...new Map(options.series.map((s) => [s.key, s])).values()], m));
  return frame(options.className, options.title, options.title, options.subtitle, parts.join(""));
}
