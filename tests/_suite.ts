// run() as the tests call it. The machine's calibration (a second of work pinned to a CPU, measured when a suite
// starts) is measured once (by the test runner, RTBENCH_CALIBRATION, else once per test file) and handed to every
// suite, as a program running suites one after another would (RunOptions.calibration); machine_identity_test and
// calibrate_test show it measured. http-json's fixed-rate window and idle connections (its defaults, seconds a run)
// are measured where a test sets them. Two suites at once (files run two at a time) take lanes, tests/_lanes.ts.
import { run as runBench } from "../runners/suite/run.ts";
import type { RunOptions } from "../runners/suite/request.ts";
import type { BenchResult, MachineCalibration } from "../runners/schema/mod.ts";
import { CALIBRATION_ENV, calibrationOf, measureMachineSpeed } from "../runners/drivers/calibration.ts";
import { placesItself, takeLane } from "./_lanes.ts";
import { UNASKED } from "./_helpers.ts";

let calibration: Promise<MachineCalibration> | undefined;

/** {@linkcode runBench} with this process's calibration, and no fixed-rate window or idle connections unless asked. */
export function run(options: RunOptions): Promise<BenchResult> {
  return runWithWorkloadDefaults({ ...options, settings: { ...UNASKED, ...options.settings } });
}

/** {@linkcode runBench} with this process's calibration, every workload default kept (a test of those defaults). */
export async function runWithWorkloadDefaults(options: RunOptions): Promise<BenchResult> {
  calibration ??= Promise.resolve(calibrationOf(Deno.env.get(CALIBRATION_ENV))).then((c) =>
    c ?? measureMachineSpeed(null)
  );
  const lane = placesItself(options) ? undefined : await takeLane();
  try {
    return await runBench({ calibration: await calibration, cpus: lane?.cpus, ...options });
  } finally {
    await lane?.release();
  }
}
