// Multi-core at equal CPU: every multi-core record carries the CPU its server actually used, its rate per used core
// and its CPU time per request; `deno run -A runners/dev/fair_share.ts` runs each core budget and prints one line per budget with the
// client's CPUs stated, a layout where the client shares the server's CPUs marked.
//
// docs/guide.md "Every core: --server-cpus", the equal-CPU sentences: "fair-share: a line per budget, the CPU each
// server used, per used core, client CPUs stated, a shared layout marked; results kept" (the `per used core` column of
// every report too, and the overview's At equal CPU of a result above one server CPU) and "--budgets beyond the
// machine, 0 or a word: exit 2, one line naming the flag".
import { assert, assertEquals, assertMatch } from "@std/assert";
import { parseResult, validateResult } from "../../runners/schema/mod.ts";
import { parseCpuList } from "../../runners/base/mod.ts";
import { exportResult } from "../../runners/report/mod.ts";
import { entries, processesMatching, runDevTool, withTmp } from "../_helpers.ts";

Deno.test("fair-share: a line per budget, the CPU each server used, per used core, client CPUs stated, a shared layout marked; results kept", async () => {
  await withTmp(async (tmp) => {
    const cli = await runDevTool("fair-share", [
      ...["--runtime", "deno,node", "--budgets", "1,all", "--duration", "1", "--warmup", "0.1", "--runs", "1"],
      ...["--out-dir", `${tmp}/out`],
    ], { TMPDIR: tmp });
    assertEquals(cli.code, 0, cli.stderr + cli.stdout);
    const files = (await entries(`${tmp}/out`)).sort();
    const all = navigator.hardwareConcurrency;
    assertEquals(files, all === 1 ? ["fair-share-1.json"] : ["fair-share-1.json", `fair-share-${all}.json`]);
    for (const file of files) {
      const result = parseResult(await Deno.readTextFile(`${tmp}/out/${file}`));
      assertEquals(validateResult(result), []);
      const budget = Number(/(\d+)\.json$/.exec(file)![1]);
      for (const r of result.records) {
        assertEquals([r.status, r.settings.serverCpus], ["completed", budget], r.id);
        const f = r.runs[0].figures;
        // Pinned with taskset to `budget` CPUs, the server's tree cannot use more (the sampler's 250 ms readings may
        // overshoot a little), and it must have used some.
        assert(f.serverCoresUsed > 0 && f.serverCoresUsed <= budget * 1.15, `${r.id}: ${f.serverCoresUsed}`);
        assertEquals(parseCpuList(r.cpus.server!).length, budget);
        // The figure is the window's exact CPU time (CPU µs per request × requests per second), in cores. Each of the
        // three is stored rounded (cores to 0.01, µs to 0.01), so they agree to half a hundredth of a core, not to the
        // digit: 1.105 cores reads 1.11 stored and may read 1.10 recomputed from the rounded µs.
        const recomputed = f.serverCpuUsPerRequest * f.requestsPerSecond / 1e6;
        assert(Math.abs(f.serverCoresUsed - recomputed) <= 0.006, `${r.id}: ${f.serverCoresUsed} vs ${recomputed}`);
        // And the resource sampler's 250 ms readings, an independent measure, agree with it roughly.
        const sampled = r.resources!.server!.cpuPercent.mean / 100;
        assert(Math.abs(f.serverCoresUsed - sampled) < 0.2, `${r.id}: ${f.serverCoresUsed} exact, ${sampled} sampled`);
        assert(f.requestsPerSecondPerUsedCore > 0 && f.serverCpuUsPerRequest > 0, r.id);
      }
      // Every report shows it beside the rate per server core.
      assertMatch(exportResult(result, "table"), /per used core/);
      assertMatch(exportResult(result, "table"), /[\d,]+\/s \(\d\.\d\d used\)/);
      // And the overview of a budget above one CPU has its fair-share line, the client's cores stated (one budget of one
      // CPU is the ordinary comparison: none).
      const overview = exportResult(result, "table").split("Key findings:")[0];
      if (budget === 1) assert(!overview.includes("At equal CPU"), file);
      else {
        assertMatch(overview, /At equal CPU:\n\nFair share · http-json \(default\)/);
        assertMatch(overview, new RegExp(`\\n +${budget} {2}\\S+ +${budget} {2}\\S+ \\(shares the server's\\)`));
      }
    }
    const lines = cli.stdout.split("\n");
    assertMatch(lines[0], /^Fair share · http-json \(default\) · requestsPerSecond/);
    assertMatch(lines[1], /^server cores +server cpu +client cores +client cpu +deno \S+ +node \S+$/);
    const rows = lines.filter((l) => /^ +\d+ {2}/.test(l));
    assertEquals(rows.length, files.length);
    for (const row of rows) {
      assertMatch(row, /\/s on \d\.\d\d cores · [\d,]+\/s per used core · \d+\.\d µs CPU\/request/);
    }
    // The first budget leaves the client a CPU of its own; all CPUs leave it none, and that line is marked.
    assert(!rows[0].includes("shares the server's"), rows[0]);
    if (all > 1) {
      assertMatch(rows[1], /\(shares the server's\)/);
      assertMatch(cli.stdout, /⚠ a line whose client shares the server's CPUs/);
    }
    assertEquals(await processesMatching(tmp), []);
  });
});

Deno.test("--budgets beyond the machine, 0 or a word: exit 2, one line naming the flag", async () => {
  const cpus = navigator.hardwareConcurrency;
  for (
    const [value, message] of [
      [String(cpus + 1), new RegExp(`--budgets ${cpus + 1}: only \\d+ CPUs may be used here`)],
      ["0", /--budgets must list whole numbers of CPUs or all, got "0"/],
      ["1,many", /--budgets must list whole numbers of CPUs or all, got "many"/],
    ] as const
  ) {
    const cli = await runDevTool("fair-share", ["--budgets", value]);
    assertEquals(cli.code, 2, `${value}: ${cli.stderr}`);
    assertEquals(cli.stderr.trim().split("\n").length, 1, cli.stderr);
    assertMatch(cli.stderr, message);
  }
});
