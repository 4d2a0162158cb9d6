// README walk: shows claims of docs/method.md "Resources and `client-bound`": how the sampler reads a process tree, demand, busiest thread, its own cost.
// The resource sampler on a real process tree: a shell that starts a spinning
// child and a sleeper. The tree is found by session, its busiest thread wants
// a whole CPU, and the sampler's own cost is reported. Nothing is left behind.
import { assert, assertEquals, assertExists } from "@std/assert";
import { spawnGroup } from "../../runners/platform/process.ts";
import { startSampler } from "../../runners/drivers/resource_sampler.ts";
import { processesMatching, waitFor } from "../_helpers.ts";
import { condition, needs } from "../_needs.ts";

const CPUS = navigator.hardwareConcurrency;
const TWO_CPUS = condition("two CPUs", CPUS < 2 ? `this machine has ${CPUS} CPU: nothing to pin apart` : null);

Deno.test("the sampler follows a process tree's CPU, memory, threads and open files", async () => {
  const marker = `rtbench-sampler-test-${crypto.randomUUID()}`;
  const tree = spawnGroup(["sh", "-c", `sh -c 'while :; do :; done' & sleep 60; : ${marker}`]);
  const sampler = startSampler({ intervalMs: 100, roots: { server: [tree.pid] } });
  try {
    assert(await waitFor(() => sampler.samples >= 8, 10_000), "samples arrive");
  } finally {
    await tree.stop();
  }
  const { series, summary } = await sampler.stop();
  const server = summary.server;
  assertExists(server);
  assertEquals(Math.max(...series.server!.processes), 3, "shell, spinner and sleeper");
  assert(server!.rssBytes.peak > 0);
  assert(server!.threads.peak >= 3);
  assert(server!.openFiles.peak >= 3, "stdin, stdout and stderr at least");
  // Demand counts time waiting for a CPU too, so a spinning thread wants all of one even on a busy machine.
  assertExists(server!.busiestThreadDemandPercent, "this kernel keeps schedstat");
  assert(server!.busiestThreadDemandPercent!.mean > 70, JSON.stringify(server));
  assertEquals(summary.client, null);
  assert(summary.samplerCpuPercent !== null && summary.samplerCpuPercent >= 0);
  assertEquals(series.tMs.length, series.server!.cpuPercent.length);
  assertEquals(await processesMatching(marker), []);
});

// docs/method.md (How it is sampled): "the helper is pinned to the load generator's CPU".
Deno.test(needs(TWO_CPUS, {
  name: "the sampler's helper runs pinned to the CPUs it is given (the load generator's)",
  async fn() {
    // Helpers of this process already running (another test file's sampler in the same test process) are not ours.
    const before = new Set(samplerHelpers().map(([pid]) => pid));
    const sampler = startSampler({ intervalMs: 50, roots: { server: [Deno.pid] }, cpus: "1" });
    try {
      assert(await waitFor(() => sampler.samples >= 2, 10_000), "samples arrive");
      const helpers = samplerHelpers().filter(([pid]) => !before.has(pid)).map(([, cpus]) => cpus);
      assertEquals(helpers, ["1"]);
    } finally {
      await sampler.stop();
    }
  },
}));

/**
 * This process's sampler helpers: pid and the CPUs each may run on. Read with ps and taskset: Deno lets only
 * --allow-all read other processes' /proc files, and `deno task test` grants the permissions one by one.
 */
function samplerHelpers(): [string, string][] {
  const run = (cmd: string, args: string[]) =>
    new TextDecoder().decode(new Deno.Command(cmd, { args, stdout: "piped", stderr: "null" }).outputSync().stdout);
  return run("ps", ["-e", "-o", "pid=,ppid=,args="]).split("\n").map((l) => l.trim().split(/\s+/))
    .filter(([, ppid]) => ppid === String(Deno.pid))
    .filter((fields) => fields.join(" ").includes("read -r mode spids pids"))
    .map(([pid]) => [pid, /list:\s*(\S+)/.exec(run("taskset", ["-cp", pid]))?.[1] ?? "?"]);
}
