/**
 * How many connections this machine can carry between one server and one load generator: each end holds a file
 * descriptor per connection (the per-process open-file limit), and every connection to one address needs its own
 * local port (the kernel's ephemeral port range). A run asking for more would die of EMFILE or EADDRNOTAVAIL
 * half-way, so it is refused up front. Deno raises its own open-file soft limit to the hard limit when it starts, and
 * the servers and load generators rtbench starts inherit it.
 *
 * @module
 */

import { readProcText } from "./procfs.ts";

/** File descriptors a server or load generator holds besides its connections (runtime, modules, pipes, logs). */
export const SPARE_FILES = 256;

/** What limits the connections, for a message naming the flag. */
export interface ConnectionCeiling {
  /** The most connections that can work. */
  readonly max: number;
  /** Why: the limits read. */
  readonly why: string;
}

/** The open-file limit of this process, soft and hard; null where `/proc` has none. */
export async function openFileLimit(): Promise<{ soft: number; hard: number } | null> {
  const line = (await readProcText(`/proc/${Deno.pid}/limits`))?.split("\n").find((l) =>
    l.startsWith("Max open files")
  );
  const [soft, hard] = line?.slice("Max open files".length).trim().split(/\s+/) ?? [];
  if (soft === undefined) return null;
  const value = (s: string) => s === "unlimited" ? Infinity : Number(s);
  return { soft: value(soft), hard: value(hard) };
}

/** Local ports the kernel hands out for outgoing connections; null where `/proc` does not say. */
export async function ephemeralPorts(): Promise<number | null> {
  const [low, high] = ((await readProcText("/proc/sys/net/ipv4/ip_local_port_range")) ?? "").trim().split(/\s+/).map(
    Number,
  );
  return Number.isFinite(low) && Number.isFinite(high) && high >= low ? high - low + 1 : null;
}

/**
 * The connections this machine can carry, from the open-file limit in force and the ephemeral port range; null
 * where neither is known.
 *
 * @example
 * ```ts
 * import { connectionCeiling } from "./limits.ts";
 *
 * const ceiling = await connectionCeiling();
 * console.log(ceiling === null || ceiling.max > 100); // true
 * ```
 */
export async function connectionCeiling(): Promise<ConnectionCeiling | null> {
  const files = (await openFileLimit())?.soft ?? Infinity;
  const ports = (await ephemeralPorts()) ?? Infinity;
  const byFiles = files - SPARE_FILES;
  if (!Number.isFinite(byFiles) && !Number.isFinite(ports)) return null;
  return byFiles <= ports
    ? { max: byFiles, why: `each process may open ${files} files (ulimit -n), ${SPARE_FILES} kept for other uses` }
    : { max: ports, why: `the kernel has ${ports} local ports for connections to one address (ip_local_port_range)` };
}
