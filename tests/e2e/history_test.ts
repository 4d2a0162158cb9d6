// docs/guide.md "At a glance, across versions, over time", history: `--history` and bench's `--fail-on-regression`.
// `bench --history <dir>` keeps every result in <dir>; `--fail-on-regression <pct>` compares the new result with the
// last comparable one kept there (same machine, a workload × runtime in common) by compare's test, and exits 1 when
// a figure got significantly worse by more than pct percent.
import { assert, assertEquals } from "@std/assert";
import type { BenchResult, LatencyPercentiles, RunRecord } from "../../runners/schema/result.ts";
import { parseResult, validateResult } from "../../runners/schema/mod.ts";
import { summarize } from "../../runners/stats/summary.ts";
import { entries, processesMatching, runCli, withTmp } from "../_helpers.ts";

function median(values: number[]): number {
  const v = values.toSorted((a, b) => a - b);
  return v.length % 2 ? v[(v.length - 1) / 2] : (v[v.length / 2 - 1] + v[v.length / 2]) / 2;
}

/**
 * `result` as if it had run a second after `after`, every run at `factor` times its median rate and 1/factor times
 * its median latency: a steady plant, so that only the new run's own noise stands between it and a verdict.
 */
function planted(result: BenchResult, after: string, factor: number): BenchResult {
  const startedAt = new Date(Date.parse(after) + 1000).toISOString();
  // Without a calibration: one machine, and the gate on calibrations (machine_identity_test) is not what this file
  // tests. With the first run's, a CI machine whose next suite started 10% slower or faster (its calibration beyond
  // that noise) would make the plant another machine's result, and the regression would go unchecked.
  const { calibration: _, ...environment } = result.environment;
  return {
    ...result,
    environment,
    startedAt,
    finishedAt: startedAt,
    records: result.records.map((r) => {
      const rate = (k: string) => median(r.runs.map((x) => x.figures[k])) * factor;
      const latency = (k: keyof LatencyPercentiles) => median(r.runs.map((x) => x.latencyUs![k])) / factor;
      const runs: RunRecord[] = r.runs.map((run) => ({
        ...run,
        figures: Object.fromEntries(
          // A result `factor` times as fast spends 1/factor of the CPU time per request (compare tests the server's).
          Object.entries(run.figures).map(([k, v]) => [
            k,
            k.endsWith("PerSecond") ? rate(k) : k.includes("CpuUsPer") ? v / factor : v,
          ]),
        ),
        latencyUs: run.latencyUs &&
          Object.fromEntries(
            (Object.keys(run.latencyUs) as (keyof LatencyPercentiles)[]).map((k) => [k, latency(k)]),
          ) as unknown as LatencyPercentiles,
      }));
      const keys = Object.keys(r.summary);
      return {
        ...r,
        runs,
        // A figure some runs do not have (memory per connection is measured in a record's first run) is summarized
        // over the runs that do, as rtbench does.
        summary: Object.fromEntries(
          keys.map((k) => [k, summarize(runs.flatMap((x) => typeof x.figures[k] === "number" ? [x.figures[k]] : []))]),
        ),
      };
    }),
  };
}

Deno.test("--history keeps every result; --fail-on-regression fails against a faster last comparable result", async () => {
  await withTmp(async (tmp) => {
    const history = `${tmp}/history`;
    const common = [
      "--workload",
      "http-json",
      "--runtime",
      "deno",
      "--duration",
      "0.3",
      "--warmup",
      "0",
      "--runs",
      "3",
      // The regression tested is the rate's: no fixed-rate window or idle connections.
      "--cpu-rate",
      "0",
      "--idle-connections",
      "0",
    ];
    // Into a history that does not exist yet: it is made, and with nothing to compare against the run does not fail.
    const first = await runCli([
      ...common,
      "--out",
      `${tmp}/first.json`,
      "--history",
      history,
      "--fail-on-regression",
      "5",
    ], {
      TMPDIR: tmp,
    });
    assertEquals(first.code, 0, first.stderr);
    assert(
      first.stderr.includes(`--fail-on-regression: no earlier result in ${history} from this machine`),
      first.stderr,
    );
    const kept = await entries(history);
    assertEquals(kept.length, 1);
    assert(first.stderr.includes(`Result kept in ${history}/${kept[0]}`), first.stderr);
    const text = await Deno.readTextFile(`${history}/${kept[0]}`);
    assertEquals(validateResult(JSON.parse(text)), []);
    assertEquals(text, await Deno.readTextFile(`${tmp}/first.json`), "the history keeps the result as written");

    // A result a hundred times as fast, kept after the first: the next run is compared with it, and is far slower
    // (by 99%, give or take how much faster or slower this busy machine is on the second run).
    const result = parseResult(text);
    await Deno.writeTextFile(`${history}/planted.json`, JSON.stringify(planted(result, result.startedAt, 100)));
    const second = await runCli([
      ...common,
      "--out",
      `${tmp}/second.json`,
      "--history",
      history,
      "--fail-on-regression",
      "5",
    ], {
      TMPDIR: tmp,
    });
    assertEquals(second.code, 1, second.stderr);
    assert(second.stderr.includes(`Compared with ${history}/planted.json`), second.stderr);
    const line = new RegExp(
      `rtbench: regression against ${history}/planted\\.json: http-json/default/deno requestsPerSecond -(\\d+\\.\\d)%`,
    ).exec(second.stderr);
    assert(line && Number(line[1]) > 80, second.stderr);
    assertEquals((await entries(history)).length, 3, "the regressed result is kept too");

    // Against a result a hundred times slower, the same kind of run is no regression.
    await Deno.remove(`${history}/planted.json`);
    const latest = parseResult(await Deno.readTextFile(`${tmp}/second.json`));
    await Deno.writeTextFile(`${history}/planted.json`, JSON.stringify(planted(latest, latest.startedAt, 0.01)));
    // Its result file is written into the history itself: kept once, not copied beside itself.
    const third = await runCli(
      [...common, "--out", `${history}/third.json`, "--history", history, "--fail-on-regression", "5"],
      { TMPDIR: tmp },
    );
    assertEquals(third.code, 0, third.stderr);
    assert(third.stderr.includes("no regression beyond 5%"), third.stderr);
    assert(third.stderr.includes(`Result kept in ${history}/third.json`), third.stderr);
    assertEquals((await entries(history)).length, 4, "first, second, the plant and third");

    assertEquals(await processesMatching(tmp), []);
  });
});
