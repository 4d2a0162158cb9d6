/**
 * What the children reaper costs (`deno task reaper-cost`). Starts one the
 * way every command does, then measures how long it takes to start, its
 * resident memory and CPU time while it waits, the CPU it spends per message
 * (one per process group or temporary path rtbench starts or ends), and how
 * long it takes, once its pipe closes, to stop groups and remove paths it
 * still owns.
 *
 * @module
 */

import { readProcText, runCommand, spawnGroup, spawnReaper } from "../platform/mod.ts";
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

async function alive(pid: number): Promise<boolean> {
  return (await readProcText(`/proc/${pid}/stat`)) !== null;
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
 * What {@linkcode reaperCost} measures: the processes and messages it hands a reaper.
 *
 * @example The defaults of `deno task reaper-cost`
 * ```ts
 * import type { ReaperCostOptions } from "./reaper_cost.ts";
 *
 * const options: ReaperCostOptions = { groups: 20, messages: 20_000, idleSec: 3 };
 * ```
 */
export interface ReaperCostOptions {
  /** Process groups left to the reaper when its pipe closes. */
  readonly groups: number;
  /** Messages sent to it (half own a group, half release it). */
  readonly messages: number;
  /** Seconds it is watched while idle. */
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
  /** Time of the spawn call in the harness. */
  readonly spawnMs: number;
  /** CPU time in its first second (loading its runtime and script). */
  readonly startCpuMs: number;
  /** Resident memory while it waits. */
  readonly rssBytes: number;
  /** CPU time while idle for `idleSec`. */
  readonly idleCpuMs: number;
  /** CPU time for all messages. */
  readonly messagesCpuMs: number;
  /** From closing its pipe until it had stopped every group and removed the directory it owned. */
  readonly closeMs: number;
  /** From closing its pipe until it had exited. */
  readonly exitMs: number;
  /** Processes still alive afterwards (0 when it did its job). */
  readonly processesLeft: number;
  /** Whether the temporary directory it owned is still there. */
  readonly directoryLeft: boolean;
}

/**
 * Starts a reaper of its own and measures what it costs (Linux: it reads `/proc`).
 *
 * @param options Groups, messages and idle seconds.
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
  const t0 = performance.now();
  // A reaper of its own, told only what this measurement sends (this command starts none for itself).
  const reaper = spawnReaper();
  const pid = reaper.pid;
  // The harness does not wait for the reaper: its cost to the harness is the spawn call.
  const spawnMs = performance.now() - t0;
  // Loading its runtime and script takes well under a second; after that it blocks reading its stdin.
  await new Promise((r) => setTimeout(r, 1000));
  const started = (await usage(pid))!;
  await new Promise((r) => setTimeout(r, idleSec * 1000));
  const idle = (await usage(pid))!;

  for (let i = 0; i < messages / 2; i++) {
    // A group that is owned, then released: what every spawn and stop sends.
    void reaper.tell({ group: 1_000_000 + i });
    void reaper.tell({ released: 1_000_000 + i });
  }
  await reaper.tell({ released: 0 });
  // Written is not yet read: the reaper has read everything once its CPU time stops rising.
  let last = -1;
  await until(async () => {
    const u = await usage(pid);
    const steady = u !== null && u.cpuMs === last;
    last = u?.cpuMs ?? -1;
    await new Promise((r) => setTimeout(r, 100));
    return steady;
  }, 60_000);
  const busy = (await usage(pid))!;

  // Left to it at the end: groups that ignore nothing (sleep exits on SIGTERM) and one temporary directory.
  const left = Array.from({ length: groups }, () => spawnGroup(["sleep", "600"]));
  for (const g of left) await reaper.tell({ group: g.pid });
  const dir = await Deno.makeTempDir({ prefix: "rtbench-reaper-cost-" });
  await Deno.writeTextFile(`${dir}/file`, "x");
  await reaper.tell({ path: dir });
  const t1 = performance.now();
  await reaper.close();
  const exitMs = await until(async () => !(await alive(pid)), 10_000);
  const closeMs = performance.now() - t1;
  const stillThere = (await Promise.all(left.map((g) => alive(g.pid)))).filter(Boolean).length;
  await Promise.all(left.map((g) => g.exited));
  let dirLeft = true;
  try {
    await Deno.stat(dir);
  } catch {
    dirLeft = false;
  }

  return {
    options,
    spawnMs,
    startCpuMs: started.cpuMs,
    rssBytes: started.rssBytes,
    idleCpuMs: idle.cpuMs - started.cpuMs,
    messagesCpuMs: busy.cpuMs - idle.cpuMs,
    closeMs,
    exitMs,
    processesLeft: stillThere,
    directoryLeft: dirLeft,
  };
}

/**
 * The cost as `deno task reaper-cost` prints it, one row per figure.
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
 *   spawnMs: 1.2, startCpuMs: 20, rssBytes: 32 * 2 ** 20, idleCpuMs: 0, messagesCpuMs: 40,
 *   closeMs: 89, exitMs: 90, processesLeft: 0, directoryLeft: false,
 * });
 * assertStringIncludes(text, "2.0 µs each");
 * ```
 */
export function formatReaperCost(cost: ReaperCost): string {
  const { groups, messages, idleSec } = cost.options;
  const perMessageUs = messages > 0 ? (cost.messagesCpuMs * 1000) / messages : 0;
  return alignTable([
    ["what", "cost"],
    ["spawn call in the harness", `${cost.spawnMs.toFixed(1)} ms`],
    ["CPU to start (its first second)", `${cost.startCpuMs.toFixed(1)} ms`],
    ["resident memory while waiting", `${(cost.rssBytes / 2 ** 20).toFixed(1)} MiB`],
    [`CPU while waiting ${idleSec} s`, `${cost.idleCpuMs.toFixed(2)} ms`],
    [`CPU for ${messages} messages`, `${cost.messagesCpuMs.toFixed(1)} ms (${perMessageUs.toFixed(1)} µs each)`],
    [
      `pipe closed → ${groups} groups stopped, 1 dir removed`,
      `${cost.closeMs.toFixed(0)} ms (exit seen after ${cost.exitMs.toFixed(0)} ms)`,
    ],
    ["left behind", `${cost.processesLeft} processes, ${cost.directoryLeft ? "the directory" : "no directory"}`],
  ], [1]);
}
