/**
 * What every layer shares and that needs nothing of the machine: the errors that mean "the user asked for something
 * that cannot be" (the CLI prints their message on one line and exits 2), the CPU list notation, and the plain shapes
 * the platform reads from the machine and the result schema records (a machine's identity, what became of
 * rtbench's environment). It imports nothing, so the result schema and the reports load it without the platform
 * (`runners/platform/`, which re-exports it).
 *
 * @module
 */

/**
 * Bad input: an unknown flag or workload, a value out of range, an unreadable
 * file. The message names the flag or file and what is allowed.
 *
 * @example Reject a bad flag value
 * ```ts
 * import { UsageError } from "./mod.ts";
 * const error = new UsageError("--connections must be a whole number ≥ 1, got 0");
 * console.log(error instanceof TypeError); // true
 * ```
 */
export class UsageError extends TypeError {
  /**
   * Creates the error; `message` names the flag or file and the allowed values.
   *
   * @param message Names the flag or file and what is allowed.
   * @param options The error's cause, when there is one.
   */
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = "UsageError";
  }
}

/**
 * Bad input to the library, naming the field of the request it is about
 * (`settings.durationSec`, `runtimes`, `hosts.server`) rather than a flag:
 * the command line renders the same error with its flags' names
 * ({@linkcode RequestError.describe}).
 *
 * @example The same error, for a library user and for the command line
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { RequestError } from "./mod.ts";
 *
 * const error = new RequestError("settings.maxRuns", "must be ≥ {settings.minRuns} (5), got 3");
 * assertEquals(error.message, "settings.maxRuns must be ≥ settings.minRuns (5), got 3");
 * const flags: Record<string, string> = { "settings.maxRuns": "--max-runs", "settings.minRuns": "--min-runs" };
 * assertEquals(error.describe((field) => flags[field]), "--max-runs must be ≥ --min-runs (5), got 3");
 * ```
 */
export class RequestError extends UsageError {
  /** The field the error is about, as a path into the request (`settings.durationSec`). */
  readonly field: string;
  /** What is wrong, after the field's name; `{field}` stands for another field's name. */
  readonly problem: string;

  /**
   * Creates the error.
   *
   * @param field The field it is about (`settings.durationSec`, `options.bcrypt-cost`, `hosts.server`).
   * @param problem What is wrong, read after the field's name (`must be a number > 0, got -1`, or `: why`);
   *   `{other.field}` names another field.
   * @param options The error's cause, when there is one.
   */
  constructor(field: string, problem: string, options?: ErrorOptions) {
    super(describeProblem(field, problem, (f) => f), options);
    this.name = "RequestError";
    this.field = field;
    this.problem = problem;
  }

  /**
   * The message with every field named by `name` (the command line passes its flags' names).
   *
   * @param name A field's name for the reader; unknown fields may be returned as they are.
   * @returns One line: the field's name, then the problem.
   *
   * @example Name a field by its flag
   * ```ts
   * import { assertEquals } from "@std/assert";
   * import { RequestError } from "./mod.ts";
   *
   * const error = new RequestError("settings.runs", "must be a whole number ≥ 1, got 0");
   * assertEquals(error.describe((f) => (f === "settings.runs" ? "--runs" : f)), "--runs must be a whole number ≥ 1, got 0");
   * ```
   */
  describe(name: (field: string) => string): string {
    return describeProblem(this.field, this.problem, name);
  }
}

function describeProblem(field: string, problem: string, name: (field: string) => string): string {
  const text = problem.replace(/\{([\w.-]+)\}/g, (_, f: string) => name(f)).trimStart();
  return `${name(field)}${/^[:,]/.test(text) ? "" : " "}${text}`;
}

/**
 * Expands a Linux CPU list such as `0-2,4` into `[0, 1, 2, 4]`.
 *
 * @param list A CPU list, as `taskset` and `/proc/self/status` write it.
 * @returns The CPUs, in the list's order.
 *
 * @example
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { parseCpuList } from "./mod.ts";
 * assertEquals(parseCpuList("0-2,4"), [0, 1, 2, 4]);
 * ```
 */
export function parseCpuList(list: string): number[] {
  const cpus: number[] = [];
  for (const part of list.trim().split(",").filter(Boolean)) {
    const [a, b] = part.split("-").map(Number);
    if (!Number.isInteger(a) || (b !== undefined && !Number.isInteger(b))) {
      throw new RangeError(`Cannot parse CPU list "${list}"`);
    }
    for (let c = a; c <= (b ?? a); c++) cpus.push(c);
  }
  return cpus;
}

/** Which CPUs the code under test and the load generator run on; null where not pinned. */
export interface CpuSplit {
  /** CPU list for the server (the code under test), or null. */
  readonly server: string | null;
  /** CPU list for the load generator, or null. */
  readonly client: string | null;
}

/**
 * Whether the load generator's CPUs overlap the server's (`--server-cpus` leaving it none of its own); false where
 * either is not pinned.
 *
 * @example
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { cpusShared } from "./mod.ts";
 *
 * assertEquals([cpusShared({ server: "0,1", client: "0,1" }), cpusShared({ server: "0", client: "1" })], [true, false]);
 * ```
 */
