/**
 * rtbench's engine against plain wrk (`deno task vs-wrk`): does `deno task
 * bench`, with its own load engine checking every response, report what a
 * plain `wrk -t1 -c100` (checking nothing) measures? For each runtime and
 * round, `deno task bench --workload http-json --load-generator rtbench` (one
 * run) and plain wrk against a fresh server of the same runtime, on the same
 * pinned CPUs with the same warm-up, alternating which goes first; then the
 * medians and their ratio. Last, `--load-generator autocannon` on Deno, to
 * show whether it is flagged `client-bound`.
 *
 * Quote its figures with the load average it prints: on a shared machine the
 * ratio is the stable part.
 *
 * @module
 */

import { builtinAdapters, parseRuntimeSpecs, resolveRuntime } from "../../adapters/mod.ts";
import { httpJson } from "../../workloads/http_json.ts";
import { runCommand, stopAllGroups } from "../platform/process.ts";
import { allowedCpus, splitCpus } from "../platform/cpus.ts";
import { alignTable, formatCount } from "../report/format.ts";
import type { CpuSets } from "../schema/result.ts";
import { benchProcess } from "./bench_process.ts";
import { startServer } from "../kinds/server.ts";
import { median } from "../stats/summary.ts";
import { stageServer } from "../platform/workspace.ts";
import { makeTempDir, removeTemp } from "../platform/temp.ts";

/**
 * What {@linkcode vsWrk} measures.
 *
 * @example Three rounds on two runtimes
 * ```ts
 * import type { VsWrkOptions } from "./vs_wrk.ts";
 *
 * const options: VsWrkOptions = {
 *   runtimes: ["deno", "node"],
 *   rounds: 3,
 *   durationSec: 3,
 *   warmupSec: 1,
 *   connections: 100,
 *   signal: AbortSignal.timeout(600_000),
 * };
 * ```
 */
export interface VsWrkOptions {
  /** Runtimes, as requested (`deno`, `node@22`). */
  readonly runtimes: readonly string[];
  /** Alternating rounds; the side that goes first alternates too. */
  readonly rounds: number;
  /** Measured seconds per run. */
  readonly durationSec: number;
  /** Warm-up seconds before each run. */
  readonly warmupSec: number;
  /** Connections of both. */
  readonly connections: number;
  /** Stops the comparison. */
  readonly signal: AbortSignal;
  /** Called after every round of one runtime. */
  readonly onRound?: (round: number, runtime: string, rtbench: number, wrk: number) => void;
}

/**
 * What {@linkcode vsWrk} measured: per runtime, every round's requests/s by
 * `deno task bench` and by plain wrk; and autocannon's figure on Deno.
 *
 * @example The ratio of medians
 * ```ts
 * import type { VsWrk } from "./vs_wrk.ts";
 *
 * function ratio(result: VsWrk, runtime: string): number {
 *   const { rtbench, wrk } = result.runtimes.find((r) => r.runtime === runtime)!;
 *   return rtbench.toSorted()[rtbench.length >> 1] / wrk.toSorted()[wrk.length >> 1];
 * }
 * ```
 */
export interface VsWrk {
  /** Per runtime, requests/s of every round. */
  readonly runtimes: readonly { readonly runtime: string; readonly rtbench: number[]; readonly wrk: number[] }[];
  /** `--load-generator autocannon` on Deno: requests/s and the record's warning codes. */
  readonly autocannon: { readonly rps: number; readonly warnings: readonly string[] };
  /** The CPU split both ran on. */
  readonly cpus: CpuSets;
  /** Load average when the comparison started and when it ended. */
  readonly load: { readonly before: string; readonly after: string };
}

type Options = Pick<VsWrkOptions, "signal" | "durationSec" | "warmupSec" | "connections">;

/** One `deno task bench` run; returns the record's median requests/s and its warning codes. */
async function rtbench(runtime: string, o: Options, generator: string): Promise<{ rps: number; warnings: string[] }> {
  const result = await benchProcess([
    "--workload=http-json",
    `--runtime=${runtime}`,
    `--duration=${o.durationSec}`,
    `--warmup=${o.warmupSec}`,
    `--connections=${o.connections}`,
    "--runs=1",
    `--load-generator=${generator}`,
  ], o.signal);
  const record = result.records[0];
  const rps = record.summary.requestsPerSecond?.median;
  if (record.status !== "completed" || rps === undefined) throw new Error(`${runtime}: ${record.error?.message}`);
  return { rps, warnings: record.warnings.map((w) => w.code) };
}

