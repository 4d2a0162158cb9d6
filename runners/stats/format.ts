/**
 * Number formatting shared by the exporters and the kinds' report views: units in every cell.
 *
 * @module
 */

import type { BenchRecord } from "../schema/mod.ts";

/**
 * Writes a number in full, as a machine reads it, without the noise of binary fractions: rounded to 12 significant
 * digits (more than any measurement holds, fewer than the 16 or 17 at which a float sum goes astray), then the
 * shortest form that reads back as that. Every exporter that prints a raw value (CSV cells and samples, the data
 * attributes of the HTML page) writes it with this.
 *
 * @example
 * ```ts
 * import { formatNumber } from "./format.ts";
 * console.log(formatNumber(162351.00000000003), formatNumber(1.9999999999999996)); // "162351" "2"
 * console.log(formatNumber(6938.333), formatNumber(0.3010299956639812)); // "6938.333" "0.301029995664"
 * ```
 */
export function formatNumber(n: number): string {
  return String(Number(n.toPrecision(12)));
}

/** Formats a count or rate with thousands separators and no decimals. */
export function formatCount(n: number): string {
  return Math.round(n).toLocaleString("en-US");
}

/**
 * Formats milliseconds as seconds to the millisecond, without the float noise of a window summed from parts.
 *
 * @example
 * ```ts
 * import { formatSeconds } from "./format.ts";
 * console.log(formatSeconds(2000.0000000000004), formatSeconds(12_500)); // "2 s" "12.5 s"
 * ```
 */
export function formatSeconds(ms: number): string {
  return `${Math.round(ms) / 1000} s`;
}

/** Formats microseconds as `850 µs`, `1.24 ms` or `2.1 s`. */
export function formatUs(us: number): string {
  if (us < 1000) return `${Math.round(us)} µs`;
  if (us < 1_000_000) return `${(us / 1000).toFixed(us < 10_000 ? 2 : 1)} ms`;
  return `${(us / 1_000_000).toFixed(2)} s`;
}

/**
 * Formats a latency of `record` like {@linkcode formatUs}, with `≥` in front when it reaches the timeout at which the
 * record's unanswered requests entered its histogram (such a percentile is a lower bound), and `≈` when the record's
 * latency was rebuilt from quantiles the load generator reported of its own histogram (`latencyQuantiles`: wrk's
 * `done()` hook on a widely spread histogram, bombardier always), not from every latency.
 *
 * @example
 * ```ts
 * import { formatLatency } from "./format.ts";
 * console.log(formatLatency({ runs: [], latencyQuantiles: 1000 }, 1520)); // "≈ 1.52 ms"
 * console.log(formatLatency({ runs: [] }, 1520)); // "1.52 ms"
 * ```
 */
export function formatLatency(record: Pick<BenchRecord, "runs" | "latencyQuantiles">, us: number): string {
  const bounds = record.runs.filter((r) => (r.accounting?.unanswered ?? 0) > 0).map((r) => r.accounting!.timeoutMs);
  // HdrHistogram keeps 3 significant digits: a value recorded at the timeout may read a little under it.
  const censored = bounds.length > 0 && us >= Math.min(...bounds) * 1000 * 0.999;
  const approximate = record.latencyQuantiles !== undefined;
  return `${censored ? "≥ " : approximate ? "≈ " : ""}${formatUs(us)}`;
}

/**
 * The note under a section whose latency is marked `≈`: which records, from how many of whose quantiles; null when
 * every record read every latency.
 *
 * @example
 * ```ts
 * import { approximateLatencyNote } from "./format.ts";
 * const record = { runtime: { name: "node" }, loadGenerator: { name: "wrk" }, latencyQuantiles: 1000 };
 * console.log(approximateLatencyNote([record])?.slice(0, 48)); // "≈ latency of node: rebuilt from 1,000 quantiles "
 * ```
 */
export function approximateLatencyNote(
  records: readonly {
    readonly runtime: { readonly name: string };
    readonly loadGenerator: { readonly name: string } | null;
    readonly latencyQuantiles?: number;
  }[],
): string | null {
  const marked = records.filter((r) => r.latencyQuantiles !== undefined);
  if (marked.length === 0) return null;
  const names = [...new Set(marked.map((r) => r.runtime.name))].join(", ");
  const most = Math.max(...marked.map((r) => r.latencyQuantiles!));
  const generators = [...new Set(marked.map((r) => r.loadGenerator?.name ?? "the load generator"))];
  const how = generators.some((g) => g.startsWith("wrk"))
    ? " (wrk's, read in its done() hook where a run's histogram was too spread out to read latency by latency)"
    : "";
  return `≈ latency of ${names}: rebuilt from ${formatCount(most)} quantiles ${generators.join(" and ")} reported ` +
    `of its own histogram${how}, not from every response's latency: an approximation, to within the quantiles' ` +
    "spacing (runs[].latencyQuantiles in the JSON)";
}

/** Formats bytes per second as `12.3 MB/s`. */
export function formatBytesPerSecond(n: number): string {
  if (n >= 1e9) return `${(n / 1e9).toFixed(2)} GB/s`;
  if (n >= 1e6) return `${(n / 1e6).toFixed(1)} MB/s`;
  if (n >= 1e3) return `${(n / 1e3).toFixed(1)} kB/s`;
  return `${Math.round(n)} B/s`;
}

/** Formats a figure by the unit its name ends with. */
export function formatFigure(name: string, value: number): string {
  // CPU time per request is a few microseconds: whole microseconds would hide a 20% difference.
  if (/CpuUsPer/.test(name)) return value < 100 ? `${value.toFixed(2)} µs` : formatUs(value);
  if (name.endsWith("Us")) return formatUs(value);
  if (name.endsWith("Ms")) return value >= 1000 ? `${(value / 1000).toFixed(2)} s` : `${value.toFixed(2)} ms`;
  if (name === "bytesPerSecond") return formatBytesPerSecond(value);
  if (name.endsWith("Bytes")) return `${(value / 1048576).toFixed(1)} MiB`;
  if (name.endsWith("Percent")) return `${value.toFixed(1)} %`;
  // Slow workloads (bcrypt) run at a few per second, where a whole number hides a 10% difference.
  if (name.endsWith("PerSecond")) return Math.abs(value) < 100 ? `${value.toFixed(1)}/s` : `${formatCount(value)}/s`;
  return formatCount(value);
}

/** Renders rows as an aligned text table; the first row is the header. */
export function alignTable(rows: readonly (readonly string[])[], rightAligned: readonly number[] = []): string {
  const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => [...(r[i] ?? "")].length)));
  const line = (r: readonly string[]) =>
    r.map((cell, i) => {
      const pad = " ".repeat(widths[i] - [...cell].length);
      return rightAligned.includes(i) ? pad + cell : cell + pad;
    }).join("  ").trimEnd();
  return [line(rows[0]), widths.map((w) => "─".repeat(w)).join("  "), ...rows.slice(1).map(line)].join("\n");
}
