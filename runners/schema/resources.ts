/**
 * The resource types of a result: per-interval samples of the server's and
 * the load generator's process trees, and their means and peaks.
 *
 * @module
 */

/**
 * Which process tree a series describes.
 *
 * @example The two sides of a measurement
 * ```ts
 * import type { ResourceRole } from "@rtbench/rtbench/schema";
 *
 * const roles: ResourceRole[] = ["server", "client"];
 * ```
 */
export type ResourceRole = "server" | "client";

/**
 * A sampled figure, never below zero: a share of CPU time, a size, a count, a time since the window opened.
 *
 * @example A resident set size
 * ```ts
 * import type { NonNegative } from "@rtbench/rtbench/schema";
 *
 * const rssBytes: NonNegative = 52_428_800;
 * ```
 *
 * @minimum 0
 */
export type NonNegative = number;

/**
 * A measured time or size above zero.
 *
 * @example A timed round
 * ```ts
 * import type { Positive } from "@rtbench/rtbench/schema";
 *
 * const roundMs: Positive = 41.7;
 * ```
 *
 * @exclusiveMinimum 0
 */
export type Positive = number;

/**
 * Sampled values of one process tree, one entry per interval.
 *
 * @example The peak memory of a series
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import type { RoleSeries } from "@rtbench/rtbench/schema";
 *
 * const server: RoleSeries = {
 *   cpuPercent: [98, 101],
 *   busiestThreadPercent: [97, 99],
 *   demandPercent: [100, 102],
 *   busiestThreadDemandPercent: [99, 100],
 *   rssBytes: [48_000_000, 49_000_000],
 *   threads: [6, 6],
 *   openFiles: [126, 126],
 *   processes: [1, 1],
 * };
 * assertEquals(Math.max(...server.rssBytes), 49_000_000);
 * ```
 */
export interface RoleSeries {
  /** CPU time of every thread of every process in the tree, in percent of one CPU. */
  readonly cpuPercent: readonly (NonNegative | null)[];
  /** The busiest single thread's CPU time in percent of one CPU (a single-threaded event loop saturates at 100). */
  readonly busiestThreadPercent: readonly (NonNegative | null)[];
  /**
   * Demand: time the tree's threads were on a CPU or runnable and waiting for
   * one, percent of one CPU (null where the kernel keeps no schedstat). Unlike
   * CPU time it stays high for a saturated process that other work on a shared
   * machine keeps off the CPU.
   */
  readonly demandPercent: readonly (NonNegative | null)[];
  /** The most demanding single thread, percent of one CPU (null where unknown). */
  readonly busiestThreadDemandPercent: readonly (NonNegative | null)[];
  /** Resident memory of the tree. */
  readonly rssBytes: readonly NonNegative[];
  /** Threads in the tree. */
  readonly threads: readonly NonNegative[];
  /** Open file descriptors (sockets included) in the tree. */
  readonly openFiles: readonly NonNegative[];
  /** Processes in the tree. */
  readonly processes: readonly NonNegative[];
}

/**
 * The time series of one measured window.
 *
 * @example CPU of the server over a run
 * ```ts
 * import type { ResourceSeries } from "@rtbench/rtbench/schema";
 *
 * function serverCpu(series: ResourceSeries): [number, number | null][] {
 *   return series.tMs.map((t, i) => [t, series.server?.cpuPercent[i] ?? null]);
 * }
 * ```
 */
export interface ResourceSeries {
  /**
   * Sampling interval asked for.
   *
   * @minimum 10
   */
  readonly intervalMs: number;
  /** End of each interval, in milliseconds since the first sample of the window. */
  readonly tMs: readonly NonNegative[];
  /** The server's process tree, or null when it was not found. */
  readonly server: RoleSeries | null;
  /** The load generator's process tree, or null when it was not found. */
  readonly client: RoleSeries | null;
}

/**
 * Mean and peak of one sampled quantity.
 *
 * @example Mean and peak of the server's CPU
 * ```ts
 * import type { MeanPeak } from "@rtbench/rtbench/schema";
 *
 * const cpu: MeanPeak = { mean: 98.4, peak: 104 };
 * ```
 */
export interface MeanPeak {
  /**
   * Time-weighted mean over the window.
   *
   * @minimum 0
   */
  readonly mean: number;
  /**
   * Largest single sample.
   *
   * @minimum 0
   */
  readonly peak: number;
}

/**
 * Summary of one process tree over a window.
 *
 * @example Is the load generator at its limit?
 * ```ts
 * import type { RoleSummary } from "@rtbench/rtbench/schema";
 *
 * function saturated(client: RoleSummary): boolean {
 *   return client.busiestThreadPercent.mean >= 90;
 * }
 * ```
 */
export interface RoleSummary {
  /** CPU of the whole tree, percent of one CPU. */
  readonly cpuPercent: MeanPeak;
  /** The busiest thread, percent of one CPU. */
  readonly busiestThreadPercent: MeanPeak;
  /** On a CPU or waiting for one, whole tree, percent of one CPU (null where the kernel keeps no schedstat). */
  readonly demandPercent: MeanPeak | null;
  /** On a CPU or waiting for one, the most demanding thread, percent of one CPU. */
  readonly busiestThreadDemandPercent: MeanPeak | null;
  /** Resident memory. */
  readonly rssBytes: MeanPeak;
  /** Threads. */
  readonly threads: MeanPeak;
  /** Open file descriptors. */
  readonly openFiles: MeanPeak;
}

/**
 * What the sampler measured over one window, and what sampling cost.
 *
 * @example Records whose server was sampled
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { parseResult, type ResourceSummary } from "@rtbench/rtbench/schema";
 *
 * const records = parseResult(await Deno.readTextFile("fixtures/results/base.json")).records;
 * const sampled = records.flatMap((r) => r.resources?.server ? [r.resources as ResourceSummary] : []);
 * assertEquals(sampled.length, 0); // this result predates resource sampling
 * ```
 */
export interface ResourceSummary {
  /**
   * Sampling interval asked for.
   *
   * @minimum 10
   */
  readonly intervalMs: number;
  /**
   * Samples inside the window.
   *
   * @minimum 0
   * @asType integer
   */
  readonly samples: number;
  /** The server's tree. */
  readonly server: RoleSummary | null;
  /** The load generator's tree. */
  readonly client: RoleSummary | null;
  /**
   * CPU the sampler's helper and its `cat` children used, percent of one CPU.
   *
   * @minimum 0
   */
  readonly samplerCpuPercent: number | null;
  /**
   * CPU the harness process used meanwhile (it parses the samples), percent of one CPU.
   *
   * @minimum 0
   */
  readonly harnessCpuPercent: number | null;
}
