import { assertEquals } from "@std/assert";
import { cgroupPlaces, counterMicros, parseCgroupMounts, parseOwnCgroups } from "./cgroup.ts";

Deno.test("cgroup places: cpuacct of its own first, then v2; a cpuacct scheduled with cpu is left alone", () => {
  const own = parseOwnCgroups("4:memory:/x\n2:cpuacct:/user.slice\n0::/user.slice/app.scope\n");
  const split = parseCgroupMounts(
    "cgroup /sys/fs/cgroup/cpuacct cgroup rw,relatime,cpuacct 0 0\ncgroup2 /sys/fs/cgroup/unified cgroup2 rw 0 0\n",
  );
  assertEquals(cgroupPlaces(split, own), [
    { counter: "cgroup-v1", parent: "/sys/fs/cgroup/cpuacct/user.slice", file: "cpuacct.usage" },
    { counter: "cgroup-v2", parent: "/sys/fs/cgroup/unified/user.slice/app.scope", file: "cpu.stat" },
  ]);
  // Older distributions mount cpu and cpuacct together: a group there would get its own CPU share.
  const together = parseCgroupMounts("cgroup /sys/fs/cgroup/cpu,cpuacct cgroup rw,cpu,cpuacct 0 0\n");
  assertEquals(cgroupPlaces(together, own), []);
  // cgroups v2 only, as most machines run today.
  const v2 = parseCgroupMounts("cgroup2 /sys/fs/cgroup cgroup2 rw,nosuid 0 0\n");
  assertEquals(cgroupPlaces(v2, parseOwnCgroups("0::/\n")), [
    { counter: "cgroup-v2", parent: "/sys/fs/cgroup", file: "cpu.stat" },
  ]);
  assertEquals(cgroupPlaces([], own), []);
});

Deno.test("counters in microseconds: v1 in nanoseconds, v2's usage_usec as is", () => {
  // The measurement DESIGN.md quotes: a 0.80 s shell loop read 795,570,239 ns in cpuacct.usage.
  assertEquals(counterMicros("cgroup-v1", "795570239\n"), 795_570.239);
  assertEquals(counterMicros("cgroup-v2", "usage_usec 1346981271"), 1_346_981_271);
  assertEquals(counterMicros("cgroup-v1", "usage_usec 5"), null);
  assertEquals(counterMicros("cgroup-v2", "user_usec 5"), null);
});
