/**
 * Where a process tree's CPU time can be counted exactly: a control group of its own. Under cgroups v1 the `cpuacct`
 * controller keeps `cpuacct.usage` (nanoseconds, every process ever in the group); under cgroups v2 every group keeps
 * `usage_usec` in `cpu.stat`. These functions read what `/proc/self/mounts` and `/proc/self/cgroup` say and name the
 * places rtbench may make such a group, best first; making it and moving processes in is the CPU meter's.
 *
 * @module
 */

/** How a counter is kept: cgroups v1 `cpuacct.usage` (ns), cgroups v2 `cpu.stat` `usage_usec`. */
export type CgroupCounter = "cgroup-v1" | "cgroup-v2";

/** A directory under which rtbench may make a group of its own, and the file that counts the group's CPU time. */
export interface CgroupPlace {
  /** How the counter is kept. */
  readonly counter: CgroupCounter;
  /** The group this process is in (new groups go under it), absolute. */
  readonly parent: string;
  /** The file, in each group, that counts its CPU time. */
  readonly file: "cpuacct.usage" | "cpu.stat";
}

/** One cgroup file system mounted. */
export interface CgroupMount {
  /** 1 or 2. */
  readonly version: 1 | 2;
  /** Where it is mounted. */
  readonly mountPoint: string;
  /** The v1 controllers it carries (`cpuacct`, `cpu`, ...); empty for v2. */
  readonly controllers: readonly string[];
}

/**
 * The cgroup file systems in a `/proc/self/mounts` text.
 *
 * @example A machine with cgroups v1 and v2 side by side
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { parseCgroupMounts } from "./cgroup.ts";
 *
 * const mounts = "cgroup /sys/fs/cgroup/cpuacct cgroup rw,relatime,cpuacct 0 0\n" +
 *   "cgroup2 /sys/fs/cgroup/unified cgroup2 rw,relatime 0 0\nproc /proc proc rw 0 0\n";
 * assertEquals(parseCgroupMounts(mounts), [
 *   { version: 1, mountPoint: "/sys/fs/cgroup/cpuacct", controllers: ["cpuacct"] },
 *   { version: 2, mountPoint: "/sys/fs/cgroup/unified", controllers: [] },
 * ]);
 * ```
 */
export function parseCgroupMounts(text: string): CgroupMount[] {
  return text.split("\n").flatMap((line): CgroupMount[] => {
    const [, mountPoint, type, options] = line.split(" ");
    // Spaces in mount points are written as \040.
    const at = mountPoint?.replace(/\\040/g, " ");
    if (type === "cgroup2") return [{ version: 2, mountPoint: at, controllers: [] }];
    if (type !== "cgroup") return [];
    const known = [
      "cpu",
      "cpuacct",
      "cpuset",
      "memory",
      "devices",
      "freezer",
      "blkio",
      "pids",
      "net_cls",
      "perf_event",
    ];
    return [{ version: 1, mountPoint: at, controllers: options.split(",").filter((o) => known.includes(o)) }];
  });
}

/**
 * The groups a process is in, from its `/proc/<pid>/cgroup` text: per v1 controller, and its v2 group.
 *
 * @example
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { parseOwnCgroups } from "./cgroup.ts";
 *
 * const own = parseOwnCgroups("2:cpu,cpuacct:/user.slice\n0::/user.slice/session-1.scope\n");
 * assertEquals([own.v1.get("cpuacct"), own.v2], ["/user.slice", "/user.slice/session-1.scope"]);
 * ```
 */
export function parseOwnCgroups(text: string): { v1: Map<string, string>; v2: string | null } {
  const v1 = new Map<string, string>();
  let v2: string | null = null;
  for (const line of text.split("\n")) {
    const first = line.indexOf(":");
    const second = line.indexOf(":", first + 1);
    if (first < 0 || second < 0) continue;
    const controllers = line.slice(first + 1, second);
    const path = line.slice(second + 1);
    if (line.slice(0, first) === "0" && controllers === "") v2 = path;
    else for (const c of controllers.split(",")) if (c) v1.set(c, path);
  }
  return { v1, v2 };
}

function join(mountPoint: string, path: string): string {
  return path === "/" ? mountPoint : `${mountPoint}${path}`;
}

/**
 * The places a group of rtbench's own could count CPU time, best first: a v1 `cpuacct` hierarchy (nanoseconds) that
 * does not also carry the `cpu` controller, then the v2 hierarchy (microseconds). Whether one can be written is for
 * the meter to find out.
 *
 * @param mounts The cgroup file systems ({@linkcode parseCgroupMounts}).
 * @param own The groups this process is in ({@linkcode parseOwnCgroups}).
 * @returns The places, best first; empty where no cgroup file system is mounted.
 *
 * @example This project's machines: v1 controllers, and a v2 hierarchy without them
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { cgroupPlaces, parseCgroupMounts, parseOwnCgroups } from "./cgroup.ts";
 *
 * const mounts = parseCgroupMounts(
 *   "cgroup /sys/fs/cgroup/cpuacct cgroup rw,cpuacct 0 0\ncgroup2 /sys/fs/cgroup/unified cgroup2 rw 0 0\n",
 * );
 * const places = cgroupPlaces(mounts, parseOwnCgroups("2:cpuacct:/\n0::/\n"));
 * assertEquals(places.map((p) => [p.counter, p.parent]), [
 *   ["cgroup-v1", "/sys/fs/cgroup/cpuacct"],
 *   ["cgroup-v2", "/sys/fs/cgroup/unified"],
 * ]);
 * ```
 */
export function cgroupPlaces(
  mounts: readonly CgroupMount[],
  own: { readonly v1: ReadonlyMap<string, string>; readonly v2: string | null },
): CgroupPlace[] {
  const places: CgroupPlace[] = [];
  // Where cpuacct shares its hierarchy with cpu, a group of its own would also be scheduled as one (its own share
  // against everything else on its CPUs): counting must not change what is counted, so that hierarchy is left alone.
  const cpuacct = mounts.find((m) =>
    m.version === 1 && m.controllers.includes("cpuacct") && !m.controllers.includes("cpu")
  );
  const v1Path = own.v1.get("cpuacct");
  if (cpuacct && v1Path !== undefined) {
    places.push({ counter: "cgroup-v1", parent: join(cpuacct.mountPoint, v1Path), file: "cpuacct.usage" });
  }
  const unified = mounts.find((m) => m.version === 2);
  if (unified && own.v2 !== null) {
    places.push({ counter: "cgroup-v2", parent: join(unified.mountPoint, own.v2), file: "cpu.stat" });
  }
  return places;
}

/**
 * A group's CPU time in microseconds from the first line of its counter file: `cpuacct.usage` holds nanoseconds,
 * `cpu.stat` opens with `usage_usec <n>`. Null when the line is not one.
 *
 * @example
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { counterMicros } from "./cgroup.ts";
 *
 * assertEquals(counterMicros("cgroup-v1", "795570239"), 795570.239);
 * assertEquals(counterMicros("cgroup-v2", "usage_usec 795570"), 795570);
 * assertEquals(counterMicros("cgroup-v2", ""), null);
 * ```
 */
export function counterMicros(counter: CgroupCounter, line: string): number | null {
  const text = line.trim();
  if (counter === "cgroup-v1") return /^\d+$/.test(text) ? Number(text) / 1000 : null;
  const m = /^usage_usec (\d+)$/.exec(text);
  return m ? Number(m[1]) : null;
}
