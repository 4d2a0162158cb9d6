/**
 * Resource sampling of the server's and the load generator's process trees
 * (CPU, busiest thread, resident memory, threads, open files) at a fixed
 * interval, with the sampler's own cost measured alongside.
 *
 * Deno refuses `/proc` reads without `--allow-all`, and spawning one `cat` per
 * file per tick would cost more than it measures. So one `sh` helper lives for
 * the whole run: each tick the harness writes the pids it watches on the
 * helper's stdin, and the helper answers with ONE `cat` of `/proc/uptime`,
 * the watched processes' stat and per-thread stat and schedstat files, and
 * file-descriptor counts taken with shell globbing (no process spawned). Once
 * a second the `cat` reads every `/proc/<pid>/stat` too, to find processes
 * that joined a watched tree (by session and parent ids); reading them all
 * every tick would cost several times more on a machine with many processes. The helper's CPU time, its
 * `cat` children included, is reported as `samplerCpuPercent`. A 2-CPU
 * machine has no CPU to spare for it, so rtbench pins it to the load
 * generator's CPUs (see {@linkcode SamplerOptions.cpus}).
 *
 * @module
 */

import { members, parseSnapshot, type ProcessGroup, type Snapshot, spawnGroup } from "../platform/mod.ts";
import type { ResourceRole, ResourceSeries, ResourceSummary, RoleSeries } from "../schema/mod.ts";
import { round } from "../stats/mod.ts";
import { summarizeRole } from "../samples/mod.ts";

/** A finished sampling: the series and summary of the measured window. */
export interface ResourceReport {
  /** Per-interval values. */
  readonly series: ResourceSeries;
  /** Means and peaks. */
  readonly summary: ResourceSummary;
}

/** Options of {@linkcode startSampler}. */
export interface SamplerOptions {
  /** Milliseconds between samples. @default {250} */
  readonly intervalMs?: number;
  /** Process trees to watch from the start. */
  readonly roots?: Partial<Record<ResourceRole, readonly number[]>>;
  /**
   * CPU list the helper is pinned to, or null for anywhere. rtbench gives it
   * the load generator's CPUs: on a machine without a spare CPU its small cost
   * then falls on the side that has headroom when the server is the bottleneck.
   */
  readonly cpus?: string | null;
  /**
   * Runs the helper on another machine: wraps its argv (in `ssh`, say), so that the roots are that machine's
   * pids. The helper is then not pinned here and the harness's own CPU is not read.
   */
  readonly via?: (argv: string[]) => string[];
}

/** Default sampling interval. */
export const DEFAULT_INTERVAL_MS = 250;

/** Milliseconds between reads of every process, to find new members of the watched trees. */
const FULL_SCAN_MS = 1000;

// One line per tick in ("full|part", pids to stat, pids to watch), one block out. `cat` is the only
// process spawned per tick; globbing and `set --` are shell builtins. Each watched pid's own stat
// line heads its threads' stat and schedstat lines.
const SCRIPT = `echo "conf $(getconf CLK_TCK 2>/dev/null) $(getconf PAGESIZE 2>/dev/null) $$"
while IFS='|' read -r mode spids pids; do
  if [ "$mode" = full ]; then s="/proc/[0-9]*/stat"; else s=""; for p in $spids; do s="$s /proc/$p/stat"; done; fi
  t=""
  for p in $pids; do
    t="$t /proc/$p/stat"
    for d in /proc/$p/task/*; do t="$t $d/stat $d/schedstat"; done
  done
  cat /proc/uptime $s /proc/uptime $t 2>/dev/null
  for p in $pids; do
    set -- /proc/$p/fd/*
    if [ -e "$1" ] || [ -L "$1" ]; then echo "fd $p $#"; fi
  done
  echo end
done`;

interface Tick {
  /** Epoch milliseconds when the tick was asked for. */
  atMs: number;
  snapshot: Snapshot;
}

