/**
 * Whether two results ran on one machine in one state, the condition for
 * comparing their figures (`compare`, `trend`, `--history`,
 * `--fail-on-regression`). A hypervisor masks the CPU model name ("AMD EPYC")
 * so that different hosts read alike; their identity (CPU vendor, family,
 * model number, stepping, microcode, caches, hypervisor, mitigations) does
 * not. Within one identity, the calibrations measured when each suite started
 * must agree within their noise: a host that ran slower that day is not
 * compared either.
 *
 * Files written before the identity was recorded: two such files are compared
 * as before (CPU model, logical CPUs, OS), with a note saying so; a file with
 * the identity is never compared with one without, since nothing says the two
 * machines were one.
 *
 * @module
 */

import type { BenchResult, Environment, MachineCalibration, MachineIdentity } from "../schema/mod.ts";

/**
 * Calibrations within this many percent of each other are always within noise: a floor under the tolerance, for
 * calibrations whose rounds barely varied (a quiet machine still drifts a few percent between suites).
 */
export const CALIBRATION_FLOOR_PERCENT = 10;

/** The tolerance is this many times the two calibrations' spreads added. */
export const CALIBRATION_SPREADS = 3;

/**
 * How far apart two calibrations may be, in percent of the faster one, and still be one machine in one state:
 * {@linkcode CALIBRATION_SPREADS} × (spread of a + spread of b), at least {@linkcode CALIBRATION_FLOOR_PERCENT}.
 *
 * @example
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { calibrationTolerancePercent } from "./machine.ts";
 * // 3 × (1 + 2) = 9, under the floor of 10; 3 × (5 + 4) = 27.
 * assertEquals([calibrationTolerancePercent(1, 2), calibrationTolerancePercent(5, 4)], [10, 27]);
 * ```
 */
export function calibrationTolerancePercent(spreadA: number, spreadB: number): number {
  return Math.max(CALIBRATION_FLOOR_PERCENT, CALIBRATION_SPREADS * (spreadA + spreadB));
}

function percent(n: number): string {
  return `${n > 0 ? "+" : n < 0 ? "−" : ""}${Math.abs(n).toFixed(1)}%`;
}

/**
 * Why two calibrations say the machines differ (beyond their noise), or null when they agree.
 *
 * @example
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { calibrationDifference } from "./machine.ts";
 * const c = (medianMs: number, spreadPercent: number) =>
 *   ({ work: "w/1", runtime: "deno 2", cpu: "0", roundsMs: [medianMs], medianMs, spreadPercent });
 * assertEquals(calibrationDifference(c(100, 1), c(105, 1)), null);
 * assertEquals(
 *   calibrationDifference(c(100, 1), c(130, 2)),
 *   "calibration 100 ms → 130 ms (+30.0%), beyond its noise (±10%)",
 * );
 * ```
 */
export function calibrationDifference(a: MachineCalibration, b: MachineCalibration): string | null {
  const change = (100 * (b.medianMs - a.medianMs)) / a.medianMs;
  const apart = (100 * Math.abs(b.medianMs - a.medianMs)) / Math.min(a.medianMs, b.medianMs);
  const tolerance = calibrationTolerancePercent(a.spreadPercent, b.spreadPercent);
  if (apart <= tolerance) return null;
  return `calibration ${a.medianMs} ms → ${b.medianMs} ms (${percent(change)}), beyond its noise (±${
    Math.round(tolerance * 10) / 10
  }%)`;
}

function show(v: unknown): string {
  return v === null || v === undefined ? "unknown" : String(v);
}

/**
 * Every field in which two identities differ, as `what a → b`. A vulnerability one kernel lists and the other
 * does not counts as `Not affected` there.
 *
 * @example
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { identityDifferences } from "./machine.ts";
 * const zen = { cpuVendor: "AuthenticAMD", cpuFamily: 23, cpuModelNumber: 1, cpuStepping: 2, microcode: "0x8001250",
 *   caches: { L2: "512K" }, hypervisor: "kvm", mitigations: { spectre_v2: "Mitigation: Retpolines" } };
 * const zen2 = { ...zen, cpuModelNumber: 49, microcode: "0x830107a", mitigations: {} };
 * assertEquals(identityDifferences(zen, zen2), [
 *   "CPU model number 1 → 49",
 *   "microcode 0x8001250 → 0x830107a",
 *   "mitigation spectre_v2 Mitigation: Retpolines → Not affected",
 * ]);
 * ```
 */
export function identityDifferences(a: MachineIdentity, b: MachineIdentity): string[] {
  const out: string[] = [];
  const fields: [string, unknown, unknown][] = [
    ["CPU vendor", a.cpuVendor, b.cpuVendor],
    ["CPU family", a.cpuFamily, b.cpuFamily],
    ["CPU model number", a.cpuModelNumber, b.cpuModelNumber],
    ["CPU stepping", a.cpuStepping, b.cpuStepping],
    ["microcode", a.microcode, b.microcode],
    ["hypervisor", a.hypervisor, b.hypervisor],
  ];
  for (const [what, x, y] of fields) if (x !== y) out.push(`${what} ${show(x)} → ${show(y)}`);
  for (const level of [...new Set([...Object.keys(a.caches), ...Object.keys(b.caches)])].sort()) {
    if (a.caches[level] !== b.caches[level]) {
      out.push(`${level} cache ${show(a.caches[level])} → ${show(b.caches[level])}`);
    }
  }
  for (const name of [...new Set([...Object.keys(a.mitigations), ...Object.keys(b.mitigations)])].sort()) {
    const [x, y] = [a.mitigations[name] ?? "Not affected", b.mitigations[name] ?? "Not affected"];
    if (x !== y) out.push(`mitigation ${name} ${x} → ${y}`);
  }
  return out;
}

