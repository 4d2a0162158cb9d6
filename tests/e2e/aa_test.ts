// docs/method.md "The noise floor (A/A)": `bench --aa` measures one runtime as two arms, A and B, interleaved round by
// round exactly as two runtimes; the report states the arms' paired ratio, the spread of the rounds and the smallest
// difference this run count detects on this machine; `compare --noise-floor` and `bench --noise-floor` refuse to call a
// change smaller than it. README "What you get": `--aa` prints the smallest difference its rounds detect for each figure
// `compare` tests, CPU per request at the fixed rate included; `compare --noise-floor` calls no smaller change.
// docs/method.md "Duet pairing": duet is the default pairing, and with it the floor of the duet's ratio is printed beside
// the rounds', the two modes measured alternately in the one run.
// Runs alone: its duet keeps only the windows where neither its servers' CPU nor its engines' was near full.
import { assert, assertEquals, assertMatch, assertStringIncludes } from "@std/assert";
import { parseResult } from "../../runners/schema/mod.ts";
import { detectableChangePercent, pairedRatio, roundPairs } from "../../runners/stats/paired.ts";
import { ROOT, runCli, runTask, withTmp } from "../_helpers.ts";
import { keepAndCompare } from "../../runners/cli/_history.ts";
import { noiseFloorOf } from "../../runners/report/noise_floor.ts";

Deno.test("bench --aa: one runtime as two interleaved arms; the report prints the noise floor", async () => {
  await withTmp(async (tmp) => {
    const out = `${tmp}/aa.json`;
    const run = await runCli([
      "--aa",
      "--runtime",
      "deno",
      "--workload",
      "http-json",
      "--runs",
      "3",
      "--duration",
      "0.5",
      "--warmup",
      "0.2",
      "--connections",
      "16",
      // A rate every fresh server holds on a busy 2-core machine, so that each run has its CPU per request at rate.
      "--cpu-rate",
      "5000",
      // Memory per idle connection is not among the floors printed.
      "--idle-connections",
      "0",
      "--quiet",
      "--out",
      out,
    ], { TMPDIR: tmp });
    assertEquals(run.code, 0, run.stderr);
    const result = parseResult(await Deno.readTextFile(out));
    assertEquals(result.settings.aa, true);
    const [a, b] = result.records;
    assertEquals([a.id, b.id], ["http-json/default/deno#A", "http-json/default/deno#B"]);
    assertEquals([a.runtime.arm, b.runtime.arm, a.runtime.name, b.runtime.version], [
      "A",
      "B",
      "deno",
      a.runtime.version,
    ]);
    // Interleaved exactly as two runtimes: the same rounds, and one pairing naming both.
    assertEquals(a.runs.map((r) => r.round), [0, 1, 2]);
    assertEquals(a.pairing, b.pairing);
    assertEquals(a.pairing?.records, [a.id, b.id]);
    // The floor printed is the one the rounds give (computed here from the result's own per-run figures).
    const interval = pairedRatio(roundPairs(a.runs, b.runs, "requestsPerSecond"))!;
    const floor = detectableChangePercent(interval.stdevLog!, 3)!;
    assertStringIncludes(run.stdout, "Noise floor (A/A)");
    const line = run.stdout.split("\n").find((l) => l.includes("http-json (default) requestsPerSecond: A/B"))!;
    assert(line, run.stdout.slice(0, 3000));
    assertStringIncludes(line, `A/B ${interval.ratio.toFixed(3)}×`);
    assertStringIncludes(line, `the smallest difference 3 rounds detect here: ${floor.toFixed(1)}%`);
    assertMatch(run.stdout, /deno \d+\.\d+\.\d+ \(A\)/, "the arms are labelled");
    // The server's CPU per request at the fixed rate, a figure compare tests, has its floor too.
    const cpuFigure = "serverCpuUsPerRequestAtRate";
    const cpuInterval = pairedRatio(roundPairs(a.runs, b.runs, cpuFigure))!;
    assertEquals(cpuInterval.n, 3, "every run held 5,000/s");
    const cpuFloor = detectableChangePercent(cpuInterval.stdevLog!, 3)!;
    const cpuLine = run.stdout.split("\n").find((l) => l.includes(`http-json (default) ${cpuFigure}: A/B`))!;
    assert(cpuLine, run.stdout.slice(0, 3000));
    assertStringIncludes(cpuLine, `the smallest difference 3 rounds detect here: ${cpuFloor.toFixed(1)}%`);
    assertEquals(noiseFloorOf(result).get(`http-json/default/${cpuFigure}`), cpuFloor);
    // The duet's floor beside it (no --pairing: the default), from windows measured between the rounds: some after the
    // first, some before the last.
    assertEquals([a.pairing?.mode, result.settings.pairing], ["duet", "duet"]);
    const duet = a.duet!.find((d) => d.against === b.id)!;
    // --runs 3: three duet rounds too (a crowded round's windows are dropped when the rate is lowered after it).
    const rounds = new Set(duet.windows.map((w) => w.round));
    assert(rounds.size >= 2 && Math.max(...rounds) <= 2, `duet rounds ${[...rounds]}`);
    const starts = duet.windows.map((w) => Date.parse(w.startedAt!));
    const runStarts = [...a.runs, ...b.runs].map((r) => Date.parse(r.startedAt)).sort((x, y) => x - y);
    assert(starts.some((t) => t > runStarts[0]) && starts.some((t) => t < runStarts.at(-1)!), "the modes alternate");
    assertMatch(run.stdout, new RegExp(`http-json \\(default\\) ${cpuFigure} \\(duet\\): A/B .*detect here`));

    // compare with the floor: tight runs in base, every one higher by half the floor in head. Welch finds that
    // significant; the floor says it is too small to call.
    const base = JSON.parse(await Deno.readTextFile(out));
    const head = structuredClone(base);
    for (const [file, factor] of [[base, 1], [head, 1 + floor / 200]] as const) {
      for (const r of file.records) {
        r.runs.forEach((x: { figures: Record<string, number> }, i: number) => {
          x.figures.requestsPerSecond = [100_000, 100_100, 99_900][i] * factor;
          x.figures[cpuFigure] = [10, 10.01, 9.99][i] * (factor === 1 ? 1 : 1 + cpuFloor / 200);
        });
      }
    }
    await Deno.writeTextFile(`${tmp}/base.json`, JSON.stringify(base));
    await Deno.writeTextFile(`${tmp}/head.json`, JSON.stringify(head));
    const plain = await runTask("compare", [`${tmp}/base.json`, `${tmp}/head.json`, "--format", "json"]);
    const verdicts = (text: string, figure: string) =>
      JSON.parse(text).figures.filter((f: { figure: string }) => f.figure === figure)
        .map((f: { verdict: string }) => f.verdict);
    const rps = (text: string) => verdicts(text, "requestsPerSecond");
    assertEquals(rps(plain.stdout), ["faster", "faster"], "without the floor the change is called");
    assertEquals(verdicts(plain.stdout, cpuFigure), ["slower", "slower"], "more CPU per request is slower");
    const compared = await runTask("compare", [
      `${tmp}/base.json`,
      `${tmp}/head.json`,
      "--noise-floor",
      out,
      "--format",
      "json",
    ]);
    assertEquals(compared.code, 0, compared.stderr);
    assertEquals(rps(compared.stdout), ["within noise floor", "within noise floor"]);
    assertEquals(verdicts(compared.stdout, cpuFigure), ["within noise floor", "within noise floor"]);

    // bench --history --fail-on-regression --noise-floor: the same floor keeps a change below it from failing the run.
    const slower = structuredClone(base);
    slower.startedAt = new Date(Date.parse(base.startedAt) + 60_000).toISOString();
    for (const r of slower.records) {
      for (const x of r.runs) x.figures.requestsPerSecond /= 1 + floor / 200;
    }
    const said: string[] = [];
    const history = [{ file: `${tmp}/base.json`, result: parseResult(JSON.stringify(base)) }];
    const head2 = parseResult(JSON.stringify(slower));
    await Deno.mkdir(`${tmp}/history`);
    const keep = (floorMap?: Map<string, number>) =>
      keepAndCompare(`${tmp}/history`, history, head2, `${tmp}/head2.json`, 0.1, (l) => said.push(l), floorMap);
    assertEquals(await keep(), true, "without the floor a 0.1% threshold fails the run");
    assertEquals(await keep(new Map(noiseFloorOf(result))), false, said.join("\n"));
  });
});

