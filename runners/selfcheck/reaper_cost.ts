/**
 * What the children reaper costs (`runners/dev/reaper_cost.ts`). Starts one the
 * way every command and the first `run()` do, watching a stand-in for the
 * harness, and measures: the sweep of the ledgers' folder and the reaper's
 * launch as the harness waits for them (once per process), the reaper's CPU to
 * start, its resident memory and its CPU while the harness lives, what one
 * ledger entry costs the harness (one per process group or temporary path
 * started or ended), and how long it takes, once the harness is gone, to stop
 * the groups and remove the directory its ledger still owns.
 *
 * @module
 */

import {
  launchReaper,
  Ledger,
  readProcText,
  removeTree,
  runCommand,
  spawnGroup,
  sweepLedgers,
} from "../platform/mod.ts";
import { alignTable } from "../report/mod.ts";

/**
 * CPU time of every thread of a process in milliseconds (from each thread's
 * schedstat, in nanoseconds; `stat` counts 10 ms ticks, too coarse here), and
 * its resident memory in bytes. Listing `/proc` needs `--allow-all` in Deno, so
 * `ls` and `cat` read them.
 */
async function usage(pid: number): Promise<{ cpuMs: number; rssBytes: number } | null> {
  const tasks = await runCommand(["ls", `/proc/${pid}/task`], { timeoutMs: 5000 });
  const status = await readProcText(`/proc/${pid}/status`);
  if (!tasks.success || !status) return null;
  const files = tasks.stdout.split(/\s+/).filter(Boolean).map((t) => `/proc/${pid}/task/${t}/schedstat`);
  const stats = await runCommand(["cat", ...files], { timeoutMs: 5000 });
  const ns = stats.stdout.split("\n").filter(Boolean).reduce((a, line) => a + Number(line.split(" ")[0]), 0);
  const rssKb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? NaN);
  return { cpuMs: ns / 1e6, rssBytes: rssKb * 1024 };
}

/** Whether `pid` runs: a zombie (exited, not yet collected by its parent) does not. */
async function alive(pid: number): Promise<boolean> {
  const stat = await readProcText(`/proc/${pid}/stat`);
  return stat !== null && !/^[ZX]/.test(stat.slice(stat.lastIndexOf(")") + 2));
}

