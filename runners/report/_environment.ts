// The machine, the suite's settings and the runtimes of a result, as the
// reports show them: one line for a heading or footer, and label/value pairs
// for environment tables.

import type { BenchResult, Environment, Topology, VariableFate, VersionSelection } from "../schema/mod.ts";
import { releaseText } from "./_groups.ts";

function bytes(n: number | null): string {
  return n === null ? "unknown" : `${(n / 1024 ** 3).toFixed(1)} GiB`;
}

/**
 * The machine in one line: CPU, logical CPUs, OS.
 *
 * @example
 * ```ts
 * import { machineText } from "./_environment.ts";
 * import { readResultFile } from "../schema/read.ts";
 * const result = await readResultFile("fixtures/results/base.json");
 * console.log(machineText(result.environment).includes("logical CPUs")); // true
 * ```
 */
export function machineText(env: Environment): string {
  return `${env.cpuModel ?? env.arch} · ${env.logicalCores} logical CPUs · ${env.osName ?? env.os}`;
}

const ROLE_NAMES = { server: "servers", client: "load", db: "database" } as const;

/**
 * Where a multi-host suite ran, in one line (empty when everything ran on the harness's machine): each role's
 * machines, and the load machines' round trip to the server machine.
 *
 * @example
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { topologyText } from "./_environment.ts";
 * assertEquals(topologyText(undefined), "");
 * ```
 */
export function topologyText(topology: Topology | undefined): string {
  if (!topology || topology.hosts.length === 0) return "";
  const roles = (["server", "client", "db"] as const).flatMap((role) => {
    const hosts = topology.hosts.filter((h) => h.role === role);
    return hosts.length > 0
      ? [`${ROLE_NAMES[role]} on ${hosts.map((h) => `${h.host} (${h.logicalCores ?? "?"} CPUs)`).join(", ")}`]
      : [];
  });
  const rtt = topology.roundTrips.map((r) =>
    `${r.client} → ${r.server} round trip ${(r.medianUs / 1000).toFixed(2)} ms`
  );
  return `hosts: ${[...roles, ...rtt].join(" · ")}`;
}

/**
 * The machine and suite settings as label/value pairs, for environment tables.
 *
 * @example
 * ```ts
 * import { environmentRows } from "./_environment.ts";
 * import { readResultFile } from "../schema/read.ts";
 * const rows = environmentRows(await readResultFile("fixtures/results/base.json"));
 * console.log(rows[0][0]); // "rtbench"
 * ```
 */
export function environmentRows(result: BenchResult): [string, string][] {
  const env = result.environment;
  const s = result.settings;
  const overrides = Object.entries(s.overrides).map(([k, v]) => `${k}=${v}`).join(", ");
  return [
    ["rtbench", `${result.suite.version} (result schema ${result.schemaVersion})`],
    ["started", result.startedAt],
    ["finished", result.finishedAt ?? "unfinished (interrupted or still running)"],
    ["profile", s.profile + (overrides ? ` with ${overrides}` : "")],
    ["workloads", s.workloads.join(", ")],
    ["runtimes", s.runtimes.join(", ")],
    ["load generator", s.loadGenerator],
    ["OS", `${env.osName ?? env.os} (${env.os}, kernel ${env.kernel}, ${env.arch})`],
    ["CPU", `${env.cpuModel ?? "unknown model"}, ${env.logicalCores} logical CPUs, allowed ${env.allowedCpus ?? "?"}`],
    [
      "CPU frequency",
      `governor ${env.cpuGovernor ?? "unknown"}, turbo ${
        env.cpuTurbo === null ? "unknown" : env.cpuTurbo ? "on" : "off"
      }`,
    ],
    ["memory", bytes(env.memoryBytes)],
    ["harness", `deno ${env.harness.deno}, V8 ${env.harness.v8}, TypeScript ${env.harness.typescript}`],
    ["git commit", env.gitCommit ?? "unknown"],
    ...machineRows(env),
    ...variableRows(env),
    ...(result.topology?.hosts ?? []).map((h): [string, string] => [
      `${ROLE_NAMES[h.role]} host ${h.host}`,
      `${h.osName ?? h.os} (kernel ${h.kernel ?? "?"}, ${h.arch ?? "?"}), ${h.cpuModel ?? "unknown CPU"}, ` +
      `${h.logicalCores ?? "?"} logical CPUs, allowed ${h.allowedCpus ?? "?"}, ${bytes(h.memoryBytes)}`,
    ]),
    ...(result.topology?.roundTrips ?? []).map((r): [string, string] => [
      `round trip ${r.client} → ${r.server}`,
      `median ${r.medianUs} µs (min ${r.minUs}, max ${r.maxUs}, ${r.samples} TCP connects)`,
    ]),
  ];
}

