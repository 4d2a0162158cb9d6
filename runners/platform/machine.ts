/**
 * What tells two machines apart when the hypervisor masks the CPU's model
 * name ("AMD EPYC", "Intel Xeon Processor"): the CPU's vendor, family, model,
 * stepping and microcode, its cache sizes, the hypervisor, and the CPU
 * mitigations the kernel reports (`/sys/devices/system/cpu/vulnerabilities`).
 * Read here from this machine's files, or parsed from the same files read on
 * another machine over ssh.
 *
 * @module
 */

import type { MachineIdentity } from "../base/mod.ts";
import { readProcText } from "./procfs.ts";
import { runCommand, which } from "./process.ts";

function field(cpuinfo: string, name: string): string | null {
  return new RegExp(`^${name}\\s*:\\s*(.*)$`, "m").exec(cpuinfo)?.[1]?.trim() || null;
}

function integer(text: string | null): number | null {
  const n = text === null ? NaN : Number(text);
  return Number.isInteger(n) ? n : null;
}

/**
 * Reads `path:value` lines (what `grep -r . <dir>` prints) into a map from the path's last part to its value.
 *
 * @example
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { pathValues } from "./machine.ts";
 * assertEquals(pathValues("/sys/x/meltdown:Not affected\n/sys/x/mds:Vulnerable\n"), { meltdown: "Not affected", mds: "Vulnerable" });
 * ```
 */
export function pathValues(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const line of text.split("\n")) {
    const colon = line.indexOf(":");
    if (colon <= 0) continue;
    const path = line.slice(0, colon);
    out[path.slice(path.lastIndexOf("/") + 1)] = line.slice(colon + 1).trim();
  }
  return out;
}

/**
 * Cache sizes from the `level`, `type` and `size` files of `/sys/devices/system/cpu/cpu0/cache/index*` (as
 * `grep -r . ` lines `…/index0/level:1`), named `L1d`, `L1i`, `L2`, `L3`.
 *
 * @example
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { cacheSizes } from "./machine.ts";
 * const lines = "/c/index0/level:1\n/c/index0/type:Data\n/c/index0/size:32K\n/c/index2/level:2\n/c/index2/type:Unified\n/c/index2/size:512K";
 * assertEquals(cacheSizes(lines), { L1d: "32K", L2: "512K" });
 * ```
 */
export function cacheSizes(lines: string): Record<string, string> {
  const byIndex = new Map<string, Record<string, string>>();
  for (const line of lines.split("\n")) {
    const m = /\/(index\d+)\/(level|type|size):(.*)$/.exec(line.trim());
    if (!m) continue;
    byIndex.set(m[1], { ...byIndex.get(m[1]), [m[2]]: m[3].trim() });
  }
  const out: Record<string, string> = {};
  for (const { level, type, size } of byIndex.values()) {
    if (!level || !size) continue;
    const suffix = type === "Data" ? "d" : type === "Instruction" ? "i" : "";
    out[`L${level}${suffix}`] = size;
  }
  return Object.fromEntries(Object.entries(out).sort(([a], [b]) => a.localeCompare(b)));
}

/**
 * The identity from a machine's files: /proc/cpuinfo, its cache lines (see {@linkcode cacheSizes}), its
 * vulnerabilities lines (see {@linkcode pathValues}) and what `systemd-detect-virt --vm` printed, if it ran.
 *
 * @param files What was read on the machine.
 * @returns Its identity.
 *
 * @example
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { identityFrom } from "./machine.ts";
 * const cpuinfo = "vendor_id\t: AuthenticAMD\ncpu family\t: 23\nmodel\t\t: 1\nstepping\t: 2\nmicrocode\t: 0x8001250\nflags\t\t: fpu hypervisor\n";
 * const id = identityFrom({ cpuinfo, caches: "", vulnerabilities: "", virt: null });
 * assertEquals([id.cpuFamily, id.cpuModelNumber, id.hypervisor], [23, 1, "yes"]);
 * ```
 */
export function identityFrom(
  files: { cpuinfo: string; caches: string; vulnerabilities: string; virt: string | null },
): MachineIdentity {
  const { cpuinfo } = files;
  const flags = ` ${field(cpuinfo, "flags") ?? ""} `;
  const virt = files.virt?.trim() || null;
  return {
    cpuVendor: field(cpuinfo, "vendor_id"),
    cpuFamily: integer(field(cpuinfo, "cpu family")),
    cpuModelNumber: integer(field(cpuinfo, "model")),
    cpuStepping: integer(field(cpuinfo, "stepping")),
    microcode: field(cpuinfo, "microcode"),
    caches: cacheSizes(files.caches),
    // systemd-detect-virt names it; without it, the CPU's hypervisor flag says only that there is one.
    hypervisor: virt ?? (flags.includes(" hypervisor ") ? "yes" : cpuinfo ? "none" : null),
    mitigations: Object.fromEntries(Object.entries(pathValues(files.vulnerabilities)).sort()),
  };
}

// What identityFrom reads besides /proc/cpuinfo, in three parts: the first CPU's caches, the kernel's
// vulnerabilities, the hypervisor systemd names. A constant: no value is ever put into it.
const SCRIPT =
  "grep -r . /sys/devices/system/cpu/cpu0/cache/index*/level /sys/devices/system/cpu/cpu0/cache/index*/type " +
  "/sys/devices/system/cpu/cpu0/cache/index*/size 2>/dev/null; echo '--'; " +
  "grep -r . /sys/devices/system/cpu/vulnerabilities 2>/dev/null; echo '--'; " +
  "systemd-detect-virt --vm 2>/dev/null; true";

/** The command that prints, on a machine, what {@linkcode identityFrom} reads besides /proc/cpuinfo. */
export const IDENTITY_COMMAND: readonly string[] = ["sh", "-c", SCRIPT];

/**
 * Splits what {@linkcode IDENTITY_COMMAND} printed into its three parts.
 *
 * @example
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { splitIdentityOutput } from "./machine.ts";
 * assertEquals(splitIdentityOutput("a\n--\nb\n--\nkvm\n"), { caches: "a\n", vulnerabilities: "b\n", virt: "kvm" });
 * ```
 */
export function splitIdentityOutput(stdout: string): { caches: string; vulnerabilities: string; virt: string | null } {
  const [caches = "", vulnerabilities = "", virt = ""] = stdout.split(/^--$/m);
  return {
    caches: caches.replace(/^\n/, ""),
    vulnerabilities: vulnerabilities.replace(/^\n/, ""),
    virt: virt.trim() || null,
  };
}

/**
 * This machine's identity; fields it cannot read are null or empty.
 *
 * @example
 * ```ts ignore
 * import { readMachineIdentity } from "./machine.ts";
 * console.log((await readMachineIdentity()).cpuModelNumber);
 * ```
 */
export async function readMachineIdentity(): Promise<MachineIdentity> {
  const cpuinfo = (await readProcText("/proc/cpuinfo")) ?? "";
  if (Deno.build.os !== "linux" || !which("grep")) {
    return identityFrom({ cpuinfo, caches: "", vulnerabilities: "", virt: null });
  }
  // What a machine says of itself, not a process a record measures.
  const out = await runCommand([...IDENTITY_COMMAND], { timeoutMs: 15_000, listed: false });
  return identityFrom({ cpuinfo, ...splitIdentityOutput(out.stdout) });
}
