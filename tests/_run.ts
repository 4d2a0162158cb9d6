// The test tasks' runner. `deno task test` runs every test; `deno task test:unit` runs the unit tier: tests on fixed
// data, in-process, with neither network nor subprocess permission, so a test there that starts a server, a runtime or
// any other process, or touches the network, fails instead of slowing the tier down. Arguments after the task's name
// go to `deno test` (files, `--filter`, ...).
//
// Tests that need what this machine lacks are ignored (tests/_needs.ts) and append why to a log this runner names in
// RTBENCH_TEST_SKIPS; after `deno test` ends, the runner lists each skipped test and why, then exits with its code.
import { type Skip, SKIP_LOG_ENV } from "./_needs.ts";

/** Permissions of the whole suite: it starts servers, runtimes and load generators. */
export const ALL_PERMISSIONS: readonly string[] = [
  "--allow-read",
  "--allow-write",
  "--allow-net",
  "--allow-env",
  "--allow-run",
  "--allow-sys",
];

/** Permissions of the unit tier: no `--allow-net`, no `--allow-run`. */
export const UNIT_PERMISSIONS: readonly string[] = ["--allow-read", "--allow-write", "--allow-env", "--allow-sys"];

/**
 * The unit tier: schedules, histograms, statistics, accounting, parsing, schema, run plans and reports on stored
 * results. Every file here also runs in the whole suite.
 */
export const UNIT_TESTS: readonly string[] = [
  "adapters/node_schedule_test.ts",
  "adapters/version_policy_test.ts",
  "runners/drivers/_engine_accounting_test.ts",
  "runners/drivers/_engine_checks_test.ts",
  "runners/drivers/_engine_histogram_test.ts",
  "runners/drivers/_engine_http_load_test.ts",
  "runners/drivers/_engine_http_test.ts",
  "runners/drivers/_engine_keep_alive_test.ts",
  "runners/drivers/_engine_parts_test.ts",
  "runners/drivers/_engine_schedule_test.ts",
  "runners/drivers/_engine_span_test.ts",
  "runners/drivers/_engine_ws_load_test.ts",
  "runners/drivers/_engine_ws_test.ts",
  "runners/kinds/accounting_test.ts",
  "runners/kinds/http_sweep_test.ts",
  "runners/platform/cgroup_test.ts",
  "runners/platform/cpus_test.ts",
  "runners/platform/proc_stat_test.ts",
  "runners/platform/remove_tree_test.ts",
  "runners/schema/mod_test.ts",
  "runners/stats/adaptive_test.ts",
  "runners/stats/drift_test.ts",
  "runners/stats/latency_test.ts",
  "runners/stats/paired_test.ts",
  "runners/stats/saturation_test.ts",
  "runners/stats/summary_test.ts",
  "runners/suite/pairing_test.ts",
  "runners/suite/settings_test.ts",
  "workloads/_side_effects_test.ts",
  "workloads/_window_effects_test.ts",
  "workloads/validate_test.ts",
  "tests/exporters_test.ts",
  "tests/overview_test.ts",
  "tests/server_files_test.ts",
  "tests/statistics_test.ts",
];

/** Reads the skip log: one JSON object per line. */
export function readSkips(text: string): Skip[] {
  return text.split("\n").filter((l) => l.trim()).map((l) => JSON.parse(l) as Skip);
}

/** The lines that end the run: every skipped test and why, or nothing when none was. */
export function skipReport(skips: readonly Skip[]): string {
  if (skips.length === 0) return "";
  const lines = skips.map((s) => `  ${s.test}\n    needs: ${s.why}`);
  return `Skipped on this machine: ${skips.length} test${skips.length === 1 ? "" : "s"} ` +
    `(under CI=true each fails instead)\n${lines.join("\n")}\n`;
}

async function main(args: string[]): Promise<number> {
  const unit = args[0] === "--unit";
  const rest = unit ? args.slice(1) : args;
  const files = unit && !rest.some((a) => !a.startsWith("-")) ? UNIT_TESTS : [];
  const log = await Deno.makeTempFile({ prefix: "rtbench-skips-" });
  // Ctrl-C reaches `deno test` too (same process group): wait for it, then still list what was skipped.
  const ignore = () => {};
  Deno.addSignalListener("SIGINT", ignore);
  try {
    const child = new Deno.Command(Deno.execPath(), {
      args: ["test", ...(unit ? UNIT_PERMISSIONS : ALL_PERMISSIONS), ...rest, ...files],
      env: { [SKIP_LOG_ENV]: log },
      stdin: "inherit",
      stdout: "inherit",
      stderr: "inherit",
    }).spawn();
    const status = await child.status;
    const report = skipReport(readSkips(await Deno.readTextFile(log)));
    if (report) console.log(report);
    return status.signal ? 128 + (status.signal === "SIGINT" ? 2 : 15) : status.code;
  } finally {
    Deno.removeSignalListener("SIGINT", ignore);
    await Deno.remove(log);
  }
}

if (import.meta.main) Deno.exit(await main(Deno.args));
