// The machine, the suite's settings and the runtimes of a result, as the
// reports show them: one line for a heading or footer, and label/value pairs
// for environment tables.

import type { BenchResult, Environment } from "../schema/result.ts";

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
