// README walk: shows claims of README "What the numbers mean" (status `skipped`) and "Faults tried" (server exits before listening).
// A server that reports its runtime cannot do the variant (the
// `rtbench: skip: <reason>` line) makes its record skipped with that reason.
import { assertEquals } from "@std/assert";
import { run } from "../runners/suite/run.ts";
import { cannotRun } from "./fixtures/cannot_run.ts";
import { entries, privateTmp, processesMatching } from "./_helpers.ts";

Deno.test("a server that says it cannot run is skipped with its reason; the next runtime runs", async () => {
  const tmp = await privateTmp();
  const result = await run({
    workloads: [cannotRun],
    runtimes: ["deno", "node"],
    settings: { durationSec: 0.5, warmupSec: 0, runs: 1 },
    tempDir: tmp,
  });
  const [deno, node] = result.records;
  assertEquals(deno.status, "skipped");
  assertEquals(deno.skipReason, "the frobnicator addon is not built for this platform");
  assertEquals(deno.error, null);
  assertEquals(node.status, "completed");
  assertEquals(await processesMatching(tmp), []);
  assertEquals(await entries(tmp), []);
  await Deno.remove(tmp);
});
