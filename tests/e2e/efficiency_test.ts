// docs/method.md "CPU per request and memory per connection": every HTTP and WebSocket window's server CPU per request
// from the kernel's counters; with --cpu-rate a window at that rate after each run (the server's CPU per request, the
// load's per response, RSS there); with --idle-connections the server's memory per idle connection after a record's
// first run. Real servers, real load, every response verified.
// Runs alone: CPU per request and the control groups of this process are what it asserts.
import { assert, assertEquals } from "@std/assert";
import { run } from "../_suite.ts";
import { validateResult } from "../../runners/schema/mod.ts";
import { httpJson } from "../../workloads/http_json.ts";
import { wsEcho } from "../../workloads/ws_echo.ts";
import { leftMeterGroups, withTmp } from "../_helpers.ts";
import { condition, needs } from "../_needs.ts";

const LINUX = condition("Linux", Deno.build.os === "linux" ? null : "reads the kernel's own CPU counters (Linux only)");

for (const [workload, unit, client] of [[httpJson, "Request", "Response"], [wsEcho, "Message", "Message"]] as const) {
  Deno.test(needs(LINUX, {
    name: `${workload.name}: CPU per ${unit.toLowerCase()} in the window and at a fixed rate, memory per connection`,
    fn: async () => {
      await withTmp(async (tmp) => {
        const result = await run({
          workloads: [workload],
          runtimes: ["deno"],
          variants: ["default"],
          settings: { runs: 2, durationSec: 1, warmupSec: 0.2, connections: 16, cpuRate: 4000, idleConnections: 200 },
          tempDir: tmp,
        });
        assertEquals(validateResult(result), []);
        const [record] = result.records;
        assertEquals(record.status, "completed", JSON.stringify(record.error));
        assert(["cgroup-v1", "cgroup-v2", "proc"].includes(String(record.facts.cpuTimeSource)));
        for (const [i, r] of record.runs.entries()) {
          const f = r.figures;
          // The window's CPU per request, cross-checked against the sampler's own mean CPU over the same window (ticks
          // of /proc every 250 ms, an independent reading): the two agree within a third.
          const answered = unit === "Request" ? f.validResponses : f.validMessages;
          const counted = f[`serverCpuUsPer${unit}`] * answered;
          const sampled = f.serverCpuPercent / 100 * f.durationMs * 1000;
          assert(
            counted > 0 && counted / sampled > 0.67 && counted / sampled < 1.5,
            `counted ${counted} vs sampled ${sampled}`,
          );
          // The fixed-rate window held its rate and counted the server's CPU per request there, and the load's own.
          assert(f.cpuRateAchievedPerSecond >= 0.95 * 4000, `achieved ${f.cpuRateAchievedPerSecond}`);
          assert(f[`serverCpuUsPer${unit}AtRate`] > 0 && f[`serverCpuUsPer${unit}AtRate`] < 1000);
          assert(f[`clientCpuUsPer${client}AtRate`] > 0);
          assert(f.serverRssAtRateBytes > 10 * 1024 * 1024, `RSS ${f.serverRssAtRateBytes}`);
          // Memory per connection on the first run only: 200 connections held, the difference per connection below
          // 1 MiB (a WebSocket or keep-alive connection costs kilobytes).
          if (i === 0) {
            assertEquals(f.idleConnections, 200);
            assert(f.serverRssIdleBytes > 10 * 1024 * 1024);
            assert(Math.abs(f.serverRssPerConnectionBytes) < 1024 * 1024, `${f.serverRssPerConnectionBytes}`);
          } else {
            assertEquals(f.serverRssPerConnectionBytes, undefined);
          }
        }
        assertEquals(await leftMeterGroups(), [], "every control group made is removed");
      });
    },
  }));
}
