/**
 * rtbench's engine against plain wrk (`runners/dev/vs_wrk.ts`): does the load
 * engine `deno task bench` uses, checking every response, measure what a
 * plain `wrk -t1 -c100` (checking nothing) measures? Each round starts a
 * fresh `http-json` server of the runtime and lets the two take turns on it,
 * ABBA (engine, wrk, wrk, engine; the next round wrk first), each turn a
 * warm-up then a measured window on the same pinned CPUs. A round's figure
 * per side is the mean of its two windows and its ratio is theirs; the
 * comparison's ratio is the median of the rounds' ratios.
 *
 * Why paired on one server: on a shared machine one node:http server's rate
 * drifts between 35,000 and 63,000 requests/s from one 3-second window to the
 * next, and fresh servers differ as much. Runs against separate servers
 * compare the servers' luck as much as the clients; turns on one server, in
 * an order that cancels a steady drift, compare the clients.
 *
 * With `locust`, Locust takes turns too (one worker pinned to the client
 * CPU, every response checked), after wrk and before it again: the rates
 * then say how many of Locust's worker cores a rate needs beside one of wrk's
 * or the engine's (its worker's own CPU time gives its ceiling per core when
 * it was not at its limit).
 *
 * Last, `--load-generator autocannon` on Deno through `deno task bench`, to
 * show whether it is flagged `client-bound`.
 *
 * Quote its figures with the load average it prints.
 *
 * @module
 */

import { builtinAdapters, parseRuntimeSpecs, resolveRuntime } from "../../adapters/mod.ts";
import { httpJson, type HttpRequestSpec } from "../../workloads/mod.ts";
import {
  allowedCpus,
  makeTempDir,
  removeTemp,
  runCommand,
  splitCpus,
  stageServer,
  stopAllGroups,
} from "../platform/mod.ts";
import { alignTable, formatCount } from "../report/mod.ts";
import type { CpuSets } from "../schema/mod.ts";
import { benchProcess } from "./bench_process.ts";
import { type RunningServer, startServer } from "../kinds/mod.ts";
import { engineGenerator, locustGenerator } from "../drivers/mod.ts";
import { median } from "../stats/mod.ts";

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
  /** Rounds, each on a fresh server; the side that goes first alternates. */
  readonly rounds: number;
  /** Measured seconds per window (two windows per side per round). */
  readonly durationSec: number;
  /** Warm-up seconds before each window. */
  readonly warmupSec: number;
  /** Connections of both (Locust's users too). */
  readonly connections: number;
  /** Whether Locust takes turns too (one worker on the client CPU). @default {false} */
  readonly locust?: boolean;
  /** Stops the comparison. */
  readonly signal: AbortSignal;
  /** Called after every round of one runtime, with each side's mean of its two windows. */
  readonly onRound?: (round: number, runtime: string, rtbench: number, wrk: number) => void;
  /** Called after every turn: which side measured what, on which server process. */
  readonly onTurn?: (turn: VsWrkTurn) => void;
}

/**
 * One turn of {@linkcode vsWrk}: a warm-up and a measured window of one side
 * on the round's server.
 *
 * @example A turn as it is reported
 * ```ts
 * import type { VsWrkTurn } from "./vs_wrk.ts";
 *
 * const turn: VsWrkTurn = { round: 0, runtime: "node", side: "wrk", serverPid: 4242, requestsPerSecond: 51_000 };
 * ```
 */
export interface VsWrkTurn {
  /** The round, from 0. */
  readonly round: number;
  /** The runtime as requested. */
  readonly runtime: string;
  /** Which client measured. */
  readonly side: "rtbench" | "wrk" | "locust";
  /** The pid of the round's server. */
  readonly serverPid: number;
  /** Requests/s of the measured window. */
  readonly requestsPerSecond: number;
}

/**
 * What {@linkcode vsWrk} measured: per runtime and round, the engine's and
 * plain wrk's requests/s on that round's server (each the mean of two
 * windows); and autocannon's figure on Deno.
 *
 * @example The median of the rounds' ratios
 * ```ts
 * import type { VsWrk } from "./vs_wrk.ts";
 *
 * function ratio(result: VsWrk, runtime: string): number {
 *   const { rtbench, wrk } = result.runtimes.find((r) => r.runtime === runtime)!;
 *   const ratios = rtbench.map((e, i) => e / wrk[i]).toSorted((a, b) => a - b);
 *   return ratios[ratios.length >> 1];
 * }
 * ```
 */
export interface VsWrk {
  /**
   * Per runtime, requests/s of every round, the i-th of each side on the same server; with Locust, its rates and its
   * ceiling per core (requests/s over the share of its core its worker used).
   */
  readonly runtimes: readonly {
    readonly runtime: string;
    readonly rtbench: number[];
    readonly wrk: number[];
    readonly locust?: number[];
    readonly locustPerCore?: number[];
  }[];
  /** `--load-generator autocannon` on Deno: requests/s and the record's warning codes. */
  readonly autocannon: { readonly rps: number; readonly warnings: readonly string[] };
  /** The CPU split both ran on. */
  readonly cpus: CpuSets;
  /** Load average when the comparison started and when it ended. */
  readonly load: { readonly before: string; readonly after: string };
}

