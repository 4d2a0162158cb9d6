/**
 * `--server-cpus`: what a run of a server in its runtime's multi-core form
 * adds to its record. The form and worker count as facts; checks that the
 * server's process tree held the expected processes and that the server
 * reported the expected workers; figures per server core; and a warning when
 * the load generator shares the server's CPUs.
 *
 * @module
 */

import type { ResourceReport } from "../drivers/resources.ts";
import { parseCpuList } from "../platform/cpus.ts";
import type { Check, CpuSets } from "../schema/result.ts";
import { keepChecks } from "./errors.ts";
import type { RunOutput } from "./kind.ts";
import type { RecordOutcome } from "./record.ts";
import type { RunningServer } from "./server.ts";

/** The figures that get a per-core twin when the server runs on more than one CPU. */
const PER_CORE = ["requestsPerSecond", "messagesPerSecond"];

/** Whether the client's CPUs overlap the server's. */
function sharing(cpus: CpuSets): boolean {
  if (!cpus.server || !cpus.client) return false;
  const server = new Set(parseCpuList(cpus.server));
  return parseCpuList(cpus.client).some((cpu) => server.has(cpu));
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
  if (sharing(cpus) && !outcome.warnings.some((w) => w.code === "cpus-shared")) {
    outcome.warnings.push({
      code: "cpus-shared",
      message: `the load generator ran on the server's CPUs (server ${cpus.server}, client ${cpus.client}): ` +
        "the figures measure both sides competing for the same cores",
    });
  }
  keepChecks(outcome, treeChecks(server, resources), output.run.index === 0, "measure");
  if (workers < 2) return output;
  const figures = { ...output.run.figures };
  for (const name of PER_CORE) {
    if (name in figures) figures[`${name}PerCore`] = Math.round(figures[name] / workers);
  }
  return { ...output, run: { ...output.run, figures } };
}
