/**
 * Splits the CPUs this process may use between the server and the load
 * generator, so they never compete for a core.
 *
 * @module
 */

import { type CpuSplit, parseCpuList } from "../base/mod.ts";
import { canPin } from "./process.ts";
import { readProcText } from "./procfs.ts";

/** The CPUs this process may run on (Linux `Cpus_allowed_list`), or null where unreadable. */
export async function allowedCpus(): Promise<string | null> {
  const status = await readProcText(`/proc/${Deno.pid}/status`);
  return status ? /^Cpus_allowed_list:\s*(\S+)/m.exec(status)?.[1] ?? null : null;
}

/**
 * Splits an allowed CPU list in two halves: the server gets the first half
 * (rounded up), the client the rest. On a 2-core machine: server `0`, client `1`.
 * Returns nulls when fewer than two CPUs are allowed (or the list is unknown)
 * or `taskset` is missing. With `serverCpus` (`--server-cpus`), the server gets
 * that many of the first CPUs and the client the rest, or every CPU when none
 * is left (client and server then share them).
 *
 * @example Split four CPUs
 * ```ts
 * import { splitCpus } from "./cpus.ts";
 * console.log(splitCpus("0-3", true)); // { server: "0,1", client: "2,3" }
 * ```
 */
export function splitCpus(
  allowed: string | null,
  pinning: boolean = canPin(),
  serverCpus?: number | "all",
): CpuSplit {
  if (!allowed || !pinning) return { server: null, client: null };
  const cpus = parseCpuList(allowed);
  if (serverCpus !== undefined) {
    const n = serverCpus === "all" ? cpus.length : serverCpus;
    if (n > cpus.length) {
      throw new RangeError(`${n}: only ${cpus.length} CPUs may be used here (${allowed})`);
    }
    // No CPU left for the load generator: it shares the server's, and records say so.
    const rest = cpus.slice(n);
    return { server: cpus.slice(0, n).join(","), client: (rest.length > 0 ? rest : cpus).join(",") };
  }
  if (cpus.length < 2) return { server: null, client: null };
  const half = Math.ceil(cpus.length / 2);
  return { server: cpus.slice(0, half).join(","), client: cpus.slice(half).join(",") };
}

/** The variable placing the server and the load on CPUs of the user's choice: `<server CPUs>/<load CPUs>`. */
export const CPUS_ENV = "RTBENCH_CPUS";

/**
 * The placement `RTBENCH_CPUS` gives (`2,3/4-7`: the server on CPUs 2 and 3, the load generator on 4 to 7), or
 * undefined when it is unset or empty. Each side's CPUs must be ones this process may use (`allowed`, when known);
 * the sides may overlap, which records then say as with `--server-cpus`. Throws a RangeError naming the variable.
 *
 * @example
 * ```ts
 * import { assertEquals, assertThrows } from "@std/assert";
 * import { cpusOf } from "./cpus.ts";
 *
 * assertEquals(cpusOf("1/0", "0-3", true), { server: "1", client: "0" });
 * assertEquals(cpusOf("", "0-3", true), undefined);
 * assertThrows(() => cpusOf("0-1/4", "0-3", true), RangeError, "RTBENCH_CPUS");
 * ```
 */
export function cpusOf(
  value: string | undefined,
  allowed: string | null,
  pinning: boolean = canPin(),
): CpuSplit | undefined {
  if (!value) return undefined;
  const refuse = (why: string) => new RangeError(`${CPUS_ENV}=${value}: ${why}`);
  const sides = value.split("/");
  if (sides.length !== 2) throw refuse("give the server's CPUs and the load's, such as 0/1 or 2,3/4-7");
  if (!pinning) throw refuse("placing processes on CPUs needs taskset (util-linux), which is not on PATH");
  const may = allowed === null ? null : new Set(parseCpuList(allowed));
  const [server, client] = sides.map((side) => {
    let cpus: number[];
    try {
      cpus = parseCpuList(side);
    } catch {
      throw refuse(`"${side}" is not a CPU list`);
    }
    if (cpus.length === 0) throw refuse("each side needs at least one CPU");
    const outside = cpus.filter((c) => may !== null && !may.has(c));
    if (outside.length > 0) throw refuse(`CPU ${outside[0]} is not one this process may use (${allowed})`);
    return [...new Set(cpus)].join(",");
  });
  return { server, client };
}
