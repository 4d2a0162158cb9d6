// The machine, the suite's settings and the runtimes of a result, as the
// reports show them: one line for a heading or footer, and label/value pairs
// for environment tables.

import type { BenchResult, Environment, Topology } from "../schema/result.ts";

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

/**
 * Runtimes of the result with version, engine and where the binary came from.
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
          ` · ${rt.source ?? "?"} · ${rt.binary ?? "?"}`
        : "not available",
    );
  }
  return [...seen.entries()];
}
