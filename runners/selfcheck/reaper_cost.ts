/**
 * `deno task reaper-cost`: what the children reaper costs. Starts it the way
 * every command does, then reports how long it takes to start, its resident
 * memory and CPU time while it waits, the CPU it spends per message (one per
 * process group or temporary path rtbench starts or ends), and how long it
 * takes, once its pipe closes, to stop groups and remove paths it still owns.
 *
 * Flags: `--groups <n>` processes left to it at the end (default 20),
 * `--messages <n>` messages sent (default 20000), `--idle <s>` seconds
 * watched while idle (default 3).
 *
 * @module
 */

import { runEntry } from "../platform/entry.ts";
import { numberFlag, strictFlags } from "../cli/_flags.ts";
import { runCommand, spawnGroup, spawnReaper } from "../platform/process.ts";
import { readProcText } from "../platform/procfs.ts";
import { alignTable } from "../report/format.ts";

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

async function main(args: string[]): Promise<number> {
  if (Deno.build.os !== "linux") throw new Error("reaper-cost reads /proc: Linux only");
  const flags = strictFlags(args, { string: ["groups", "messages", "idle"] });
  if (flags.help) {
    console.log("Usage: deno task reaper-cost [--groups 20] [--messages 20000] [--idle 3]");
    return 0;
  }
  const groups = numberFlag(flags, "groups", { integer: true, min: 0, max: 500 }) ?? 20;
  const messages = numberFlag(flags, "messages", { integer: true, min: 0, max: 10_000_000 }) ?? 20_000;
  const idleSec = numberFlag(flags, "idle", { min: 0, max: 600 }) ?? 3;

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

  const perMessageUs = messages > 0 ? ((busy.cpuMs - idle.cpuMs) * 1000) / messages : 0;
  console.log(alignTable([
    ["what", "cost"],
    ["spawn call in the harness", `${spawnMs.toFixed(1)} ms`],
    ["CPU to start (its first second)", `${started.cpuMs.toFixed(1)} ms`],
    ["resident memory while waiting", `${(started.rssBytes / 2 ** 20).toFixed(1)} MiB`],
    [`CPU while waiting ${idleSec} s`, `${(idle.cpuMs - started.cpuMs).toFixed(2)} ms`],
    [`CPU for ${messages} messages`, `${(busy.cpuMs - idle.cpuMs).toFixed(1)} ms (${perMessageUs.toFixed(1)} µs each)`],
    [
      `pipe closed → ${groups} groups stopped, 1 dir removed`,
      `${closeMs.toFixed(0)} ms (exit seen after ${exitMs.toFixed(0)} ms)`,
    ],
    ["left behind", `${stillThere} processes, ${dirLeft ? "the directory" : "no directory"}`],
  ], [1]));
  console.log(
    "measure on an idle machine, or quote the load average:",
    Deno.loadavg().map((n) => n.toFixed(2)).join(" "),
  );
  return stillThere === 0 && !dirLeft ? 0 : 1;
}

// The reaper is started by main itself, to time it.
if (import.meta.main) await runEntry("rtbench reaper-cost", Deno.args, () => main(Deno.args), { spawns: false });
