/**
 * The environment fingerprint recorded beside every number: machine, kernel,
 * CPU and its frequency policy, memory, harness versions and git commit, the
 * machine's identity (what tells it apart from another with the same CPU
 * model name), the calibration measured when the suite starts, and
 * what became of the variables of rtbench's own environment (which of them the
 * processes it starts get).
 *
 * @module
 */

import {
  allowedCpus,
  harnessEnv,
  isVariableName,
  parseCpuList,
  readMachineIdentity,
  readProcText,
  RequestError,
  runCommand,
  variableReport,
  which,
} from "../platform/mod.ts";
import { builtinAdapters, type RuntimeAdapter, runtimeVariables } from "../../adapters/mod.ts";
import { builtinLoadGenerators, type LoadGenerator, measureMachineSpeed } from "../drivers/mod.ts";
import type { Environment, MachineCalibration, Warning } from "../schema/mod.ts";

async function read(path: string): Promise<string | null> {
  return (await readProcText(path))?.trim() ?? null;
}

async function cpuModel(): Promise<string | null> {
  const info = await read("/proc/cpuinfo");
  return info ? /^model name\s*:\s*(.+)$/m.exec(info)?.[1]?.trim() ?? null : null;
}

async function osName(): Promise<string | null> {
  const release = await read("/etc/os-release");
  return release ? /^PRETTY_NAME="?([^"\n]+)"?/m.exec(release)?.[1] ?? null : null;
}

async function turbo(): Promise<boolean | null> {
  const noTurbo = await read("/sys/devices/system/cpu/intel_pstate/no_turbo");
  if (noTurbo !== null) return noTurbo === "0";
  const boost = await read("/sys/devices/system/cpu/cpufreq/boost");
  return boost === null ? null : boost === "1";
}

async function gitCommit(): Promise<string | null> {
  const here = new URL("..", import.meta.url);
  if (here.protocol !== "file:" || !which("git")) return null;
  const out = await runCommand(["git", "-C", here.pathname, "rev-parse", "HEAD"], { timeoutMs: 5000 });
  return out.success && /^[0-9a-f]{7,64}$/.test(out.stdout.trim()) ? out.stdout.trim() : null;
}

async function gitDirty(): Promise<boolean | null> {
  const here = new URL("..", import.meta.url);
  if (here.protocol !== "file:" || !which("git")) return null;
  const out = await runCommand(["git", "-C", here.pathname, "status", "--porcelain"], { timeoutMs: 5000 });
  return out.success ? out.stdout.trim() !== "" : null;
}

function loadAverage(): number[] | null {
  try {
    return Deno.loadavg().map((n) => Math.round(n * 100) / 100);
  } catch {
    return null;
  }
}

async function generatorVersions(generators: readonly LoadGenerator[]): Promise<Record<string, string | null>> {
  const versions: Record<string, string | null> = {};
  for (const g of generators) versions[g.name] = (await g.available()) ? await g.version() : null;
  return versions;
}

/**
 * Reads the environment of this machine. What became of the variables known to change a runtime is told for the
 * variables of `adapters` (each adapter's own, and the C library's).
 *
 * @example
 * ```ts ignore
 * import { fingerprint } from "./environment.ts";
 * const env = await fingerprint();
 * console.log(env.cpuModel, env.logicalCores);
 * ```
 */
export async function fingerprint(
  options: {
    loadGenerators?: readonly LoadGenerator[];
    passEnv?: readonly string[];
    adapters?: readonly RuntimeAdapter[];
  } = {},
): Promise<Environment> {
  let memoryBytes: number | null = null;
  try {
    memoryBytes = Deno.systemMemoryInfo().total;
  } catch {
    // not readable on this platform
  }
  return {
    os: Deno.build.os,
    osName: await osName(),
    kernel: Deno.osRelease(),
    arch: Deno.build.arch,
    cpuModel: await cpuModel(),
    logicalCores: navigator.hardwareConcurrency,
    allowedCpus: await allowedCpus(),
    memoryBytes,
    cpuGovernor: await read("/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor"),
    cpuTurbo: await turbo(),
    harness: { deno: Deno.version.deno, v8: Deno.version.v8, typescript: Deno.version.typescript },
    gitCommit: await gitCommit(),
    gitDirty: await gitDirty(),
    loadAverage: loadAverage(),
    loadGenerators: await generatorVersions(options.loadGenerators ?? builtinLoadGenerators),
    variables: variableReport(
      harnessEnv(),
      options.passEnv ?? [],
      runtimeVariables(options.adapters ?? builtinAdapters),
    ),
    machine: await readMachineIdentity(),
  };
}

/**
 * The machine calibration of a suite (see `drivers/calibration.ts`), on the first server CPU; null, with a
 * warning for the result, when it cannot be measured.
 *
 * @example
 * ```ts ignore
 * import { calibration } from "./environment.ts";
 * const warnings = [];
 * console.log(await calibration("0", warnings));
 * ```
 */
export async function calibration(
  serverCpus: string | null,
  warnings: Warning[],
  signal?: AbortSignal,
): Promise<MachineCalibration | null> {
  try {
    return await measureMachineSpeed(serverCpus, signal);
  } catch (error) {
    signal?.throwIfAborted();
    warnings.push({
      code: "no-calibration",
      message: `the machine calibration failed (${(error as Error).message.slice(0, 200)}): ` +
        "comparisons with this result check the machine's identity only",
    });
    return null;
  }
}

/**
 * Checks the names of `--pass-env`: each must be an environment variable's name.
 *
 * @param names The names asked for.
 * @returns The same names, without repeats.
 * @throws {RequestError} Naming the field `passEnv` (the command line: `--pass-env`) and the first bad name.
 *
 * @example
 * ```ts
 * import { assertEquals, assertThrows } from "@std/assert";
 * import { checkPassEnv } from "./environment.ts";
 * assertEquals(checkPassEnv(["NODE_OPTIONS", "NODE_OPTIONS"]), ["NODE_OPTIONS"]);
 * assertThrows(() => checkPassEnv(["NODE-OPTIONS"]), TypeError, "passEnv");
 * ```
 */
export function checkPassEnv(names: readonly string[]): string[] {
  const bad = names.find((n) => !isVariableName(n));
  if (bad !== undefined) {
    throw new RequestError(
      "passEnv",
      `: ${JSON.stringify(bad)} is not an environment variable name (letters, digits, _)`,
    );
  }
  return [...new Set(names)];
}

/** Warnings about an environment that make numbers less trustworthy. */
export function environmentWarnings(env: Environment): Warning[] {
  const warnings: Warning[] = [];
  if (env.cpuGovernor !== null && env.cpuGovernor !== "performance") {
    warnings.push({
      code: "cpu-governor",
      message: `CPU governor is "${env.cpuGovernor}", not "performance": frequency scaling adds noise`,
    });
  }
  if (env.cpuTurbo === true) {
    warnings.push({
      code: "cpu-turbo",
      message: "CPU turbo/boost is on: clock speed follows temperature and load, so runs vary more",
    });
  }
  const cpus = env.allowedCpus ? parseCpuList(env.allowedCpus).length : env.logicalCores;
  const busy = env.loadAverage?.[0];
  if (busy !== undefined && busy >= cpus * 0.5) {
    warnings.push({
      code: "busy-machine",
      message: `load average ${busy} on ${cpus} CPUs when the suite started: other work competes with the measurement`,
    });
  }
  return warnings;
}