export function cpusShared(cpus: CpuSplit): boolean {
  if (!cpus.server || !cpus.client) return false;
  const server = new Set(parseCpuList(cpus.server));
  return parseCpuList(cpus.client).some((cpu) => server.has(cpu));
}

/**
 * A machine's identity: the fields that differ between two hosts whose CPU model name reads the same.
 *
 * @example A Zen 1 EPYC under KVM
 * ```ts
 * import type { MachineIdentity } from "./mod.ts";
 * const zen1: MachineIdentity = {
 *   cpuVendor: "AuthenticAMD", cpuFamily: 23, cpuModelNumber: 1, cpuStepping: 2, microcode: "0x8001250",
 *   caches: { L1d: "32K", L1i: "64K", L2: "512K", L3: "8192K" }, hypervisor: "kvm",
 *   mitigations: { spectre_v2: "Mitigation: Retpolines" },
 * };
 * ```
 */
export interface MachineIdentity {
  /** `vendor_id` of /proc/cpuinfo (`GenuineIntel`, `AuthenticAMD`); null where not reported (ARM). */
  readonly cpuVendor: string | null;
  /**
   * `cpu family`.
   *
   * @asType integer
   * @nullable
   */
  readonly cpuFamily: number | null;
  /**
   * `model`: the CPU's model number, which a masked model name does not hide.
   *
   * @asType integer
   * @nullable
   */
  readonly cpuModelNumber: number | null;
  /**
   * `stepping`.
   *
   * @asType integer
   * @nullable
   */
  readonly cpuStepping: number | null;
  /** `microcode` revision. */
  readonly microcode: string | null;
  /** Cache sizes of the first CPU by level and type (`L1d`, `L1i`, `L2`, `L3`), as sysfs gives them (`512K`). */
  readonly caches: Readonly<Record<string, string>>;
  /** The hypervisor (`kvm`, `microsoft`, `xen`), `none` on bare metal, `yes` when one runs but is not named; null unknown. */
  readonly hypervisor: string | null;
  /** Each CPU vulnerability the kernel knows and its status (`Mitigation: Retpolines`, `Not affected`). */
  readonly mitigations: Readonly<Record<string, string>>;
}

/**
 * What became of one variable of rtbench's environment that is known to change a runtime.
 *
 * @example A CA bundle given to installs only
 * ```ts
 * import type { VariableFate } from "./mod.ts";
 * const fate: VariableFate = { name: "NODE_EXTRA_CA_CERTS", value: "/etc/ca.pem", fate: "installs only", changes: "node, deno: a CA bundle" };
 * ```
 */
export interface VariableFate {
  /**
   * Its name.
   *
   * @pattern ^[A-Za-z_][A-Za-z0-9_]*$
   */
  readonly name: string;
  /** Its value (secrets masked). */
  readonly value: string;
  /**
   * `dropped`: no process got it; `installs only`: installs and provisioning got it (to reach a registry), no
   * runtime did; `kept (--pass-env)`: every process got it, because the user asked.
   */
  readonly fate: "dropped" | "installs only" | "kept (--pass-env)";
  /** What it changes and how, from its entry in the list of variables known to change a runtime. */
  readonly changes: string;
}

/**
 * The name of an environment variable.
 *
 * @example A variable that changes Node.js
 * ```ts
 * import type { VariableName } from "./mod.ts";
 * const name: VariableName = "NODE_OPTIONS";
 * ```
 *
 * @pattern ^[A-Za-z_][A-Za-z0-9_]*$
 */
export type VariableName = string;

/**
 * The name of an environment variable, or every name with a prefix: the prefix then `*` (`LC_*`).
 *
 * @example The locale's variables
 * ```ts
 * import type { VariableNames } from "./mod.ts";
 * const names: VariableNames[] = ["LANG", "LC_*"];
 * ```
 *
 * @pattern ^[A-Za-z_][A-Za-z0-9_]*\*?$
 */
export type VariableNames = string;

/**
 * What rtbench does with its own environment: the names every process and every install may take, the
 * variables kept on request, and the fate of each variable known to change a runtime.
 *
 * @example Nothing known to change a runtime was set
 * ```ts
 * import type { VariableReport } from "./mod.ts";
 * const report: VariableReport = { inherited: ["PATH", "HOME"], registry: [], passed: [], known: [], otherDropped: 3 };
 * ```
 */
export interface VariableReport {
  /** Names every process takes from rtbench's environment where set (the platform's `INHERITED`). */
  readonly inherited: readonly VariableNames[];
  /** Names installs and provisioning also take (the platform's `REGISTRY_ACCESS`). */
  readonly registry: readonly VariableNames[];
  /** Names kept for every process with `--pass-env`. */
  readonly passed: readonly VariableName[];
  /** Every variable of rtbench's environment known to change a runtime, and what became of it. */
  readonly known: readonly VariableFate[];
  /**
   * How many other variables of rtbench's environment no runtime got.
   *
   * @minimum 0
   * @asType integer
   */
  readonly otherDropped: number;
}