Deno.test("--aa and --noise-floor: bad input exits 2 naming the flag", async () => {
  await withTmp(async (tmp) => {
    const two = await runCli(["--aa", "--runtime", "deno,node", "--workload", "http-json"], { TMPDIR: tmp });
    assertEquals(two.code, 2);
    assertMatch(two.stderr.trim(), /^rtbench: --aa measures one runtime as two arms: give exactly one --runtime/);
    const none = await runCli(["--aa", "--workload", "http-json"], { TMPDIR: tmp });
    assertEquals(none.code, 2);
    assertStringIncludes(none.stderr, "--aa");
    const alone = await runCli(["--noise-floor", `${ROOT}fixtures/results/base.json`], { TMPDIR: tmp });
    assertEquals(alone.code, 2);
    assertStringIncludes(alone.stderr, "--noise-floor needs --fail-on-regression");
    const notAa = await runTask("compare", [
      `${ROOT}fixtures/results/base.json`,
      `${ROOT}fixtures/results/head.json`,
      "--noise-floor",
      `${ROOT}fixtures/results/base.json`,
    ]);
    assertEquals(notAa.code, 2);
    assertMatch(notAa.stderr.trim(), /^rtbench compare: --noise-floor: .*base\.json: not an A\/A result/);
    assertEquals(notAa.stderr.trim().split("\n").length, 1);
  });
});