/** Plain `wrk -t1 -c<n>` against a fresh pinned server, after the same warm-up. */
async function plainWrk(runtime: string, o: Options, cpus: CpuSets): Promise<number> {
  const [spec] = parseRuntimeSpecs(runtime);
  const rt = await resolveRuntime(spec, { adapters: builtinAdapters });
  const source = httpJson.server(rt.name, "default");
  if ("skip" in source) throw new Error(source.skip);
  const dir = await makeTempDir({ prefix: "rtbench-vs-wrk-" });
  try {
    const file = await stageServer(source.entry, dir);
    const server = await startServer({
      runtime: rt,
      file,
      cwd: dir,
      cpus: cpus.server,
      timeoutMs: 30_000,
      signal: o.signal,
    });
    try {
      const wrk = async (sec: number) => {
        const out = await runCommand(
          ["wrk", "-t1", `-c${o.connections}`, `-d${Math.max(1, Math.ceil(sec))}s`, `${server.baseUrl}/`],
          { cpus: cpus.client, timeoutMs: (sec + 60) * 1000, signal: o.signal },
        );
        const rps = /Requests\/sec:\s+([\d.]+)/.exec(out.stdout)?.[1];
        if (!out.success || !rps) throw new Error(`wrk failed: ${out.stderr.trim() || out.stdout.trim()}`);
        return Number(rps);
      };
      if (o.warmupSec > 0) await wrk(o.warmupSec);
      return await wrk(o.durationSec);
    } finally {
      await server.stop();
    }
  } finally {
    await removeTemp(dir);
  }
}

function load(): string {
  try {
    return Deno.loadavg().map((n) => n.toFixed(2)).join(" ");
  } catch {
    return "unknown";
  }
}

/**
 * Alternates `deno task bench --workload http-json` (one run) and plain wrk
 * against a fresh server of the same runtime, on the same pinned CPUs, for
 * every runtime and round; then measures `--load-generator autocannon` on Deno.
 *
 * @param options Runtimes, rounds and load settings.
 * @returns Every round's figures. wrk must be installed.
 *
 * @example
 * ```ts ignore
 * import { formatVsWrk, vsWrk } from "./vs_wrk.ts";
 * const result = await vsWrk({ runtimes: ["deno"], rounds: 3, durationSec: 3, warmupSec: 1, connections: 100,
 *   signal: new AbortController().signal });
 * console.log(formatVsWrk(result));
 * ```
 */
export async function vsWrk(options: VsWrkOptions): Promise<VsWrk> {
  const cpus = splitCpus(await allowedCpus());
  const before = load();
  const seen = options.runtimes.map((runtime) => ({ runtime, rtbench: [] as number[], wrk: [] as number[] }));
  try {
    for (let round = 0; round < options.rounds; round++) {
      for (const s of seen) {
        options.signal.throwIfAborted();
        // Alternate the order so that drift on a shared machine does not favour one side.
        const steps = [
          async () => s.rtbench.push((await rtbench(s.runtime, options, "rtbench")).rps),
          async () => s.wrk.push(await plainWrk(s.runtime, options, cpus)),
        ];
        if (round % 2 === 1) steps.reverse();
        for (const step of steps) await step();
        options.onRound?.(round, s.runtime, s.rtbench.at(-1)!, s.wrk.at(-1)!);
      }
    }
    const autocannon = await rtbench("deno", options, "autocannon");
    return { runtimes: seen, autocannon, cpus, load: { before, after: load() } };
  } finally {
    await stopAllGroups();
  }
}

/**
 * The comparison as `deno task vs-wrk` prints it: medians, their ratio and
 * every round, then autocannon on Deno and whether it was flagged `client-bound`.
 *
 * @param result What {@linkcode vsWrk} measured.
 * @returns The text.
 *
 * @example
 * ```ts
 * import { assertStringIncludes } from "@std/assert";
 * import { formatVsWrk } from "./vs_wrk.ts";
 *
 * const text = formatVsWrk({
 *   runtimes: [{ runtime: "deno", rtbench: [99_000, 101_000], wrk: [100_000, 100_000] }],
 *   autocannon: { rps: 70_000, warnings: ["client-bound"] },
 *   cpus: { server: "0", client: "1" },
 *   load: { before: "0.50 0.40 0.30", after: "1.00 0.60 0.40" },
 * });
 * assertStringIncludes(text, "1.000");
 * assertStringIncludes(text, "client-bound flagged");
 * ```
 */
export function formatVsWrk(result: VsWrk): string {
  const rows = [["runtime", "rtbench engine (median)", "plain wrk -t1 (median)", "ratio", "rounds (rtbench / wrk)"]];
  for (const s of result.runtimes) {
    const a = median(s.rtbench);
    const b = median(s.wrk);
    rows.push([
      s.runtime,
      `${formatCount(a)}/s`,
      `${formatCount(b)}/s`,
      (a / b).toFixed(3),
      s.rtbench.map((v, i) => `${formatCount(v)}/${formatCount(s.wrk[i])}`).join(" "),
    ]);
  }
  const ac = result.autocannon;
  return `${alignTable(rows, [1, 2, 3])}\n\n` +
    `--load-generator autocannon on deno: ${formatCount(ac.rps)}/s, warnings: ${ac.warnings.join(", ") || "none"}` +
    ` (client-bound ${ac.warnings.includes("client-bound") ? "flagged" : "NOT flagged"})\n` +
    `load average at the end: ${result.load.after}`;
}