/** Samples process trees until stopped. */
export class ResourceSampler {
  readonly #intervalMs: number;
  readonly #roots: Record<ResourceRole, Set<number>> = { server: new Set(), client: new Set() };
  readonly #ticks: Tick[] = [];
  /** The helper; null where there is no `/proc` to read (not Linux): nothing is sampled. */
  #helper: ProcessGroup | null = null;
  #timer: ReturnType<typeof setInterval> | undefined;
  #buffer = "";
  #pending: { atMs: number; watched: Set<number>; full: boolean; resolve: () => void; done: Promise<void> } | null =
    null;
  #lastFullMs = -Infinity;
  #clockTicks = 100;
  #pageBytes = 4096;
  #stopped = false;
  /** The helper's pid where it runs (another machine's with `via`). */
  #helperPid = 0;
  #remote = false;

  /** Use {@linkcode startSampler}. */
  constructor(options: SamplerOptions = {}) {
    this.#intervalMs = options.intervalMs ?? DEFAULT_INTERVAL_MS;
    if (!(this.#intervalMs >= 10)) throw new RangeError(`Sampling interval must be ≥ 10 ms, got ${this.#intervalMs}`);
    for (const role of ["server", "client"] as const) {
      for (const pid of options.roots?.[role] ?? []) this.#roots[role].add(pid);
    }
    if (Deno.build.os !== "linux") return;
    const decoder = new TextDecoder();
    const helper = ["sh", "-c", SCRIPT];
    this.#remote = options.via !== undefined;
    this.#helper = spawnGroup(options.via ? options.via(helper) : helper, {
      cpus: options.via ? null : options.cpus ?? null,
      interactive: true,
      keepBytes: 1024,
      role: "resource sampler",
      onStdout: (chunk) => this.#receive(decoder.decode(chunk, { stream: true })),
    });
    this.#tick();
    this.#timer = setInterval(() => this.#tick(), this.#intervalMs);
  }

  /** Watches one more process tree, for example a load generator once it is spawned. */
  addRoot(role: ResourceRole, pid: number): void {
    this.#roots[role].add(pid);
  }

  /** Samples taken so far. */
  get samples(): number {
    return this.#ticks.length;
  }

  #receive(text: string): void {
    this.#buffer += text;
    if (this.#buffer.startsWith("conf ")) {
      const newline = this.#buffer.indexOf("\n");
      if (newline === -1) return;
      const [, hz, page, pid] = this.#buffer.slice(0, newline).split(" ").map(Number);
      if (pid > 0) this.#helperPid = pid;
      if (hz > 0) this.#clockTicks = hz;
      if (page > 0) this.#pageBytes = page;
      this.#buffer = this.#buffer.slice(newline + 1);
    }
    let end: number;
    while ((end = this.#buffer.indexOf("\nend\n")) !== -1 || this.#buffer.startsWith("end\n")) {
      const block = end === -1 ? "" : this.#buffer.slice(0, end);
      this.#buffer = this.#buffer.slice(end === -1 ? 4 : end + 5);
      const pending = this.#pending;
      this.#pending = null;
      if (!pending) continue;
      const snapshot = parseSnapshot(block, pending.watched, pending.full);
      if (snapshot) this.#ticks.push({ atMs: pending.atMs, snapshot });
      pending.resolve();
    }
  }