async function until(check: () => Promise<boolean>, timeoutMs: number): Promise<number> {
  const start = performance.now();
  while (!(await check())) {
    if (performance.now() - start > timeoutMs) throw new Error(`not within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 5));
  }
  return performance.now() - start;
}

/**
 * What {@linkcode reaperCost} measures: the processes and ledger entries it hands a reaper.
 *
 * @example The defaults of `runners/dev/reaper_cost.ts`
 * ```ts
 * import type { ReaperCostOptions } from "./reaper_cost.ts";
 *
 * const options: ReaperCostOptions = { groups: 20, messages: 20_000, idleSec: 3 };
 * ```
 */
export interface ReaperCostOptions {
  /** Process groups the ledger still owns when the harness is gone. */
  readonly groups: number;
  /** Ledger entries written, timed (half own a group, half release it). */
  readonly messages: number;
  /** Seconds the reaper is watched while the harness lives. */
  readonly idleSec: number;
}

/**
 * What a reaper cost, in the units of each field's name.
 *
 * @example Nothing left behind
 * ```ts
 * import type { ReaperCost } from "./reaper_cost.ts";
 *
 * const clean = (cost: ReaperCost) => cost.processesLeft === 0 && !cost.directoryLeft;
 * ```
 */
export interface ReaperCost {
  /** The options it was measured with. */
  readonly options: ReaperCostOptions;
  /** The sweep of a ledgers' folder holding no ledger of a process gone, as the harness waits for it. */
  readonly sweepMs: number;
  /** Starting the reaper (a shell that starts it and exits; it loads on its own), as the harness waits for it. */
  readonly launchMs: number;
  /** Its CPU time in its first second (loading its runtime and script). */
  readonly startCpuMs: number;
  /** Resident memory while it watches. */
  readonly rssBytes: number;
  /** Its CPU time while it watched the live harness for `idleSec`. */
  readonly idleCpuMs: number;
  /** The harness's time per ledger entry (a line appended to a file). */
  readonly entryUs: number;
  /** From the harness's exit until every group was stopped and the directory its ledger owned removed. */
  readonly cleanMs: number;
  /** From the harness's exit until the reaper had exited. */
  readonly exitMs: number;
  /** Processes still alive afterwards (0 when it did its job). */
  readonly processesLeft: number;
  /** Whether the directory the ledger owned is still there. */
  readonly directoryLeft: boolean;
}

async function exists(path: string): Promise<boolean> {
  return await Deno.lstat(path).then(() => true, () => false);
}

/**
 * Starts a reaper of its own and measures what it costs (Linux: it reads `/proc`).
 *
 * @param options Groups, ledger entries and idle seconds.
 * @returns What it cost.
 *
 * @example
 * ```ts ignore
 * import { formatReaperCost, reaperCost } from "./reaper_cost.ts";
 * console.log(formatReaperCost(await reaperCost({ groups: 20, messages: 20_000, idleSec: 3 })));
 * ```
 */
export async function reaperCost(options: ReaperCostOptions): Promise<ReaperCost> {
  if (Deno.build.os !== "linux") throw new Error("reaper-cost reads /proc: Linux only");
  const { groups, messages, idleSec } = options;
  // The folder of ledgers and what the ledger owns: this tool's own, which the reaper removes (that is what it times).
  const work = await Deno.makeTempDir({ prefix: "rtbench-reaper-cost-" });
  const owned = `${work}/rtbench-owned`;
  try {
    // A stand-in for the harness, whose exit the reaper waits for.
    const harness = spawnGroup(["sleep", "600"]);
    const ledger = new Ledger();
    ledger.writeTo(`${work}/${harness.pid}-00000000`);
    let t = performance.now();
    await sweepLedgers(work);
    const sweepMs = performance.now() - t;
    t = performance.now();
    const pid = await launchReaper(harness.pid, ledger.file!);
    const launchMs = performance.now() - t;
    if (pid === null) throw new Error("the reaper did not start");
    // Loading its runtime and script takes well under a second; after that it only looks at the harness.
    await new Promise((r) => setTimeout(r, 1000));
    const started = (await usage(pid))!;
    await new Promise((r) => setTimeout(r, idleSec * 1000));
    const idle = (await usage(pid))!;

    // Owned throughout, as a suite's temporary directory is: the ledger is appended to, never emptied.
    ledger.record({ path: owned });
    await Deno.mkdir(owned);
    await Deno.writeTextFile(`${owned}/file`, "x");
    t = performance.now();
    for (let i = 0; i < messages / 2; i++) {
      // A group that is owned, then released: what every spawn and stop records.
      ledger.record({ group: 1_000_000 + i });
      ledger.record({ released: 1_000_000 + i });
    }
    const entryUs = messages > 0 ? (performance.now() - t) * 1000 / messages : 0;

    // Left to it at the end: groups that ignore nothing (sleep exits on SIGTERM), and the directory.
    const left = Array.from({ length: groups }, () => spawnGroup(["sleep", "600"]));
    for (const g of left) ledger.record({ group: g.pid });
    t = performance.now();
    await harness.stop();
    let cleanMs = NaN;
    const exitMs = await until(async () => {
      const clean = !(await exists(owned)) && (await Promise.all(left.map((g) => alive(g.pid)))).every((a) => !a);
      if (clean && Number.isNaN(cleanMs)) cleanMs = performance.now() - t;
      return clean && !(await alive(pid));
    }, 10_000);
    const processesLeft = (await Promise.all(left.map((g) => alive(g.pid)))).filter(Boolean).length;
    await Promise.all(left.map((g) => g.stop()));
    return {
      options,
      sweepMs,
      launchMs,
      startCpuMs: started.cpuMs,
      rssBytes: started.rssBytes,
      idleCpuMs: idle.cpuMs - started.cpuMs,
      entryUs,
      cleanMs,
      exitMs,
      processesLeft,
      directoryLeft: await exists(owned),
    };
  } finally {
    await removeTree(work);
  }
}

/**
 * The cost as `runners/dev/reaper_cost.ts` prints it, one row per figure.
 *
 * @param cost What {@linkcode reaperCost} measured.
 * @returns The table.
 *
 * @example
 * ```ts
 * import { assertStringIncludes } from "@std/assert";
 * import { formatReaperCost } from "./reaper_cost.ts";
 *
 * const text = formatReaperCost({
 *   options: { groups: 20, messages: 20_000, idleSec: 3 },
 *   sweepMs: 0.3, launchMs: 60, startCpuMs: 20, rssBytes: 32 * 2 ** 20, idleCpuMs: 0.4, entryUs: 9,
 *   cleanMs: 320, exitMs: 330, processesLeft: 0, directoryLeft: false,
 * });
 * assertStringIncludes(text, "9.0 µs");
 * ```
 */
export function formatReaperCost(cost: ReaperCost): string {
  const { groups, messages, idleSec } = cost.options;
  return alignTable([
    ["what", "cost"],
    ["sweep of the ledgers at start, in the harness", `${cost.sweepMs.toFixed(1)} ms`],
    ["its start (a shell that starts it and exits), in the harness", `${cost.launchMs.toFixed(1)} ms`],
    ["its CPU to start (its first second)", `${cost.startCpuMs.toFixed(1)} ms`],
    ["its resident memory", `${(cost.rssBytes / 2 ** 20).toFixed(1)} MiB`],
    [`its CPU while the harness lives ${idleSec} s`, `${cost.idleCpuMs.toFixed(2)} ms`],
    [`per ledger entry, in the harness (${messages} timed)`, `${cost.entryUs.toFixed(1)} µs`],
    [
      `harness gone → ${groups} groups stopped, 1 dir removed`,
      `${cost.cleanMs.toFixed(0)} ms (reaper exited after ${cost.exitMs.toFixed(0)} ms)`,
    ],
    ["left behind", `${cost.processesLeft} processes, ${cost.directoryLeft ? "the directory" : "no directory"}`],
  ], [1]);
}
