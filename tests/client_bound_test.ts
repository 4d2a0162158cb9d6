// Client-bound detection on a real server with a fake load generator sampled
// like any other: one that burns its CPU between requests is flagged, one that
// sleeps instead is not, and the table shows the warning next to the number.
import { assert, assertEquals, assertExists } from "@std/assert";
import { run } from "../runners/suite/run.ts";
import { formatTable } from "../runners/report/table.ts";
import { validateResult } from "../runners/schema/mod.ts";
import { httpJson } from "../workloads/http_json.ts";
import { lazyGenerator, slowGenerator } from "./fixtures/fake_generators.ts";
import { entries, privateTmp, processesMatching } from "./_helpers.ts";

const settings = { durationSec: 1.5, warmupSec: 0, runs: 1 };

Deno.test("a deliberately slow load generator is flagged client-bound", async () => {
  const tmp = await privateTmp();
  const result = await run({
    workloads: [httpJson],
    runtimes: ["deno"],
    settings,
    loadGenerator: slowGenerator,
    tempDir: tmp,
  });
  assertEquals(validateResult(result), []);
  const [record] = result.records;
  assertEquals(record.status, "completed", JSON.stringify(record.error));
  assertEquals(record.loadGenerator?.name, "slow-fake");
  const client = record.resources?.client;
  assertExists(client, "the generator's process was sampled");
  assert(client!.threads.peak >= 1 && client!.rssBytes.peak > 0);
  const warning = record.warnings.find((w) => w.code === "client-bound");
  assertExists(
    warning,
    `expected client-bound, got ${JSON.stringify(record.warnings)} ${JSON.stringify(record.resources)}`,
  );
  assert(warning!.message.includes("slow-fake"));
  const line = formatTable(result).split("\n").find((l) => l.startsWith("deno "));
  assert(line?.includes("⚠ client-bound"), `the table row carries the warning: ${line}`);
  assertEquals(await processesMatching(tmp), []);
  assertEquals(await entries(tmp), []);
  await Deno.remove(tmp);
});

Deno.test("a load generator that waits instead of working is not flagged", async () => {
  const tmp = await privateTmp();
  const result = await run({
    workloads: [httpJson],
    runtimes: ["deno"],
    settings,
    loadGenerator: lazyGenerator,
    tempDir: tmp,
  });
  const [record] = result.records;
  assertEquals(record.status, "completed", JSON.stringify(record.error));
  assertExists(record.resources?.client, "the generator's process was sampled");
  assertEquals(record.warnings.filter((w) => w.code === "client-bound"), []);
  await Deno.remove(tmp, { recursive: true });
});