  /** Asks for one sample unless the previous one is still being read (a busy machine skips ticks). */
  #tick(): Promise<void> {
    if (this.#pending) return this.#pending.done;
    const helper = this.#helper;
    if (!helper || helper.status) return Promise.resolve();
    const watched = new Set<number>();
    const last = this.#ticks.at(-1)?.snapshot;
    for (const role of ["server", "client"] as const) {
      for (const pid of this.#roots[role]) watched.add(pid);
      if (last) { for (const pid of members(last, this.#roots[role])) watched.add(pid); }
    }
    const atMs = Date.now();
    const full = atMs - this.#lastFullMs >= FULL_SCAN_MS;
    if (full) this.#lastFullMs = atMs;
    // The helper and the harness are read every tick to report what sampling cost.
    const stat = new Set([...watched, this.#helperPid || helper.pid, ...(this.#remote ? [] : [Deno.pid])]);
    const { promise, resolve } = Promise.withResolvers<void>();
    this.#pending = { atMs, watched, full, resolve, done: promise };
    helper.write(`${full ? "full" : "part"}|${[...stat].join(" ")}|${[...watched].join(" ")}\n`);
    return promise;
  }

  /**
   * Takes a last sample, stops the helper and returns what was measured in
   * the window from `fromMs` to `toMs` (epoch milliseconds; the whole sampling
   * when absent).
   */
  async stop(window?: { fromMs: number; toMs: number }): Promise<ResourceReport> {
    if (!this.#stopped) {
      this.#stopped = true;
      clearInterval(this.#timer);
      // The pending answer, then a last one; bounded so a wedged helper cannot hang the run.
      const settle = async (p: Promise<void>) => {
        let timer: ReturnType<typeof setTimeout> | undefined;
        const exited = this.#helper?.exited ?? Promise.resolve();
        await Promise.race([p, exited, new Promise((r) => timer = setTimeout(r, 2000))]);
        clearTimeout(timer);
      };
      if (this.#pending) await settle(this.#pending.done);
      await settle(this.#tick());
      await this.#helper?.stop();
    }
    return this.#report(window);
  }

  #report(window?: { fromMs: number; toMs: number }): ResourceReport {
    let ticks = window ? this.#ticks.slice(...windowTicks(this.#ticks, window)) : this.#ticks;
    // A window shorter than two intervals: use the samples around it.
    if (ticks.length < 2) ticks = this.#ticks;
    const tMs: number[] = [];
    const series: Record<ResourceRole, MutableSeries> = { server: emptySeries(), client: emptySeries() };
    let samplerTicks = 0;
    let harnessTicks = 0;
    for (let i = 1; i < ticks.length; i++) {
      const a = ticks[i - 1].snapshot;
      const b = ticks[i].snapshot;
      const dt = b.uptimeSec - a.uptimeSec;
      if (dt <= 0) continue;
      tMs.push(Math.round((b.uptimeSec - ticks[0].snapshot.uptimeSec) * 1000));
      for (const role of ["server", "client"] as const) {
        this.#interval(series[role], a, b, dt, this.#roots[role]);
      }
      samplerTicks += selfDelta(a, b, this.#helperPid || this.#helper!.pid, true);
      if (!this.#remote) harnessTicks += selfDelta(a, b, Deno.pid, false);
    }
    const span = ticks.length > 1 ? ticks.at(-1)!.snapshot.uptimeSec - ticks[0].snapshot.uptimeSec : 0;
    const percentOf = (t: number) => span > 0 ? round((t / this.#clockTicks / span) * 100, 1) : null;
    const out = (role: ResourceRole) => series[role].processes.some((n) => n > 0) ? series[role] : null;
    const s = out("server");
    const c = out("client");
    return {
      series: { intervalMs: this.#intervalMs, tMs, server: s, client: c },
      summary: {
        intervalMs: this.#intervalMs,
        samples: ticks.length,
        server: s ? summarizeRole(s, tMs) : null,
        client: c ? summarizeRole(c, tMs) : null,
        samplerCpuPercent: percentOf(samplerTicks),
        harnessCpuPercent: this.#remote ? null : percentOf(harnessTicks),
      },
    };
  }

  #interval(out: MutableSeries, a: Snapshot, b: Snapshot, dt: number, roots: ReadonlySet<number>): void {
    const now = members(b, roots);
    let ticks = 0;
    let rssPages = 0;
    let threads = 0;
    let openFiles = 0;
    // Ticks since boot when snapshot `a` was taken: anything started later spent all its CPU time in the interval.
    const aStart = a.uptimeSec * this.#clockTicks;
    // A process or thread that joined the watched trees since `a` without being born since has no
    // baseline: its earlier CPU time is not this interval's, so the interval's CPU is unknown.
    let processesKnown = true;
    let threadsKnown = true;
    for (const pid of now) {
      const p = b.procs.get(pid)!;
      const before = a.procs.get(pid)?.ticks ?? (p.startTicks >= aStart ? 0 : undefined);
      if (before === undefined) processesKnown = false;
      else ticks += p.ticks - before;
      rssPages += p.rssPages;
      threads += p.threads;
      openFiles += b.fds.get(pid) ?? 0;
    }
    let busiest = 0;
    let demandNs = 0;
    let busiestDemandNs = 0;
    let schedstat = false;
    for (const [tid, t] of b.threads) {
      if (!now.has(t.pid)) continue;
      const seen = a.threads.get(tid)?.pid === t.pid ? a.threads.get(tid) : undefined;
      if (!seen && t.startTicks < aStart) {
        threadsKnown = false;
        continue;
      }
      busiest = Math.max(busiest, t.ticks - (seen?.ticks ?? 0));
      if (t.runNs !== null && t.waitNs !== null) {
        schedstat = true;
        const d = t.runNs + t.waitNs - (seen?.runNs ?? 0) - (seen?.waitNs ?? 0);
        demandNs += d;
        busiestDemandNs = Math.max(busiestDemandNs, d);
      }
    }
    const percent = (n: number) => round((n / this.#clockTicks / dt) * 100, 1);
    const nsPercent = (n: number) => round((n / 1e9 / dt) * 100, 1);
    out.cpuPercent.push(processesKnown ? percent(Math.max(0, ticks)) : null);
    out.busiestThreadPercent.push(threadsKnown ? percent(Math.max(0, busiest)) : null);
    out.demandPercent.push(threadsKnown && schedstat ? nsPercent(Math.max(0, demandNs)) : null);
    out.busiestThreadDemandPercent.push(threadsKnown && schedstat ? nsPercent(Math.max(0, busiestDemandNs)) : null);
    out.rssBytes.push(rssPages * this.#pageBytes);
    out.threads.push(threads);
    out.openFiles.push(openFiles);
    out.processes.push(now.size);
  }
}

type MutableSeries = { -readonly [K in keyof RoleSeries]: RoleSeries[K][number][] };

function emptySeries(): MutableSeries {
  return {
    cpuPercent: [],
    busiestThreadPercent: [],
    demandPercent: [],
    busiestThreadDemandPercent: [],
    rssBytes: [],
    threads: [],
    openFiles: [],
    processes: [],
  };
}

/** CPU ticks a single process used between two snapshots, its waited-for children included when asked. */
function selfDelta(a: Snapshot, b: Snapshot, pid: number, children: boolean): number {
  const before = a.procs.get(pid);
  const after = b.procs.get(pid);
  if (!before || !after) return 0;
  return after.ticks - before.ticks + (children ? after.childTicks - before.childTicks : 0);
}

/**
 * Starts sampling the given process trees every `intervalMs` (250 ms by
 * default). Stop it with {@linkcode ResourceSampler.stop}; the helper process
 * lives in its own process group and is stopped with the suite on interrupt.
 *
 * @example Sample a server while it is loaded
 * ```ts ignore
 * import { startSampler } from "./resource_sampler.ts";
 * const sampler = startSampler({ roots: { server: [server.group.pid] } });
 * // ... run the load generator, then:
 * const { summary } = await sampler.stop();
 * console.log(summary.server?.cpuPercent.mean);
 * ```
 */
export function startSampler(options: SamplerOptions = {}): ResourceSampler {
  return new ResourceSampler(options);
}

/**
 * The ticks that bracket `window`: the last at or before its start to the
 * first at or after its end, so the intervals between them cover the whole
 * window (the ticks inside it alone leave up to an interval out at each end).
 */
function windowTicks(ticks: readonly { atMs: number }[], window: { fromMs: number; toMs: number }): [number, number] {
  const before = ticks.findLastIndex((t) => t.atMs <= window.fromMs);
  const after = ticks.findIndex((t) => t.atMs >= window.toMs);
  return [Math.max(0, before), after === -1 ? ticks.length : after + 1];
}
