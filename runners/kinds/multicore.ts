/**
 * `--server-cpus`: what a run of a server in its runtime's multi-core form
 * adds to its record. The form and worker count as facts; checks that the
 * server's process tree held the expected processes and that the server
 * reported the expected workers; figures per server core and per core the
 * server actually used, with its CPU time per request (so that a runtime that
 * won by using more CPU shows it); and a warning when the load generator
 * shares the server's CPUs.
 *
 * @module
 */

import type { ResourceReport } from "../drivers/mod.ts";
import { cpusShared } from "../platform/mod.ts";
import type { Check, CpuSets } from "../schema/mod.ts";
import { keepChecks } from "./errors.ts";
import type { RunOutput } from "./kind.ts";
import type { RecordOutcome } from "./record.ts";
import type { RunningServer } from "./server.ts";

/** The figures that get a per-core twin when the server runs on more than one CPU. */
const PER_CORE = ["requestsPerSecond", "messagesPerSecond"];

/** Each per-core figure's unit of work, for its CPU time per unit (`serverCpuUsPerRequest`). */
const UNIT: Readonly<Record<string, string>> = { requestsPerSecond: "Request", messagesPerSecond: "Message" };

/**
 * The CPU the server's process tree used over the measured window, in cores (1 = one core busy the whole window),
 * or null when it was not measured: from the window's exact CPU time per request where the run has it (the kernel's
 * counters, see `cpu_rate.ts`), else from the resource sampler's readings (every 250 ms, the window's mean); this is
 * the one place that reads it.
 *
 * @example Two cores' worth of CPU
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { serverCoresUsed } from "./multicore.ts";
 *
 * const role = { cpuPercent: { mean: 200, peak: 210 } } as never;
 * assertEquals(serverCoresUsed({ summary: { server: role } } as never), 2);
 * // Counted exactly: 100 µs of CPU per request at 20,000 requests/s is two cores.
 * assertEquals(serverCoresUsed(undefined, { requestsPerSecond: 20_000, serverCpuUsPerRequest: 100 }), 2);
 * ```
 */
export function serverCoresUsed(
  resources: ResourceReport | undefined,
  figures: Readonly<Record<string, number>> = {},
): number | null {
  for (const name of PER_CORE) {
    const perUnit = figures[`serverCpuUsPer${UNIT[name]}`];
    if (figures[name] > 0 && perUnit > 0) return perUnit * figures[name] / 1e6;
  }
  const server = resources?.summary.server;
  return server ? server.cpuPercent.mean / 100 : null;
}

/**
 * Figures of the CPU a multi-core server used: `serverCoresUsed`, and for each per-core figure its rate per used
 * core (`requestsPerSecondPerUsedCore`) and the CPU time per unit of work (`serverCpuUsPerRequest`, microseconds).
 * Nothing when the CPU was not measured or was too little to divide by.
 *
 * @example 30,000 requests/s on 1.5 cores: 20,000/s per used core, 50 µs of CPU each
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { usedCoreFigures } from "./multicore.ts";
 *
 * assertEquals(usedCoreFigures({ requestsPerSecond: 30_000 }, 1.5), {
 *   serverCoresUsed: 1.5,
 *   requestsPerSecondPerUsedCore: 20_000,
 *   serverCpuUsPerRequest: 50,
 * });
 * ```
 */
export function usedCoreFigures(
  figures: Readonly<Record<string, number>>,
  cores: number | null,
): Record<string, number> {
  if (cores === null || !(cores >= 0.01)) return {};
  const out: Record<string, number> = { serverCoresUsed: Math.round(cores * 100) / 100 };
  for (const name of PER_CORE) {
    const rate = figures[name];
    if (!(rate > 0)) continue;
    out[`${name}PerUsedCore`] = Math.round(rate / cores);
    out[`serverCpuUsPer${UNIT[name]}`] = Math.round((cores * 1e6 / rate) * 100) / 100;
  }
  return out;
}

/** What the run shows of the server's workers: processes in its tree, and the count it announced. */
function treeChecks(server: RunningServer, resources: ResourceReport | undefined): Check[] {
  const { form, workers } = server.parallel!;
  const checks: Check[] = [];
  const counts = resources?.series.server?.processes ?? [];
  if (counts.length > 0) {
    checks.push({
      name: `server process tree (${form.form})`,
      passed: Math.max(...counts) === form.processes,
      expected: form.processes,
      actual: Math.max(...counts),
    });
  }
  if (form.announces) {
    const line = form.announces.exec(`${server.group.stdout()}\n${server.group.stderr()}`);
    const announced = line ? Number(line[1] ?? 1) : null;
    checks.push({
      name: `server workers (${form.form})`,
      passed: announced === workers,
      expected: workers,
      actual: announced,
    });
  }
  return checks;
}

/**
 * Adds to a finished run of a server in its multi-core form (nothing without `--server-cpus`): the form's
 * facts, its tree checks (a failed one makes the record invalid), per-core figures, and `cpus-shared`.
 */
export function multiCoreRun(
  outcome: RecordOutcome,
  server: RunningServer,
  resources: ResourceReport | undefined,
  cpus: CpuSets,
  output: RunOutput,
): RunOutput {
  if (!server.parallel || output.invalid) return output;
  const { form, workers } = server.parallel;
  outcome.facts.serverForm = form.form;
  outcome.facts.serverWorkers = workers;
  if (cpusShared(cpus) && !outcome.warnings.some((w) => w.code === "cpus-shared")) {
    outcome.warnings.push({
      code: "cpus-shared",
      message: `the load generator ran on the server's CPUs (server ${cpus.server}, client ${cpus.client}): ` +
        "the figures measure both sides competing for the same cores",
    });
  }
  keepChecks(outcome, treeChecks(server, resources), output.run.index === 0, "measure");
  const cores = serverCoresUsed(resources, output.run.figures);
  const figures = { ...output.run.figures, ...usedCoreFigures(output.run.figures, cores) };
  if (workers >= 2) {
    for (const name of PER_CORE) {
      if (name in figures) figures[`${name}PerCore`] = Math.round(figures[name] / workers);
    }
  }
  return { ...output, run: { ...output.run, figures } };
}
