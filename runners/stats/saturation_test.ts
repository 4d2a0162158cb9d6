import { assertEquals } from "@std/assert";
import type { ResourceSummary } from "../schema/resources.ts";
import { clientBoundWarning, clientSaturatedWarning, type Saturation, saturation } from "./saturation.ts";

type Role = NonNullable<ResourceSummary["server"]>;

function role(cpu: number, demand: number | null, thread: number, threadDemand: number | null = null): Role {
  const f = (v: number) => ({ mean: v, peak: v });
  return {
    cpuPercent: f(cpu),
    busiestThreadPercent: f(thread),
    demandPercent: demand === null ? null : f(demand),
    busiestThreadDemandPercent: threadDemand === null ? null : f(threadDemand),
    rssBytes: f(0),
    threads: f(1),
    openFiles: f(3),
  };
}

function judge(server: Role, client: Role, cpus = { server: "0", client: "1,2" }): Saturation {
  const summary = { intervalMs: 250, samples: 8, server, client, samplerCpuPercent: 1, harnessCpuPercent: 1 };
  return saturation(summary, cpus)!;
}

// docs/method.md (Resources and client-bound): "a tree is at its limit when its demand reaches 90% of the CPUs it is
// pinned to, or its most demanding thread reaches 90% of one CPU … Demand rather than CPU time keeps the verdict right
// on a shared machine".
Deno.test("a tree is at its limit at 90% of its CPUs' demand or 90% of one CPU on its busiest thread", () => {
  const idle = role(20, 20, 20);
  // Two client CPUs: 180% of demand is the limit, 170% is not.
  assertEquals(judge(idle, role(180, 180, 60)).clientBound, true);
  assertEquals(judge(idle, role(170, 170, 60)).clientBound, false);
  // One thread at 92% of a CPU saturates a single-threaded event loop, whatever the tree's total.
  assertEquals(judge(idle, role(95, 95, 92)).clientBound, true);
  // Demand, not CPU time: kept off the CPU by other work, the client still wanted it all.
  assertEquals(judge(idle, role(100, 185, 60)).clientBound, true);
  assertEquals(judge(idle, role(60, 60, 50, 95)).clientBound, true);
  // The server at its limit too: not client-bound (both saturated).
  assertEquals(judge(role(99, 99, 99), role(180, 180, 60)).clientBound, false);
});

// docs/method.md (Resources and client-bound): `client-bound` when the client was at its limit while the server was
// not; `client-saturated` when the client was, whatever the server did — each in at least half of the record's runs.
Deno.test("client-bound and client-saturated need the client at its limit in at least half the runs", () => {
  const cpus = { server: "0", client: "1" };
  const bound: Saturation = { client: 0.95, server: 0.5, clientBound: true };
  const both: Saturation = { client: 0.95, server: 0.95, clientBound: false };
  const free: Saturation = { client: 0.5, server: 0.95, clientBound: false };
  assertEquals(clientBoundWarning([bound, free], "rtbench", cpus)?.code, "client-bound");
  assertEquals(clientBoundWarning([bound, free, free], "rtbench", cpus), null);
  assertEquals(clientBoundWarning([both, both], "rtbench", cpus), null);
  assertEquals(clientSaturatedWarning([both, bound, free], "rtbench", cpus)?.code, "client-saturated");
  assertEquals(clientSaturatedWarning([both, free, free], "rtbench", cpus), null);
  assertEquals(clientSaturatedWarning([null], "rtbench", cpus), null);
});
