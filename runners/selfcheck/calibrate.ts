/**
 * Calibration (`deno task calibrate`): how fast each installed load generator can go on
 * this machine, measured against the fastest server rtbench has (Deno.serve
 * answering `http-json`) on the same CPU split as a real run, with the
 * resource sampler watching both sides. A generator whose CPU is at its limit
 * while the server's is not has reached its ceiling; one that leaves the
 * server saturated has room to spare.
 *
 * @module
 */

import { builtinAdapters, cacheDir as defaultCacheDir, parseRuntimeSpecs, resolveRuntime } from "../../adapters/mod.ts";
import { httpJson } from "../../workloads/mod.ts";
import { AT_LIMIT, saturation } from "../stats/mod.ts";
import { allowedCpus, makeTempDir, removeTemp, splitCpus, stageServer, UsageError } from "../platform/mod.ts";
import { alignTable, formatCount } from "../report/mod.ts";
import {
  builtinLoadGenerators,
  type LoadGenerator,
  type LoadSettings,
  startSampler,
  wrkCheckingGenerator,
  wrkGenerator,
} from "../drivers/mod.ts";
import type { CpuSets } from "../schema/mod.ts";
import { startServer } from "../kinds/mod.ts";

/**
 * How a calibration run ended.
 *
 * @example Which rows measured the generator rather than the server
 * ```ts
 * import type { CalibrationRow, CalibrationVerdict } from "@rtbench/rtbench/runners";
 *
 * const limited: CalibrationVerdict[] = ["client-bound", "both-saturated"];
 * function ceilingReached(row: CalibrationRow): boolean {
 *   return limited.includes(row.verdict);
 * }
 * ```
 */
export type CalibrationVerdict = "client-bound" | "server-bound" | "both-saturated" | "unsaturated";

/**
 * One generator's calibration.
 *
 * @example A generator that saturated its core
 * ```ts
 * import type { CalibrationRow } from "@rtbench/rtbench/runners";
 *
 * const row: CalibrationRow = {
 *   generator: "autocannon",
 *   version: "9.0.0",
 *   requestsPerSecond: 71_000,
 *   clientCpuPercent: 100,
 *   serverCpuPercent: 62,
 *   clientDemandPercent: 100,
 *   serverDemandPercent: 64,
 *   verdict: "client-bound",
 *   ceilingRequestsPerSecond: 71_000,
 * };
 * ```
 */
export interface CalibrationRow {
  /** Generator name. */
  readonly generator: string;
  /** Its version. */
  readonly version: string;
  /** Valid responses per second. */
  readonly requestsPerSecond: number;
  /** The generator's CPU over the window, percent of one CPU. */
  readonly clientCpuPercent: number | null;
  /** The server's CPU over the window, percent of one CPU. */
  readonly serverCpuPercent: number | null;
  /** The generator's demand (on a CPU or waiting for one), percent of one CPU. */
  readonly clientDemandPercent: number | null;
  /** The server's demand, percent of one CPU. */
  readonly serverDemandPercent: number | null;
  /** Which side saturated. */
  readonly verdict: CalibrationVerdict;
  /**
   * The generator's ceiling: its measured rate when it was client-bound, else
   * the rate scaled up to a saturated client (a projection: null when unsampled).
   */
  readonly ceilingRequestsPerSecond: number | null;
  /** Why the generator could not be measured, when it could not. */
  readonly error?: string;
}

/**
 * Options of {@linkcode measureGeneratorCeilings}.
 *
 * @example Node.js as the server, autocannon only, short windows
 * ```ts
 * import { autocannonGenerator, type CalibrateOptions } from "@rtbench/rtbench/runners";
 *
 * const options: CalibrateOptions = {
 *   runtime: "node",
 *   generators: [autocannonGenerator],
 *   settings: { durationSec: 2, warmupSec: 1 },
 *   onRow: (row) => console.error(row.generator, row.verdict),
 * };
 * ```
 */
export interface CalibrateOptions {
  /** Runtime serving `http-json`. @default {"deno"} */
  readonly runtime?: string;
  /** Load settings. @default {{ durationSec: 3, warmupSec: 1, connections: 100, pipelining: 1, requestTimeoutSec: 10 }} */
  readonly settings?: Partial<LoadSettings>;
  /** Generators to measure. @default {the installed built-in ones, plus wrk with every response checked} */
  readonly generators?: readonly LoadGenerator[];
  /** CPU sets. @default {the split a real run uses} */
  readonly cpus?: CpuSets;
  /** Stops the calibration. */
  readonly signal?: AbortSignal;
  /** Receives each row as soon as it is measured. */
  onRow?(row: CalibrationRow): void;
}

