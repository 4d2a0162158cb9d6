// README walk: shows claims of docs/method.md "Calibrate and check" (calibrate, vs-wrk).
// deno task calibrate: one row per installed load generator with its rate,
// client and server CPU and what limits it; bad flags exit 2.
// Runs alone: it asserts each generator's ceiling and what limited it.
import { assert, assertEquals, assertMatch, assertNotEquals } from "@std/assert";
import { vsWrk, type VsWrkTurn } from "../../runners/selfcheck/vs_wrk.ts";
import { builtinLoadGenerators } from "../../runners/drivers/generators.ts";
import { formatCalibration, measureGeneratorCeilings } from "../../runners/selfcheck/calibrate.ts";
import { lazyGenerator, slowGenerator } from "../fixtures/fake_generators.ts";
import { assertNothingLeft, runDevTool, runTask, withTmp } from "../_helpers.ts";
import { needs, tool } from "../_needs.ts";

const WRK = tool("wrk", "apt-get install wrk");

Deno.test("calibrate prints every installed generator's ceiling", async () => {
  await withTmp(async (tmp) => {
    const run = await runTask("calibrate", ["--duration", "1", "--warmup", "0"], { env: { TMPDIR: tmp } });
    assertEquals(run.code, 0, run.stderr);
    const installed = [];
    for (const g of builtinLoadGenerators) if (await g.available()) installed.push(g.name);
    if (installed.includes("wrk")) installed.splice(installed.indexOf("wrk") + 1, 0, "wrk+check");
    const rows = run.stdout.split("\n").filter((l) => /^\S+\s+\S+\s+[\d,]+\/s/.test(l));
    assertEquals(rows.map((l) => l.split(/\s+/)[0]), installed);
    for (const row of rows) {
      assertMatch(row, /\d+% \(\d+%\)\s+\d+% \(\d+%\)\s+(\S.*(ceiling|projected|matched)|unknown)/);
    }
    assertMatch(run.stdout, /^calibrate · http-json on deno \d/m);
    assertMatch(run.stdout, new RegExp(`--load-generator auto uses ${installed[0]}`));
    await assertNothingLeft(tmp);
  });
});

// The verdict, on generators whose limit is known: one that burns its CPU between requests is client-bound (its CPU
// at its limit, the server's not), one that sleeps instead saturates neither side (fixtures/fake_generators.ts).
Deno.test("calibrate's verdict: a generator at its CPU limit is its own ceiling; one that waits leaves it unknown", async () => {
  const calibration = await measureGeneratorCeilings({
    generators: [slowGenerator, lazyGenerator],
    settings: { durationSec: 1.5, warmupSec: 0 },
    signal: AbortSignal.timeout(120_000),
  });
  const [slow, lazy] = calibration.rows;
  const rows = JSON.stringify(calibration.rows);
  assertEquals([slow.generator, slow.verdict, slow.ceilingRequestsPerSecond], [
    "slow-fake",
    "client-bound",
    slow.requestsPerSecond,
  ], rows);
  assertEquals([lazy.generator, lazy.verdict], ["lazy-fake", "unsaturated"], rows);
  const table = formatCalibration(calibration);
  assertMatch(table, /^slow-fake .* \(client-bound: this is its ceiling\)$/m);
  assertMatch(table, /^lazy-fake .* unknown \(neither side saturated: is the machine busy\?\)$/m);
});

Deno.test("calibrate rejects an unknown generator with exit 2", async () => {
  const run = await runTask("calibrate", ["--load-generator", "ab"]);
  assertEquals(run.code, 2);
  assertMatch(run.stderr.trim(), /^rtbench calibrate: --load-generator: unknown load generator "ab"/);
  assert(!run.stderr.includes("    at "));
});

// docs/method.md (Calibrate and check): "`vs-wrk` starts, for each runtime and round, a fresh `http-json` server on the
// run's server CPU, and the engine and a plain `wrk -t1 -c100` take turns on it … then prints both medians, the median
// of the rounds' ratios, and whether `--load-generator autocannon` on Deno is flagged `client-bound`. It prints the
// load average too".
Deno.test(needs(WRK, {
  name: "vs-wrk prints the engine's and plain wrk's medians, their ratio, autocannon's verdict and the load average",
  async fn() {
    await withTmp(async (tmp) => {
      const out = await runDevTool("vs-wrk", [
        "--runtime",
        "deno",
        "--rounds",
        "1",
        // What it prints is the point: the shortest window vs-wrk takes (1 s), no warm-up.
        "--duration",
        "1",
        "--warmup",
        "0",
      ], { env: { TMPDIR: tmp } });
      const { stdout, stderr } = out;
      assertEquals(out.code, 0, stderr);
      assertMatch(
        stdout,
        /^runtime\s+rtbench engine \(median\)\s+plain wrk -t1 \(median\)\s+ratio \(median of rounds\)\s+rounds/m,
      );
      assertMatch(stdout, /^deno\s+[\d,]+\/s\s+[\d,]+\/s\s+\d+\.\d{3}\s/m);
      assertMatch(
        stdout,
        /^--load-generator autocannon on deno: [\d,]+\/s, warnings: .* \(client-bound (NOT )?flagged\)$/m,
      );
      // The verdict printed is the record's: flagged exactly when its warnings hold client-bound.
      const verdict = /^--load-generator autocannon on deno: .*warnings: (.*) \(client-bound (NOT )?flagged\)$/m.exec(
        stdout,
      )!;
      assertEquals(verdict[2] === undefined, /\bclient-bound\b/.test(verdict[1]), verdict[0]);
      assertMatch(stdout, /^load average at the end: /m);
      assertMatch(stderr, /^vs-wrk · http-json · 1 rounds × 4 turns \(ABBA\) .* load average /m);
      await assertNothingLeft(tmp);
    });
  },
}));

// docs/method.md (Calibrate and check): "the engine and a plain `wrk -t1 -c100` take turns on it,
// engine–wrk–wrk–engine, the next round wrk first".
Deno.test(needs(WRK, {
  name: "vs-wrk: in each round the engine and wrk take turns ABBA on one fresh server, the first side alternating",
  async fn() {
    const turns: VsWrkTurn[] = [];
    const result = await vsWrk({
      runtimes: ["deno"],
      rounds: 2,
      // The order of the turns is the point: the engine's windows short (plain wrk's are whole seconds).
      durationSec: 0.3,
      warmupSec: 0,
      connections: 10,
      signal: AbortSignal.timeout(300_000),
      onTurn: (t) => turns.push(t),
    });
    assertEquals(turns.map((t) => `${t.round}:${t.side}`), [
      "0:rtbench",
      "0:wrk",
      "0:wrk",
      "0:rtbench",
      "1:wrk",
      "1:rtbench",
      "1:rtbench",
      "1:wrk",
    ]);
    // One server per round, a different one each round.
    const pids = [0, 1].map((r) => new Set(turns.filter((t) => t.round === r).map((t) => t.serverPid)));
    assertEquals(pids.map((p) => p.size), [1, 1]);
    assertNotEquals([...pids[0]][0], [...pids[1]][0]);
    // A round's figure per side is the mean of its two windows.
    const engine0 = turns.filter((t) => t.round === 0 && t.side === "rtbench").map((t) => t.requestsPerSecond);
    assertEquals(result.runtimes[0].rtbench[0], (engine0[0] + engine0[1]) / 2);
    assert(turns.every((t) => t.requestsPerSecond > 0));
  },
}));