/**
 * Whether two results' figures may be compared, and why not; `note` says how they were matched when it was not
 * by identity (older files).
 *
 * @example
 * ```ts
 * import type { MachineMatch } from "./machine.ts";
 * const match: MachineMatch = { comparable: false, why: "another machine: CPU model number 1 → 49", note: null };
 * ```
 */
export interface MachineMatch {
  /** Whether their figures may be compared. */
  readonly comparable: boolean;
  /** Why not, when not: one line naming what differs. */
  readonly why: string | null;
  /** A remark on a comparable pair (matched by CPU model name only; calibrations not comparable). */
  readonly note: string | null;
}

function legacyDifferences(a: Environment, b: Environment): string[] {
  const fields: [string, unknown, unknown][] = [
    ["CPU", a.cpuModel, b.cpuModel],
    ["logical CPUs", a.logicalCores, b.logicalCores],
    ["OS", a.os, b.os],
    ["architecture", a.arch, b.arch],
  ];
  return fields.filter(([, x, y]) => x !== y).map(([what, x, y]) => `${what} ${show(x)} → ${show(y)}`);
}

/** The machines of a multi-host result by role and name, with their identities. */
function hostIdentities(r: BenchResult): Map<string, MachineIdentity | undefined> {
  return new Map((r.topology?.hosts ?? []).map((h) => [`${h.role} host ${h.host}`, h.machine]));
}

function hostDifferences(a: BenchResult, b: BenchResult): string[] {
  const [x, y] = [hostIdentities(a), hostIdentities(b)];
  const out: string[] = [];
  for (const key of [...new Set([...x.keys(), ...y.keys()])]) {
    if (!x.has(key) || !y.has(key)) out.push(`${key} ${x.has(key) ? "only in the first" : "only in the second"}`);
    else if (x.get(key) && y.get(key)) {
      out.push(...identityDifferences(x.get(key)!, y.get(key)!).map((d) => `${key}: ${d}`));
    }
  }
  return out;
}

/** Compares the calibrations of one identity: beyond their noise is not comparable; unlike ones leave a note. */
function calibrationMatch(
  a: MachineCalibration | null | undefined,
  b: MachineCalibration | null | undefined,
): MachineMatch {
  if (!a || !b) return { comparable: true, why: null, note: "calibration missing from one result: not checked" };
  if (a.work !== b.work || a.runtime !== b.runtime) {
    return {
      comparable: true,
      why: null,
      note: `calibrations not comparable (${a.work} on ${a.runtime} → ${b.work} on ${b.runtime}): not checked`,
    };
  }
  const why = calibrationDifference(a, b);
  return why ? { comparable: false, why: `the machine ran at another speed: ${why}`, note: null } : {
    comparable: true,
    why: null,
    note: null,
  };
}

/**
 * Whether the figures of `a` and `b` may be compared: same machine identity (and the same machines of a
 * multi-host suite) and calibrations within their noise; for two files older than the identity, the same CPU
 * model, logical CPUs and OS, with a note.
 *
 * @param a The earlier (or base) result.
 * @param b The later (or head) result.
 * @returns Whether they may be compared, why not, and any remark.
 *
 * @example The stored pair predates machine identity
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { machineMatch } from "./machine.ts";
 * import { readResultFile } from "../schema/read.ts";
 * const [base, head] = await Promise.all(["base", "head"].map((f) => readResultFile(`fixtures/results/${f}.json`)));
 * assertEquals(machineMatch(base, head).comparable, true);
 * ```
 */
export function machineMatch(a: BenchResult, b: BenchResult): MachineMatch {
  const [x, y] = [a.environment, b.environment];
  const legacy = legacyDifferences(x, y);
  if (!x.machine && !y.machine) {
    return legacy.length > 0 ? { comparable: false, why: `another machine: ${legacy.join(", ")}`, note: null } : {
      comparable: true,
      why: null,
      note: "neither result records its machine's identity (written by an older rtbench): matched by CPU model, " +
        "logical CPUs and OS only, which a hypervisor can make read alike on different hosts",
    };
  }
  if (!x.machine || !y.machine) {
    const older = x.machine ? "the second" : "the first";
    return {
      comparable: false,
      why: `${older} result does not record its machine's identity (written by an older rtbench): whether both ` +
        "ran on one machine cannot be told",
      note: null,
    };
  }
  const differences = [...legacy, ...identityDifferences(x.machine, y.machine), ...hostDifferences(a, b)];
  if (differences.length > 0) {
    return { comparable: false, why: `another machine: ${differences.join(", ")}`, note: null };
  }
  return calibrationMatch(x.calibration, y.calibration);
}