/** The CPU as its identity names it: `GenuineIntel family 6 model 167 stepping 1, microcode 0x1`. */
function cpuIdentity(m: NonNullable<Environment["machine"]>): string {
  return `${m.cpuVendor ?? "unknown vendor"} family ${m.cpuFamily ?? "?"} model ${m.cpuModelNumber ?? "?"} ` +
    `stepping ${m.cpuStepping ?? "?"}, microcode ${m.microcode ?? "?"}`;
}

/** The calibration in a few words: `45.2 ms ±1.3% (median of 10 rounds, rtbench-calibration/1 on deno 2.9.6, CPU 0)`. */
function calibrationText(c: NonNullable<Environment["calibration"]>): string {
  return `${c.medianMs.toFixed(1)} ms ±${
    c.spreadPercent.toFixed(1)
  }% (median of ${c.roundsMs.length} rounds, ${c.work} on ${c.runtime}, ` +
    `CPU ${c.cpu ?? "not pinned"})`;
}

/**
 * The machine's identity and calibration as label/value pairs; none for a file that predates them.
 *
 * @example
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { machineRows } from "./_environment.ts";
 * import { readResultFile } from "../schema/read.ts";
 * assertEquals(machineRows((await readResultFile("fixtures/results/base.json")).environment), []);
 * ```
 */
export function machineRows(env: Environment): [string, string][] {
  const m = env.machine;
  if (!m) return [];
  const affected = Object.entries(m.mitigations).filter(([, v]) => v !== "Not affected");
  const caches = Object.entries(m.caches).map(([level, size]) => `${level} ${size}`).join(", ");
  return [
    ["machine identity", `${cpuIdentity(m)}; caches ${caches || "unknown"}; hypervisor ${m.hypervisor ?? "unknown"}`],
    [
      "CPU mitigations",
      affected.map(([k, v]) => `${k}: ${v}`).join("; ") +
      ` (${Object.keys(m.mitigations).length - affected.length} not affected)`,
    ],
    ["calibration", env.calibration ? calibrationText(env.calibration) : "not measured"],
  ];
}

/**
 * The machine's identity and calibration in one line for a terminal footer; empty for a file that predates them.
 *
 * @example
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { machineIdentityText } from "./_environment.ts";
 * assertEquals(machineIdentityText({}), "");
 * ```
 */
export function machineIdentityText(env: Pick<Environment, "machine" | "calibration">): string {
  if (!env.machine) return "";
  const calibration = env.calibration
    ? ` · calibration ${env.calibration.medianMs.toFixed(1)} ms ±${env.calibration.spreadPercent.toFixed(1)}%`
    : "";
  return `machine: ${cpuIdentity(env.machine)} · hypervisor ${env.machine.hypervisor ?? "unknown"}${calibration}`;
}

const FATE_TEXT: Record<VariableFate["fate"], string> = {
  "dropped": "dropped: no process got it",
  "installs only": "only installs and provisioning got it (to reach a registry), no runtime",
  "kept (--pass-env)": "kept for every process (--pass-env)",
};

