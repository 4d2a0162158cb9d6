// README walk: shows claims of README "Measurement" (servers in their own process group, stopped on Ctrl-C) and "What the numbers mean" (invalid).
// Server lifecycle: a server that fails verification is marked invalid with
// what differed and is not measured; Ctrl-C mid-run leaves no process behind
// and a valid result file.
import { assert, assertEquals, assertMatch } from "@std/assert";
import { run } from "../runners/suite/run.ts";
import { parseResult } from "../runners/schema/mod.ts";
import { wrongBody } from "./fixtures/wrong_body.ts";
import { entries, privateTmp, processesMatching, spawnCli, waitFor } from "./_helpers.ts";

Deno.test("a server that fails verification is invalid, not measured, and stopped", async () => {
  const tmp = await privateTmp();
  const result = await run({
    workloads: [wrongBody],
    runtimes: ["deno", "node"],
    settings: { durationSec: 0.5, warmupSec: 0, runs: 1 },
    tempDir: tmp,
  });
  const [deno, node] = result.records;
  assertEquals(deno.status, "invalid");
  assertEquals(deno.error?.phase, "verify");
  assertMatch(deno.error!.message, /GET \/ body: got "\{\\"message\\":\\"Hello, World\?\\"\}"/);
  assertEquals(deno.runs.length, 0, "an invalid server is not measured");
  assert(!deno.verification.passed);
  assertEquals(node.status, "completed", "the next runtime still runs");
  assertEquals(await processesMatching(tmp), []);
  assertEquals(await entries(tmp), []);
  await Deno.remove(tmp);
});

Deno.test("SIGINT mid-run stops every server and leaves a valid result file", async () => {
  const tmp = await privateTmp();
  const out = `${tmp}/r.json`;
  const child = spawnCli(
    [
      "--workload",
      "http-json",
      "--runtime",
      "node,deno",
      "--duration",
      "20",
      "--runs",
      "1",
      "--warmup",
      "0",
      "--out",
      out,
    ],
    { TMPDIR: tmp },
  );
  // Wait until a server from this run is up, then interrupt.
  const serverUp = await waitFor(async () => (await processesMatching(`${tmp}/rtbench-`)).length > 0, 60_000);
  assert(serverUp, "a server started");
  child.kill("SIGINT");
  const status = await child.output();
  assertEquals(status.code, 130, new TextDecoder().decode(status.stderr));
  assertEquals(await processesMatching(tmp), [], "no server or load generator left");
  const result = parseResult(await Deno.readTextFile(out));
  assertEquals(result.finishedAt, null, "the file says the suite did not finish");
  assertEquals(await entries(tmp), ["r.json"], "temporary files removed");
  await Deno.remove(tmp, { recursive: true });
});
