// Runs are interleaved across runtimes (docs/method.md "Runs are interleaved"): run i of every runtime of a variant
// comes before run i+1 of any, in an order that rotates each round or is drawn from a recorded seed; the order is in
// the result. And the one run loop applies a session's beforeRun/afterRun to every kind.
import { assert, assertEquals, assertMatch, assertNotEquals } from "@std/assert";
import { run } from "../_suite.ts";
import { roundOrder, scheduleOf } from "../../runners/suite/schedule.ts";
import type { BenchRecord, BenchResult } from "../../runners/schema/result.ts";
import { validateResult } from "../../runners/schema/mod.ts";
import { httpJson } from "../../workloads/http_json.ts";
import { micro } from "../../workloads/micro.ts";
import { startup } from "../../workloads/startup.ts";
import { wsEcho } from "../../workloads/ws_echo.ts";
import type { AfterRunContext, BeforeRunContext, Workload } from "../../workloads/types.ts";
import { runCli, runDevTool, withTmp } from "../_helpers.ts";

const RUNTIMES = ["deno", "node", "bun"];

/** Every run of one workload × variant, in the order they started: [runtime, round, slot]. */
function timeline(result: BenchResult, workload: string): [string, number, number][] {
  const records = result.records.filter((r: BenchRecord) => r.workload === workload);
  return records.flatMap((r) => r.runs.map((run) => ({ runtime: r.runtime.name, run })))
    .sort((a, b) => a.run.startedAt.localeCompare(b.run.startedAt))
    .map(({ runtime, run }) => [runtime, run.round!, run.slot!]);
}

Deno.test("round orders: rotate moves by one, shuffle is a seeded permutation per round, blocked keeps order", () => {
  const rotate = scheduleOf("rotate");
  assertEquals([0, 1, 2, 3].map((r) => roundOrder(RUNTIMES, r, rotate)[0]), ["deno", "node", "bun", "deno"]);
  const shuffle = scheduleOf("shuffle", 42);
  const rounds = Array.from({ length: 12 }, (_, r) => roundOrder(RUNTIMES, r, shuffle));
  for (const order of rounds) assertEquals([...order].sort(), [...RUNTIMES].sort());
  assertEquals(rounds, Array.from({ length: 12 }, (_, r) => roundOrder(RUNTIMES, r, scheduleOf(undefined, 42))));
  assert(new Set(rounds.map((o) => o.join())).size > 1, "the order changes from round to round");
  assertNotEquals(rounds, Array.from({ length: 12 }, (_, r) => roundOrder(RUNTIMES, r, scheduleOf("shuffle", 43))));
  assertEquals(roundOrder(RUNTIMES, 5, scheduleOf("blocked")), RUNTIMES);
  assert(scheduleOf("shuffle").seed !== null, "a shuffle without a seed draws one, to be recorded");
});

Deno.test("http-json, ws and startup on deno, node and bun with 3 runs: start times alternate, order recorded", async () => {
  await withTmp(async (tmp) => {
    const result = await run({
      workloads: [httpJson, wsEcho, startup],
      runtimes: RUNTIMES,
      variants: ["default", "hello"],
      settings: { runs: 3, durationSec: 0.3, warmupSec: 0, connections: 8 },
      options: { "warmup-runs": 0 },
      tempDir: tmp,
    });
    assertEquals(validateResult(result), []);
    assertEquals([result.settings.order, result.settings.seed], ["rotate", null]);
    for (const r of result.records) assertEquals(r.status, "completed", `${r.id}: ${JSON.stringify(r.error)}`);
    for (const workload of ["http-json", "ws"]) {
      const runs = timeline(result, workload);
      assertEquals(runs.length, 9);
      // Round by round, every runtime once, the first one rotating: deno, node, bun first in rounds 0, 1, 2.
      assertEquals(runs.map(([, round]) => round), [0, 0, 0, 1, 1, 1, 2, 2, 2], `${workload}: ${JSON.stringify(runs)}`);
      assertEquals(runs.map(([runtime]) => runtime), [
        ...["deno", "node", "bun"],
        ...["node", "bun", "deno"],
        ...["bun", "deno", "node"],
      ]);
      assertEquals(runs.map(([, , slot]) => slot), [0, 1, 2, 0, 1, 2, 0, 1, 2]);
      // README "What the numbers mean": the result says which records' runs shared a round, so reports pair them.
      const records = result.records.filter((r) => r.workload === workload);
      const [pairing] = records.map((r) => r.pairing);
      assertEquals(pairing?.records, records.map((r) => r.id));
      for (const r of records) assertEquals(r.pairing, pairing);
    }
    // Process runs are spawns: every runtime's spawn i comes before spawn i+1 of any.
    const spawns = timeline(result, "startup");
    const rounds = spawns.map(([, round]) => round);
    assertEquals(rounds, [...rounds].sort((a, b) => a - b), JSON.stringify(spawns));
    assertEquals(spawns.filter(([, round]) => round === 0).map(([runtime]) => runtime), RUNTIMES);
  });
});

