// README walk: shows claims of docs/guide.md "Faults tried" (a server that crashes under load).
// A server that crashes after 200 requests, in the warm-up and in the measurement: that record errored in the phase
// the crash struck, the reason saying what happened, the next runtime measured, nothing left running or on disk.
// Runs alone: its warm-up must reach the 200 requests after which a server crashes.
import { crashes } from "../fixtures/faults.ts";
import { assertFault, faultRun } from "../_fault_run.ts";

// docs/guide.md "Faults tried": "server crashes during the warm-up".
Deno.test("a server that crashes during the warm-up errors in warmup, and the next runtime is measured", async () => {
  // It crashes after 200 requests: inside a 2 s warm-up even where the load starts slowly (0.5 s once was not).
  const result = await faultRun(crashes, { warmupSec: 2 });
  assertFault(result, "warmup", /^Server exited with code 3 during the warm-up: crash_deno: crashing after 200/);
});

// docs/guide.md "Faults tried": "server crashes during the measurement".
Deno.test("a server that crashes during the measurement errors in measure, and the next runtime is measured", async () => {
  const result = await faultRun(crashes, { warmupSec: 0 });
  assertFault(result, "measure", /^Server exited with code 3 during the measurement: crash_deno: crashing after 200/);
});