/**
 * What the processes rtbench started got of its environment, as label/value pairs: the rule, each variable known
 * to change a runtime that was set (dropped, or kept), and how many others were dropped. None for a file written
 * before processes got a built environment.
 *
 * @example
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { variableRows } from "./_environment.ts";
 * const rows = variableRows({
 *   os: "linux", osName: null, kernel: "6.1", arch: "x86_64", cpuModel: null, logicalCores: 2, allowedCpus: "0-1",
 *   memoryBytes: null, cpuGovernor: null, cpuTurbo: null, harness: { deno: "2", v8: "13", typescript: "5" },
 *   gitCommit: null,
 *   variables: {
 *     inherited: ["PATH"], registry: ["npm_config_*"], passed: [], otherDropped: 3,
 *     known: [{ name: "NODE_OPTIONS", value: "--inspect", fate: "dropped", changes: "node: options" }],
 *   },
 * });
 * assertEquals(rows[1], ["NODE_OPTIONS=--inspect", "dropped: no process got it (node: options)"]);
 * ```
 */
export function variableRows(env: Environment): [string, string][] {
  const v = env.variables;
  if (!v) return [];
  const unset = v.passed.filter((name) => !v.known.some((k) => k.name === name));
  return [
    [
      "process environment",
      `built: ${v.inherited.join(", ")} of rtbench's environment and the variables rtbench sets; installs and ` +
      `provisioning also proxies, CA bundles and the package managers' configuration (${v.registry.length} ` +
      `names, in the result); ${v.otherDropped} other variables dropped`,
    ],
    ...v.known.map((k): [string, string] => [`${k.name}=${k.value}`, `${FATE_TEXT[k.fate]} (${k.changes})`]),
    ...unset.map((name): [string, string] => [name, "kept for every process (--pass-env) where set"]),
  ];
}

/**
 * Variables of rtbench's environment known to change a runtime, in one line for a terminal footer: which were
 * dropped and which kept; empty when there were none (or the file predates the record of it).
 *
 * @example
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { variablesText } from "./_environment.ts";
 * assertEquals(variablesText({ variables: undefined }), "");
 * ```
 */
export function variablesText(env: Pick<Environment, "variables">): string {
  const known = env.variables?.known ?? [];
  if (known.length === 0) return "";
  const of = (fate: VariableFate["fate"]) => known.filter((k) => k.fate === fate).map((k) => k.name);
  const parts = [
    of("dropped").length > 0 ? `dropped ${of("dropped").join(", ")}` : "",
    of("installs only").length > 0 ? `kept for installs only ${of("installs only").join(", ")}` : "",
    of("kept (--pass-env)").length > 0 ? `kept (--pass-env) ${of("kept (--pass-env)").join(", ")}` : "",
  ].filter(Boolean);
  return `environment: variables known to change a runtime: ${parts.join("; ")}`;
}

/** How a version was chosen, for people. */
const SELECTION_TEXT: Readonly<Record<VersionSelection, string>> = {
  "active-lts": "chosen: newest of the Active LTS line",
  "latest": "chosen: newest stable release",
  "cached": "chosen: newest cached (npm out of reach)",
  "system": "chosen: the one on this machine (@system)",
  "requested": "chosen: as requested",
};

/**
 * Runtimes of the result with version, engine, release line and support, how the version was chosen and where the
 * binary came from.
 *
 * @example
 * ```ts
 * import { runtimeRows } from "./_environment.ts";
 * import { readResultFile } from "../schema/read.ts";
 * const rows = runtimeRows(await readResultFile("fixtures/results/head.json"));
 * console.log(rows.at(-1)); // ["node@99", "not available"]
 * ```
 */
export function runtimeRows(result: BenchResult): [string, string][] {
  const seen = new Map<string, string>();
  for (const r of result.records) {
    const rt = r.runtime;
    if (seen.has(rt.requested)) continue;
    seen.set(
      rt.requested,
      rt.version
        ? `${rt.name} ${rt.version} · ${rt.engine ?? "?"} ${rt.engineVersion ?? ""}`.trim() +
          (rt.release ? ` · ${releaseText(rt.release)} (${rt.release.source}, ${rt.release.asOf})` : "") +
          (rt.selection ? ` · ${SELECTION_TEXT[rt.selection]}` : "") +
          ` · ${rt.source ?? "?"} · ${rt.binary ?? "?"}`
        : "not available",
    );
  }
  return [...seen.entries()];
}