/**
 * What {@linkcode measureGeneratorCeilings} measured.
 *
 * @example The fastest generator of a calibration
 * ```ts
 * import type { Calibration } from "@rtbench/rtbench/runners";
 *
 * function fastest(c: Calibration): string | undefined {
 *   return c.rows.toSorted((a, b) => b.requestsPerSecond - a.requestsPerSecond)[0]?.generator;
 * }
 * ```
 */
export interface Calibration {
  /** The server's runtime and version. */
  readonly runtime: string;
  /** CPU sets used. */
  readonly cpus: CpuSets;
  /** Settings used. */
  readonly settings: LoadSettings;
  /** One row per generator, in the order measured. */
  readonly rows: readonly CalibrationRow[];
}

const DEFAULTS: LoadSettings = { durationSec: 3, warmupSec: 1, connections: 100, pipelining: 1, requestTimeoutSec: 10 };

async function installed(): Promise<LoadGenerator[]> {
  const out: LoadGenerator[] = [];
  for (const g of builtinLoadGenerators) {
    if (!(await g.available())) continue;
    out.push(g);
    if (g === wrkGenerator) out.push(wrkCheckingGenerator);
  }
  return out;
}

/**
 * Measures the load generators' ceilings on this machine: each generator against a fresh `http-json` server, with
 * both sides' CPU, so that each row says whether the generator or the server was the limit.
 *
 * @param options The server's runtime, the generators to measure, load settings and CPU sets.
 * @returns One row per generator: its rate, both sides' CPU, and which side saturated.
 *
 * @example Measure autocannon's ceiling for one second
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { autocannonGenerator, measureGeneratorCeilings } from "@rtbench/rtbench/runners";
 *
 * const { rows } = await measureGeneratorCeilings({ generators: [autocannonGenerator], settings: { durationSec: 1, warmupSec: 0 } });
 * assertEquals(rows.map((r) => [r.generator, r.requestsPerSecond > 0]), [["autocannon", true]]);
 * ```
 */
export async function measureGeneratorCeilings(options: CalibrateOptions = {}): Promise<Calibration> {
  const settings = { ...DEFAULTS, ...options.settings };
  const signal = options.signal ?? new AbortController().signal;
  const [spec] = parseRuntimeSpecs(options.runtime ?? "deno");
  const runtime = await resolveRuntime(spec, { adapters: builtinAdapters, cacheDir: defaultCacheDir(), signal });
  const cpus = options.cpus ?? splitCpus(await allowedCpus());
  const generators = options.generators ?? await installed();
  const source = httpJson.server(runtime.name, "default");
  if ("skip" in source) throw new UsageError(`--runtime: ${source.skip}`);
  const requests = httpJson.traffic({ variant: "default", options: {}, settings: {} as never, tempDir: "", signal })
    .requests;
  const dir = await makeTempDir({ prefix: "rtbench-calibrate-" });
  const rows: CalibrationRow[] = [];
  try {
    const file = await stageServer(source.entry, dir);
    for (const generator of generators) {
      signal.throwIfAborted();
      const row = await measure(generator, runtime, file, dir, requests, settings, cpus, signal);
      rows.push(row);
      options.onRow?.(row);
    }
  } finally {
    await removeTemp(dir);
  }
  return { runtime: `${runtime.name} ${runtime.version}`, cpus, settings, rows };
}