type Options = Pick<VsWrkOptions, "signal" | "durationSec" | "warmupSec" | "connections" | "onTurn" | "locust">;

/** `deno task bench --workload http-json` with one generator, one run; its median requests/s and warning codes. */
async function bench(generator: string, o: Options): Promise<{ rps: number; warnings: string[] }> {
  const result = await benchProcess([
    "--workload=http-json",
    "--runtime=deno",
    `--duration=${o.durationSec}`,
    `--warmup=${o.warmupSec}`,
    `--connections=${o.connections}`,
    "--runs=1",
    `--load-generator=${generator}`,
  ], o.signal);
  const record = result.records[0];
  const rps = record.summary.requestsPerSecond?.median;
  if (record.status !== "completed" || rps === undefined) throw new Error(`${generator}: ${record.error?.message}`);
  return { rps, warnings: record.warnings.map((w) => w.code) };
}

/** The engine, as `deno task bench` runs it, for one warm-up and window; every response must be valid. */
async function engineTurn(server: RunningServer, requests: readonly HttpRequestSpec[], o: Options, cpus: CpuSets) {
  const m = await engineGenerator.run(
    { baseUrl: server.baseUrl, requests },
    {
      durationSec: o.durationSec,
      warmupSec: o.warmupSec,
      connections: o.connections,
      pipelining: 1,
      requestTimeoutSec: 10,
    },
    { cpus: cpus.client, signal: o.signal },
  );
  if (m.mismatches > 0 || m.non2xx > 0 || m.validResponses === 0) {
    throw new Error(
      `the engine saw ${m.mismatches} mismatches, ${m.non2xx} non-2xx: ${m.firstMismatch ?? "no answer"}`,
    );
  }
  return m.requestsPerSecond;
}

/** Locust with one worker on the client CPU for a warm-up and a window: its rate and its ceiling per core. */
async function locustTurn(server: RunningServer, requests: readonly HttpRequestSpec[], o: Options, cpus: CpuSets) {
  const client = cpus.client?.split(/[,-]/)[0] ?? null;
  const m = await locustGenerator.run(
    { baseUrl: server.baseUrl, requests },
    {
      durationSec: o.durationSec,
      warmupSec: o.warmupSec,
      connections: o.connections,
      pipelining: 1,
      requestTimeoutSec: 10,
    },
    { cpus: client, signal: o.signal },
  );
  if (m.mismatches > 0 || m.non2xx > 0 || m.validResponses === 0) {
    throw new Error(`Locust saw ${m.mismatches} mismatches, ${m.non2xx} non-2xx: ${m.firstMismatch ?? "no answer"}`);
  }
  const share = Math.min(100, m.clientCpuPercent ?? 100) / 100;
  return { rps: m.requestsPerSecond, perCore: m.requestsPerSecond / Math.max(share, 0.01) };
}

/** Plain `wrk -t1 -c<n>` for a warm-up and a window (whole seconds: wrk takes no fractions). */
async function wrkTurn(server: RunningServer, o: Options, cpus: CpuSets) {
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
}

/** A runtime's `http-json` server, resolved and staged once in `dir`, for a fresh process every round. */
interface Staged {
  readonly runtime: string;
  readonly rt: Awaited<ReturnType<typeof resolveRuntime>>;
  readonly file: string;
  readonly dir: string;
}

async function stage(runtime: string, dir: string, signal: AbortSignal): Promise<Staged> {
  const [spec] = parseRuntimeSpecs(runtime);
  const rt = await resolveRuntime(spec, { adapters: builtinAdapters, signal });
  const source = httpJson.server(rt.name, "default");
  if ("skip" in source) throw new Error(source.skip);
  await Deno.mkdir(dir, { recursive: true });
  return { runtime, rt, file: await stageServer(source.entry, dir), dir };
}

