// docs/method.md "CPU per request": the server's CPU time over the measured window comes from the kernel's counters — a
// control group of its own where the machine allows it (cgroups v1 cpuacct.usage, v2 cpu.stat), else every process's
// utime + stime — read around the window's start and end, not integrated from samples.
import { assert, assertEquals } from "@std/assert";
import { startCpuMeter } from "../../runners/drivers/cpu_meter.ts";
import { spawnGroup } from "../../runners/platform/process.ts";
import { type CgroupCounter, cgroupPlaces, parseCgroupMounts, parseOwnCgroups } from "../../runners/platform/cgroup.ts";
import { condition, type Need, needs } from "../_needs.ts";
import { leftMeterGroups } from "../_helpers.ts";

const LINUX = condition("Linux", Deno.build.os === "linux" ? null : "reads the kernel's own CPU counters (Linux only)");

/** A group of this process's own can be made where `counter` is kept (made and removed again to find out). */
function cgroupNeed(counter: CgroupCounter): Need {
  if (Deno.build.os !== "linux") return LINUX;
  // Deno reads /proc/self only with --allow-all: a process of its own reads this one's (its parent's) files.
  const proc = (file: string) =>
    new TextDecoder().decode(
      new Deno.Command("cat", { args: [`/proc/${Deno.pid}/${file}`], stdout: "piped" }).outputSync().stdout,
    );
  const places = cgroupPlaces(parseCgroupMounts(proc("mounts")), parseOwnCgroups(proc("cgroup")));
  const place = places.find((p) => p.counter === counter);
  if (!place) return condition(counter, `no ${counter} hierarchy that counts CPU time is mounted here`);
  const probe = `${place.parent}/rtbench-probe-${Deno.pid}`;
  const made = new Deno.Command("sh", { args: ["-c", 'mkdir "$1" && rmdir "$1"', "sh", probe], stderr: "piped" })
    .outputSync();
  if (made.success) return condition(counter, null);
  const why = new TextDecoder().decode(made.stderr).trim();
  return condition(counter, `cannot make a group under ${place.parent} (${why}): run as root`);
}

/** utime + stime (+ reaped children's) of `pid` in µs, read by a process of its own (Deno may not read /proc). */
async function procCpuUs(pids: number[]): Promise<number> {
  const out = await new Deno.Command("cat", {
    args: pids.map((p) => `/proc/${p}/stat`),
    stdout: "piped",
    stderr: "null",
  })
    .output();
  const hz = Number(
    new TextDecoder().decode(
      (await new Deno.Command("getconf", { args: ["CLK_TCK"], stdout: "piped" }).output()).stdout,
    ),
  );
  return new TextDecoder().decode(out.stdout).trim().split("\n").reduce((total, line) => {
    const f = line.slice(line.lastIndexOf(")") + 2).split(" ");
    return total + (Number(f[11]) + Number(f[12]) + Number(f[13]) + Number(f[14])) * 1e6 / hz;
  }, 0);
}

/** A server-like tree: a busy shell that forks a busy child after 200 ms; its children are found by session. */
function busyTree() {
  return spawnGroup(["sh", "-c", "(sleep 0.2; while :; do :; done) & while :; do :; done"]);
}

async function childrenOf(pid: number): Promise<number[]> {
  const out = await new Deno.Command("ps", { args: ["-o", "pid=", "--ppid", String(pid)], stdout: "piped" }).output();
  return new TextDecoder().decode(out.stdout).split("\n").map((l) => Number(l.trim())).filter((n) => n > 0);
}

// This project's machines have both hierarchies (v1 controllers, a v2 hierarchy beside them): each way is tried where
// the machine has it.
for (const source of ["auto", "cgroup-v1", "cgroup-v2", "proc"] as const) {
  const need = source === "cgroup-v1" || source === "cgroup-v2" ? cgroupNeed(source) : LINUX;
  Deno.test(needs(need, {
    name: `cpu meter (${source}): a tree's CPU time over a window matches the kernel's own count of it`,
    fn: async () => {
      const tree = busyTree();
      const meter = (await startCpuMeter({ server: tree.pid, source }))!;
      try {
        await new Promise((r) => setTimeout(r, 400));
        // The child forked after the meter started: it is counted too.
        const pids = [tree.pid, ...await childrenOf(tree.pid)];
        assert(pids.length >= 2, `the busy child is running: ${pids}`);
        const fromMs = Date.now();
        const before = await procCpuUs(pids);
        await new Promise((r) => setTimeout(r, 1000));
        const toMs = Date.now();
        const after = await procCpuUs(pids);
        const report = await meter.stop({ fromMs, toMs });
        const kernel = after - before;
        const server = report.server;
        if (server === null) throw new Error("the server side was not read around both instants");
        // Where the hierarchy asked for can hold a group of rtbench's own (the need above), the meter uses it.
        if (source !== "auto") assertEquals(server.source, source);
        // Two busy processes over a second: the kernel counted CPU time for them (up to two CPUs' worth; far less on a
        // machine busy with other work, so only "they ran" is asked here, and the comparison below is the test).
        assert(kernel > 100_000, `kernel count ${kernel}`);
        // /proc's times are in clock ticks (10 ms) per process and per reading, and `cat` runs a little after the
        // instant it stands for: within 60 ms of CPU time of each other over a window of 1 s.
        assert(
          Math.abs(server.cpuUs - kernel) < 60_000,
          `meter ${server.cpuUs} µs (${server.source}) vs kernel ${kernel} µs`,
        );
        assertEquals(report.client, null, "no client process was added");
      } finally {
        await tree.stop();
      }
      assertEquals(await leftMeterGroups(), [], "every group made is removed");
    },
  }));
}
