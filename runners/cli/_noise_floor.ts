// `--noise-floor <file>` of `compare` and `bench`: an A/A result (bench --aa) read before anything else, its floor
// per workload × variant × figure, or one line naming the flag and the file.

import { isUsageError, UsageError } from "./_usage.ts";
import { type NoiseFloor, noiseFloorOf } from "../report/mod.ts";
import { readResultFile } from "../schema/mod.ts";

/** The noise floor of the A/A result at `path`; a file that is missing, not a result or not an A/A run is bad input. */
export async function readNoiseFloor(path: string): Promise<NoiseFloor> {
  try {
    return noiseFloorOf(await readResultFile(path));
  } catch (error) {
    if (isUsageError(error) || error instanceof RangeError) {
      throw new UsageError(`--noise-floor: ${path}: ${error.message}`);
    }
    throw error;
  }
}
