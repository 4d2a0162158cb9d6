/**
 * Whether a number measures the load generator rather than the server: the
 * generator at its allotted CPU while the server is below its own.
 *
 * A process tree is "at its limit" when its demand over the window reaches 90%
 * of the CPUs it is pinned to, or when its most demanding thread reaches 90%
 * of one CPU (a single-threaded event loop, such as autocannon's or Node's,
 * saturates there however many CPUs it may use). Demand is time on a CPU plus
 * time runnable but waiting for one (Linux `schedstat`): on a shared machine,
 * a saturated process that others keep off the CPU still wants all of it,
 * while an idle one waits for the network, not for a CPU. Where the kernel
 * keeps no `schedstat`, CPU time stands in for demand.
 *
 * @module
 */

import { parseCpuList } from "../base/mod.ts";
import type { CpuSets, ResourceSummary, RoleSummary, Warning } from "../schema/mod.ts";

/** Share of its limit at which a process tree counts as saturated. */
export const AT_LIMIT = 0.9;

/** How busy server and client were over one run, as shares of their limits. */
export interface Saturation {
  /** Client: the larger of CPU / allotted CPUs and busiest thread / one CPU. */
  readonly client: number;
  /** Server: the same. */
  readonly server: number;
  /** Whether the client was at its limit while the server was not. */
  readonly clientBound: boolean;
}

/** CPUs in a pinned set, or every logical CPU when not pinned. */
export function cpuCount(list: string | null): number {
  return list ? parseCpuList(list).length : navigator.hardwareConcurrency;
}

function share(role: RoleSummary, cpus: number): number {
  const tree = role.demandPercent ?? role.cpuPercent;
  const thread = role.busiestThreadDemandPercent ?? role.busiestThreadPercent;
  return Math.max(tree.mean / (100 * cpus), thread.mean / 100);
}

/**
 * Judges one run from its resource summary; null when either tree was not sampled.
 *
 * @example
 * ```ts
 * import { saturation } from "./saturation.ts";
 * const busy = (cpu: number) => ({
 *   cpuPercent: { mean: cpu, peak: cpu }, busiestThreadPercent: { mean: cpu, peak: cpu },
 *   demandPercent: null, busiestThreadDemandPercent: null,
 *   rssBytes: { mean: 0, peak: 0 }, threads: { mean: 1, peak: 1 }, openFiles: { mean: 3, peak: 3 },
 * });
 * const summary = { intervalMs: 250, samples: 12, server: busy(60), client: busy(99), samplerCpuPercent: 1, harnessCpuPercent: 1 };
 * console.log(saturation(summary, { server: "0", client: "1" })?.clientBound); // true
 * ```
 */
export function saturation(summary: ResourceSummary, cpus: CpuSets): Saturation | null {
  if (!summary.server || !summary.client) return null;
  const client = share(summary.client, cpuCount(cpus.client));
  const server = share(summary.server, cpuCount(cpus.server));
  return { client, server, clientBound: client >= AT_LIMIT && server < AT_LIMIT };
}

/** Warnings that say a record's figure is a bound: the load generator was at its limit, so the server may do better. */
export const SATURATION_WARNINGS: readonly string[] = ["client-bound", "client-saturated"];

/**
 * The `client-saturated` warning for a record when at least half of its judged runs had the client at its limit,
 * whatever the server did: both sides saturated means the figure is a lower bound for the server (it might go
 * faster with a faster client), which `client-bound` alone does not say.
 *
 * @example The README's headline case: wrk at 98% of its core, the server at 99% of its own
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { clientSaturatedWarning } from "./saturation.ts";
 *
 * const w = clientSaturatedWarning([{ client: 0.98, server: 0.99, clientBound: false }], "wrk", { server: "0", client: "1" });
 * assertEquals(w?.code, "client-saturated");
 * ```
 */
export function clientSaturatedWarning(
  runs: readonly (Saturation | null)[],
  generator: string,
  cpus: CpuSets,
): Warning | null {
  const judged = runs.filter((r): r is Saturation => r !== null);
  const at = judged.filter((r) => r.client >= AT_LIMIT);
  if (judged.length === 0 || at.length * 2 < judged.length) return null;
  const c = cpuCount(cpus.client);
  const median = at.map((r) => r.client).sort((a, b) => a - b)[Math.floor((at.length - 1) / 2)];
  return {
    code: "client-saturated",
    message: `${generator} was at ${Math.round(median * 100)}% of its limit (${c} CPU${c === 1 ? "" : "s"}) in ` +
      `${at.length} of ${judged.length} runs: the figure is a bound for the server, which a faster client might ` +
      "push further (reports mark its ratios ≥ or ≤)",
  };
}

/** What a `client-bound` warning advises when the client is the load generator a user picks. */
export const FASTER_GENERATOR = "use a faster --load-generator, see deno task calibrate";

/**
 * The `client-bound` warning for a record when at least half of its judged
 * runs were client-bound, or null; `remedy` says what to do about it.
 */
export function clientBoundWarning(
  runs: readonly (Saturation | null)[],
  generator: string,
  cpus: CpuSets,
  remedy: string = FASTER_GENERATOR,
): Warning | null {
  const judged = runs.filter((r): r is Saturation => r !== null);
  const bound = judged.filter((r) => r.clientBound);
  if (judged.length === 0 || bound.length * 2 < judged.length) return null;
  const pct = (n: number) => `${Math.round(n * 100)}%`;
  const median = (values: number[]) => values.sort((a, b) => a - b)[Math.floor((values.length - 1) / 2)];
  const c = cpuCount(cpus.client);
  const s = cpuCount(cpus.server);
  return {
    code: "client-bound",
    message:
      `${generator} was at ${pct(median(bound.map((r) => r.client)))} of its limit (${c} CPU${
        c === 1 ? "" : "s"
      }) while the server was at ${pct(median(bound.map((r) => r.server)))} of its own (${s} CPU${
        s === 1 ? "" : "s"
      }) in ${bound.length} of ${judged.length} runs: the figure measures the load generator, not the server ` +
      `(${remedy})`,
  };
}

/**
 * A record's saturation warnings judged over its runs so far, the same for every kind: its warnings without any
 * earlier verdict, then `client-bound` and `client-saturated` where at least half of the judged runs call for them.
 *
 * @example Two runs, the client at its limit in both, the server in neither
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { judgeSaturation } from "./saturation.ts";
 *
 * const run = { client: 0.97, server: 0.6, clientBound: true };
 * const warnings = judgeSaturation([], [run, run], "rtbench", { server: "0", client: "1" });
 * assertEquals(warnings.map((w) => w.code), ["client-bound", "client-saturated"]);
 * ```
 */
export function judgeSaturation(
  warnings: readonly Warning[],
  runs: readonly (Saturation | null)[],
  generator: string,
  cpus: CpuSets,
  remedy: string = FASTER_GENERATOR,
): Warning[] {
  const kept = warnings.filter((w) => !SATURATION_WARNINGS.includes(w.code));
  for (
    const warning of [clientBoundWarning(runs, generator, cpus, remedy), clientSaturatedWarning(runs, generator, cpus)]
  ) {
    if (warning) kept.push(warning);
  }
  return kept;
}