async function measure(
  generator: LoadGenerator,
  runtime: Awaited<ReturnType<typeof resolveRuntime>>,
  file: string,
  dir: string,
  requests: Parameters<LoadGenerator["run"]>[0]["requests"],
  settings: LoadSettings,
  cpus: CpuSets,
  signal: AbortSignal,
): Promise<CalibrationRow> {
  const version = await generator.version();
  const server = await startServer({ runtime, file, cwd: dir, cpus: cpus.server, timeoutMs: 30_000, signal });
  const sampler = startSampler({ roots: { server: [server.group.pid] }, cpus: cpus.client });
  try {
    const m = await generator.run({ baseUrl: server.baseUrl, requests }, settings, {
      cpus: cpus.client,
      signal,
      onSpawn: (pid) => sampler.addRoot("client", pid),
    });
    const fromMs = m.windowStartMs ?? Date.now() - m.durationMs;
    const { summary } = await sampler.stop({ fromMs, toMs: fromMs + m.durationMs });
    const judged = saturation(summary, cpus);
    const verdict: CalibrationVerdict = !judged
      ? "unsaturated"
      : judged.clientBound
      ? "client-bound"
      : judged.server >= AT_LIMIT
      ? judged.client >= AT_LIMIT ? "both-saturated" : "server-bound"
      : "unsaturated";
    const ceiling = !judged
      ? null
      : verdict === "client-bound" || verdict === "both-saturated"
      ? m.requestsPerSecond
      : judged.client > 0
      ? Math.round(m.requestsPerSecond / Math.min(1, judged.client))
      : null;
    return {
      generator: generator.name,
      version,
      requestsPerSecond: m.requestsPerSecond,
      clientCpuPercent: summary.client?.cpuPercent.mean ?? m.clientCpuPercent,
      serverCpuPercent: summary.server?.cpuPercent.mean ?? null,
      clientDemandPercent: summary.client?.demandPercent?.mean ?? null,
      serverDemandPercent: summary.server?.demandPercent?.mean ?? null,
      verdict,
      ceilingRequestsPerSecond: ceiling,
    };
  } catch (error) {
    await sampler.stop();
    signal.throwIfAborted();
    return {
      generator: generator.name,
      version,
      requestsPerSecond: 0,
      clientCpuPercent: null,
      serverCpuPercent: null,
      clientDemandPercent: null,
      serverDemandPercent: null,
      verdict: "unsaturated",
      ceilingRequestsPerSecond: null,
      error: (error as Error).message,
    };
  } finally {
    await server.stop();
  }
}

/**
 * Renders a calibration as a table.
 *
 * @param c A finished calibration.
 * @returns An aligned table, one row per generator, with a legend.
 *
 * @example Render a calibration
 * ```ts
 * import { assert } from "@std/assert";
 * import { formatCalibration } from "@rtbench/rtbench/runners";
 *
 * const table = formatCalibration({
 *   runtime: "deno 2.9.6",
 *   cpus: { server: "0", client: "1" },
 *   settings: { durationSec: 3, warmupSec: 1, connections: 100, pipelining: 1, requestTimeoutSec: 10 },
 *   rows: [{
 *     generator: "autocannon",
 *     version: "9.0.0",
 *     requestsPerSecond: 71_000,
 *     clientCpuPercent: 100,
 *     serverCpuPercent: 62,
 *     clientDemandPercent: 100,
 *     serverDemandPercent: 64,
 *     verdict: "client-bound",
 *     ceilingRequestsPerSecond: 71_000,
 *   }],
 * });
 * assert(table.includes("autocannon"));
 * ```
 */
export function formatCalibration(c: Calibration): string {
  const rows: string[][] = [[
    "generator",
    "version",
    "requests/s",
    "client cpu (demand)",
    "server cpu (demand)",
    "ceiling",
  ]];
  for (const r of c.rows) {
    const pct = (n: number | null, demand: number | null) =>
      n === null ? "" : `${Math.round(n)}%${demand === null ? "" : ` (${Math.round(demand)}%)`}`;
    const ceiling = r.error
      ? `failed: ${r.error.slice(0, 80)}`
      : r.verdict === "client-bound"
      ? `${formatCount(r.requestsPerSecond)}/s (client-bound: this is its ceiling)`
      : r.verdict === "both-saturated"
      ? `≈ ${formatCount(r.requestsPerSecond)}/s (both sides saturated: client and server are matched)`
      : r.verdict === "server-bound"
      ? `> ${formatCount(r.requestsPerSecond)}/s (server-bound; ~${
        formatCount(r.ceilingRequestsPerSecond ?? 0)
      }/s projected from its CPU)`
      : "unknown (neither side saturated: is the machine busy?)";
    rows.push([
      r.generator,
      r.version,
      r.error ? "" : `${formatCount(r.requestsPerSecond)}/s`,
      pct(r.clientCpuPercent, r.clientDemandPercent),
      pct(r.serverCpuPercent, r.serverDemandPercent),
      ceiling,
    ]);
  }
  const s = c.settings;
  const head = `calibrate · http-json on ${c.runtime} · ${s.connections} connections · ${s.durationSec} s after ` +
    `${s.warmupSec} s warm-up · ` +
    (c.cpus.server !== null ? `server cpu ${c.cpus.server}, client cpu ${c.cpus.client}` : "not pinned");
  const best = c.rows.filter((r) => !r.error && r.generator !== wrkCheckingGenerator.name)[0];
  const foot = best ? `--load-generator auto uses ${best.generator} (the first that can send the traffic)` : "";
  const note = "demand: time on a CPU or waiting for one; a side at 90% of its CPUs is saturated";
  return [head, alignTable(rows, [2, 3, 4]), foot, note].filter(Boolean).join("\n") + "\n";
}
