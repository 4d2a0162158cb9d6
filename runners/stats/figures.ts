/**
 * What a figure's name says: its unit (from the suffix) and which way is better. One table,
 * {@linkcode FIGURE_DIRECTIONS}, holds every direction: the CSV's `higher_is_better`, the overview's row of CPU per
 * request at the fixed rate ("lower is better", ↓), `compare`'s latency and CPU figures and the latency chart read it,
 * so no two reports can disagree. (A record's headline carries its own direction, set by its kind or workload.)
 *
 * @module
 */

/** One row of the table of directions: the figures a pattern matches, and which way is better for them. */
export interface FigureDirection {
  /** Matches a figure's name (a latency percentile's `latencyUs.p99` is matched as `latencyUs`). */
  readonly pattern: RegExp;
  /** `true`: higher is better; `false`: lower is; `null`: the figure ranks no runtime (a setting, a count). */
  readonly higherIsBetter: boolean | null;
  /** What the figures are, in a few words. */
  readonly what: string;
}

/**
 * The directions of figures, first match wins: settings and counts of work given (no direction) before failures,
 * rates, CPU, latency, time and memory. A figure no row matches has no direction.
 */
export const FIGURE_DIRECTIONS: readonly FigureDirection[] = [
  { pattern: /^(durationMs|windowMs|warmupMs|countedSpanMs)$/, higherIsBetter: null, what: "a window's length" },
  { pattern: /^target/, higherIsBetter: null, what: "a rate or count asked for" },
  { pattern: /^(samples|packagesInstalled|idleConnections)$/, higherIsBetter: null, what: "a count of work given" },
  { pattern: /^valid/, higherIsBetter: true, what: "verified responses or messages" },
  {
    pattern: /errors|timeouts|failed|mismatches|non2xx|^late[A-Z]|missed|dropped|hung|unanswered|outlier/i,
    higherIsBetter: false,
    what: "failures",
  },
  { pattern: /PerSecond/, higherIsBetter: true, what: "a rate or throughput (per core too)" },
  { pattern: /Cpu|Cores/, higherIsBetter: false, what: "CPU: time per request, share of a core, cores used" },
  { pattern: /^latency|Latency/, higherIsBetter: false, what: "latency" },
  { pattern: /(Ns|Us|Ms|Sec)$/, higherIsBetter: false, what: "a time" },
  { pattern: /Bytes$/, higherIsBetter: false, what: "memory" },
  { pattern: /RmePercent$/, higherIsBetter: false, what: "a micro-benchmark's margin of error" },
];

/**
 * The unit of a figure, from the suffix of its name: `1/s`, `B/s`, `ns`, `us`, `ms`, `s`, `bytes`, `%` or `count`.
 * A rate per core (`requestsPerSecondPerCore`) is a rate; CPU time per request (`serverCpuUsPerRequest`) is time.
 *
 * @param figure A figure's name, or a latency percentile's (`latencyUs.p99`).
 * @returns The unit.
 *
 * @example
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { figureUnit } from "./figures.ts";
 *
 * assertEquals(
 *   ["requestsPerSecond", "latencyUs.p99", "serverCpuUsPerRequestAtRate", "requestsPerSecondPerCore"].map(figureUnit),
 *   ["1/s", "us", "us", "1/s"],
 * );
 * ```
 */
export function figureUnit(figure: string): string {
  const name = figure.split(".")[0];
  if (name === "bytesPerSecond") return "B/s";
  if (/PerSecond(Per[A-Z]\w*)?$/.test(name)) return "1/s";
  if (name.endsWith("Ns")) return "ns";
  if (/Us(Per[A-Z]\w*)?$/.test(name)) return "us";
  if (name.endsWith("Ms")) return "ms";
  if (name.endsWith("Sec")) return "s";
  if (name.endsWith("Bytes")) return "bytes";
  if (name.endsWith("Percent")) return "%";
  return "count";
}

/**
 * Whether a larger value of a figure is better, from {@linkcode FIGURE_DIRECTIONS}: `true` or `false` for a figure with
 * a direction, `null` for one that ranks no runtime.
 *
 * @param figure A figure's name, or a latency percentile's (`latencyUs.p99`).
 * @returns Its direction, or null.
 *
 * @example
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { higherIsBetter } from "./figures.ts";
 *
 * assertEquals(
 *   ["requestsPerSecond", "serverCpuUsPerRequestAtRate", "latencyUs.p99", "durationMs"].map(higherIsBetter),
 *   [true, false, false, null],
 * );
 * ```
 */
export function higherIsBetter(figure: string): boolean | null {
  const name = figure.split(".")[0];
  return FIGURE_DIRECTIONS.find((d) => d.pattern.test(name))?.higherIsBetter ?? null;
}