/** Round `index` on a fresh pinned server: the engine and wrk take turns ABBA (BAAB in odd rounds). */
async function round(staged: Staged, requests: readonly HttpRequestSpec[], o: Options, cpus: CpuSets, index: number) {
  const server = await startServer({
    runtime: staged.rt,
    file: staged.file,
    cwd: staged.dir,
    cpus: cpus.server,
    timeoutMs: 30_000,
    signal: o.signal,
  });
  try {
    const seen = { rtbench: [] as number[], wrk: [] as number[], locust: [] as number[], perCore: [] as number[] };
    const sides: ("rtbench" | "wrk" | "locust")[] = o.locust ? ["rtbench", "wrk", "locust"] : ["rtbench", "wrk"];
    const half = index % 2 === 1 ? sides.toReversed() : sides;
    for (const side of [...half, ...half.toReversed()]) {
      let rps: number;
      if (side === "locust") {
        const turn = await locustTurn(server, requests, o, cpus);
        rps = turn.rps;
        seen.perCore.push(turn.perCore);
      } else rps = side === "rtbench" ? await engineTurn(server, requests, o, cpus) : await wrkTurn(server, o, cpus);
      seen[side].push(rps);
      o.onTurn?.({ round: index, runtime: staged.runtime, side, serverPid: server.group.pid, requestsPerSecond: rps });
    }
    const mean = (v: number[]) => (v[0] + v[1]) / 2;
    return {
      rtbench: mean(seen.rtbench),
      wrk: mean(seen.wrk),
      ...o.locust ? { locust: mean(seen.locust), locustPerCore: mean(seen.perCore) } : {},
    };
  } finally {
    await server.stop();
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
 * For every runtime and round, a fresh server on which the engine and plain
 * wrk take turns (ABBA, the first side alternating by round) on the same
 * pinned CPUs; then `--load-generator autocannon` on Deno.
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
  const seen = options.runtimes.map((runtime) => ({
    runtime,
    rtbench: [] as number[],
    wrk: [] as number[],
    ...options.locust ? { locust: [] as number[], locustPerCore: [] as number[] } : {},
  }));
  const requests = httpJson.traffic({
    variant: "default",
    options: {},
    settings: {} as never,
    tempDir: "",
    signal: options.signal,
  }).requests;
  const dir = await makeTempDir({ prefix: "rtbench-vs-wrk-" });
  try {
    const staged: Staged[] = [];
    for (const [i, runtime] of options.runtimes.entries()) {
      staged.push(await stage(runtime, `${dir}/${i}`, options.signal));
    }
    for (let r = 0; r < options.rounds; r++) {
      for (const [i, s] of seen.entries()) {
        options.signal.throwIfAborted();
        const { rtbench, wrk, locust, locustPerCore } = await round(staged[i], requests, options, cpus, r);
        s.rtbench.push(rtbench);
        s.wrk.push(wrk);
        if (locust !== undefined) s.locust!.push(locust);
        if (locustPerCore !== undefined) s.locustPerCore!.push(locustPerCore);
        options.onRound?.(r, s.runtime, rtbench, wrk);
      }
    }
    const autocannon = await bench("autocannon", options);
    return { runtimes: seen, autocannon, cpus, load: { before, after: load() } };
  } finally {
    await stopAllGroups();
    await removeTemp(dir);
  }
}

/**
 * The comparison as `runners/dev/vs_wrk.ts` prints it: per runtime both medians,
 * the median of the rounds' ratios and every round, then autocannon on Deno
 * and whether it was flagged `client-bound`.
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
 *   runtimes: [{ runtime: "deno", rtbench: [99_000, 101_000, 50_000], wrk: [100_000, 100_000, 40_000] }],
 *   autocannon: { rps: 70_000, warnings: ["client-bound"] },
 *   cpus: { server: "0", client: "1" },
 *   load: { before: "0.50 0.40 0.30", after: "1.00 0.60 0.40" },
 * });
 * assertStringIncludes(text, "1.010"); // the rounds' ratios 0.99, 1.01, 1.25: their median
 * assertStringIncludes(text, "client-bound flagged");
 * ```
 */
export function formatVsWrk(result: VsWrk): string {
  const rows = [[
    "runtime",
    "rtbench engine (median)",
    "plain wrk -t1 (median)",
    "ratio (median of rounds)",
    "rounds (rtbench / wrk, same server)",
  ]];
  for (const s of result.runtimes) {
    rows.push([
      s.runtime,
      `${formatCount(median(s.rtbench))}/s`,
      `${formatCount(median(s.wrk))}/s`,
      median(s.rtbench.map((v, i) => v / s.wrk[i])).toFixed(3),
      s.rtbench.map((v, i) => `${formatCount(v)}/${formatCount(s.wrk[i])}`).join(" "),
    ]);
  }
  const ac = result.autocannon;
  return `${alignTable(rows, [1, 2, 3])}\n\n${formatLocust(result)}` +
    `--load-generator autocannon on deno: ${formatCount(ac.rps)}/s, warnings: ${ac.warnings.join(", ") || "none"}` +
    ` (client-bound ${ac.warnings.includes("client-bound") ? "flagged" : "NOT flagged"})\n` +
    `load average at the end: ${result.load.after}`;
}

/**
 * Locust beside the engine and wrk, when it took turns: its median rate, its ceiling per core, and how many of its
 * worker cores one core of wrk's or the engine's is worth (the medians of the rounds' ratios of ceilings per core).
 */
function formatLocust(result: VsWrk): string {
  const measured = result.runtimes.filter((s) => s.locust && s.locust.length > 0);
  if (measured.length === 0) return "";
  const rows = [[
    "runtime",
    "locust, 1 worker (median)",
    "locust per core (median)",
    "wrk ÷ locust per core",
    "engine ÷ locust per core",
    "locust cores per 100k/s",
  ]];
  for (const s of measured) {
    const perCore = s.locustPerCore!;
    rows.push([
      s.runtime,
      `${formatCount(median(s.locust!))}/s`,
      `${formatCount(median(perCore))}/s`,
      median(s.wrk.map((v, i) => v / perCore[i])).toFixed(1),
      median(s.rtbench.map((v, i) => v / perCore[i])).toFixed(1),
      (100_000 / median(perCore)).toFixed(0),
    ]);
  }
  return `${alignTable(rows, [1, 2, 3, 4, 5])}\n\n`;
}