Deno.test("--order shuffle with a seed records the seed and follows its order; blocked runs one runtime at a time", async () => {
  await withTmp(async (tmp) => {
    const settings = { runs: 4, durationSec: 0.001 };
    const common = { workloads: [startup], runtimes: ["deno", "node"], variants: ["hello"], settings, tempDir: tmp };
    const options = { "warmup-runs": 0 };
    const shuffled = await run({ ...common, options, order: "shuffle", seed: 7 });
    assertEquals([shuffled.settings.order, shuffled.settings.seed], ["shuffle", 7]);
    const seen = timeline(shuffled, "startup");
    for (let round = 0; round < 4; round++) {
      const expected = roundOrder(["deno", "node"], round, { order: "shuffle", seed: 7 });
      assertEquals(seen.filter(([, r]) => r === round).map(([runtime]) => runtime), expected, `round ${round}`);
    }
    const blocked = await run({ ...common, options, order: "blocked" });
    assertEquals(timeline(blocked, "startup").map(([runtime]) => runtime), [
      ...Array(blocked.records[0].runs.length).fill("deno"),
      ...Array(blocked.records[1].runs.length).fill("node"),
    ]);
    // Runs measured one runtime after another share no round: nothing is paired.
    assertEquals(blocked.records.map((r) => r.pairing), [undefined, undefined]);
    assertEquals(shuffled.records[0].pairing, shuffled.records[1].pairing);
  });
});

/** `workload` with a session that notes every beforeRun and afterRun. */
function hooked(workload: Workload, seen: string[]): Workload {
  return {
    ...workload,
    name: `${workload.name}-hooked`,
    setup: () =>
      Promise.resolve({
        beforeRun: (run: BeforeRunContext) => Promise.resolve(void seen.push(`before ${run.runtime} ${run.run}`)),
        afterRun: (run: AfterRunContext) => {
          seen.push(`after ${run.runtime} ${run.run} ${run.validResponses > 0}`);
          return Promise.resolve([{ name: "afterRun saw the run", passed: run.validResponses > 0 }]);
        },
      }),
  } as Workload;
}

Deno.test("a session's beforeRun and afterRun run around every run of every kind", async () => {
  await withTmp(async (tmp) => {
    for (
      const [workload, variant] of [[wsEcho, "default"], [micro, "uuid"], [startup, "hello"], [
        httpJson,
        "default",
      ]] as const
    ) {
      const seen: string[] = [];
      const result = await run({
        workloads: [hooked(workload, seen)],
        runtimes: ["deno"],
        variants: [variant],
        settings: { runs: 2, durationSec: 0.1, warmupSec: 0, connections: 4 },
        options: { "warmup-runs": 0 },
        tempDir: tmp,
      });
      const [record] = result.records;
      assertEquals(record.status, "completed", `${workload.name}: ${JSON.stringify(record.error)}`);
      const runs = record.runs.length;
      assert(runs >= 2);
      assertEquals(
        seen,
        Array.from({ length: runs }, (_, i) => [`before deno ${i}`, `after deno ${i} true`]).flat(),
        workload.name,
      );
      assert(record.verification.checks.some((c) => c.name === "afterRun saw the run"));
    }
  });
});

Deno.test("the CLI's --seed shuffles and records it; --resume keeps the file's order", async () => {
  await withTmp(async (tmp) => {
    const out = `${tmp}/r.json`;
    const common = ["--workload", "startup", "--variant", "hello", "--runs", "2", "--duration", "0.001"];
    const first = await runCli([...common, "--runtime", "deno", "--warmup-runs", "0", "--seed", "5", "--out", out]);
    assertEquals(first.code, 0, first.stderr);
    const written: BenchResult = JSON.parse(await Deno.readTextFile(out));
    assertEquals([written.settings.order, written.settings.seed], ["shuffle", 5]);
    // Resumed with no --order or --seed: the rest of the suite keeps the file's.
    const resumed = await runCli(["--resume", out, "--warmup-runs", "0", "--quiet"]);
    assertEquals(resumed.code, 0, resumed.stderr);
    const again: BenchResult = JSON.parse(await Deno.readTextFile(out));
    assertEquals([again.settings.order, again.settings.seed], ["shuffle", 5]);
  });
});

Deno.test("runners/dev/order_drift.ts compares the ratio's spread under rotate and blocked orders", async () => {
  const out = await runDevTool("order-drift", [
    "--runs",
    "2",
    "--repeats",
    "1",
    "--duration",
    "0.3",
    "--warmup",
    "0.2",
  ]);
  const stdout = out.stdout;
  assertEquals(out.code, 0, out.stderr);
  // docs/method.md "Runs are interleaved": the sample's columns, and today's `runs` column after them.
  assertMatch(
    stdout,
    /^order\s+deno\/node \(median\)\s+CV of the ratio\s+CV per suite\s+CV deno\s+CV node\s+runs$/m,
  );
  const rows = stdout.trim().split("\n").slice(2);
  assertEquals(rows.map((r) => r.split(/\s+/)[0]), ["rotate", "blocked"]);
  for (const row of rows) assert(/\d+\.\d+%/.test(row) && row.includes("2 ("), row);
});
