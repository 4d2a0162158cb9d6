// README walk: shows claims of docs/guide.md "Nothing lost: `--resume`" and docs/reference.md "Exit codes" (130).
// SIGINT at three known points of a suite — while a variant is being prepared, after the first round of runs, in
// the middle of a run — keeps exactly what was finished: whole records, and the finished runs of records whose later
// rounds never ran (runs are interleaved, so mid-variant no record is whole yet). The file says it is interrupted,
// when, by which signal and what is left; one line says so and how to go on; --resume goes on from the kept runs.
// The points are marked by the checkpoints workload's session (tests/fixtures/checkpoints.ts).
import { assert, assertEquals, assertMatch } from "@std/assert";
import { parseResult } from "../../runners/schema/mod.ts";
import type { BenchResult } from "../../runners/schema/result.ts";
import { entries, processesWithTmpdir, ROOT, runCli, spawnCli, waitFor, withTmp } from "../_helpers.ts";

const FIXTURE = "tests/fixtures/checkpoints.ts";
const SUITE = ["--workload-file", FIXTURE, "-w", "checkpoints", "-r", "deno,node", "--warmup", "0", "--runs", "3"];
const IDS = ["first/deno", "first/node", "second/deno", "second/node"].map((id) => `checkpoints/${id}`);

interface Interrupted {
  tmp: string;
  file: string;
  code: number;
  stderr: string;
  result: BenchResult;
  reached: string[];
}

/**
 * Runs the suite in `tmp` with `hold` as the step to wait at; sends SIGINT once `at` is reached (and `delayMs` more).
 */
async function interruptAt(
  tmp: string,
  at: string,
  hold: string,
  args: string[],
  delayMs = 0,
  env: Record<string, string> = {},
): Promise<Interrupted> {
  const marks = `${tmp}/marks`;
  await Deno.mkdir(marks);
  const file = `${tmp}/r.json`;
  const child = spawnCli([...SUITE, ...args, "--quiet", "--out", file], {
    TMPDIR: tmp,
    CHECKPOINTS: marks,
    CHECKPOINT_HOLD: hold,
    ...env,
  });
  let exited = false;
  const output = child.output().finally(() => exited = true);
  const reached = await waitFor(async () => (await entries(marks)).includes(at) || exited, 120_000);
  if (!reached || exited) {
    // The suite ended or stalled before the step: what it said and what its file holds tell why.
    if (!exited) child.kill("SIGINT");
    const done = await output;
    const records = await Deno.readTextFile(file).then((t) => parseResult(t).records, () => []);
    const ended = records.map((r) => `${r.id} ${r.status}${r.error ? `: ${r.error.phase}: ${r.error.message}` : ""}`);
    throw new Error(`${at} was never reached (exit ${done.code}): ${new TextDecoder().decode(done.stderr).trim()}
${ended.join("\n")}`);
  }
  await new Promise((r) => setTimeout(r, delayMs));
  child.kill("SIGINT");
  const done = await output;
  const stderr = new TextDecoder().decode(done.stderr);
  assert(await waitFor(async () => (await processesWithTmpdir(tmp)).length === 0, 5000), "processes left");
  const result = parseResult(await Deno.readTextFile(file));
  return { tmp, file, code: done.code, stderr, result, reached: (await entries(marks)).sort() };
}

/** What a record kept: its status and every run's place in the schedule. */
function kept(result: BenchResult) {
  return result.records.map((r) => ({
    id: r.id,
    status: r.status,
    runs: r.runs.map((run) => `${run.index}@${run.round}.${run.slot}`),
  }));
}

/** The one line an interrupted suite ends with. */
function lastLine(stderr: string): string {
  return stderr.trim().split("\n").at(-1)!;
}

Deno.test("SIGINT while a variant is prepared: the variants before it kept whole, the file marked, exit 130", () =>
  withTmp(async (tmp) => {
    const run = await interruptAt(tmp, "setup-second", "setup-second", ["--duration", "0.2"]);
    assertEquals(run.code, 130, run.stderr);
    assertEquals(kept(run.result), [
      { id: IDS[0], status: "completed", runs: ["0@0.0", "1@1.1", "2@2.0"] },
      { id: IDS[1], status: "completed", runs: ["0@0.1", "1@1.0", "2@2.1"] },
    ]);
    const stop = run.result.interrupted!;
    assertEquals([stop.signal, stop.reason, stop.remaining], ["SIGINT", "interrupted by SIGINT", IDS.slice(2)]);
    assertEquals(run.result.finishedAt, stop.at);
    assertEquals(
      lastLine(run.stderr),
      `rtbench: interrupted by SIGINT; ${run.file} keeps 2 finished records (2 records not started); ` +
        `go on with: deno task bench --workload-file ${FIXTURE} --resume ${run.file}`,
    );
    // The report says first that the file is partial.
    const report = await new Deno.Command(Deno.execPath(), {
      args: ["run", "--allow-read", `${ROOT}runners/cli/main.ts`, "report", run.file],
      stdout: "piped",
    }).output();
    assertMatch(
      new TextDecoder().decode(report.stdout).split("\n")[0],
      /^Partial result: interrupted by SIGINT at .* UTC; 2 planned records not finished; deno task bench --resume/,
    );
    // So does compare, before its table.
    const compare = await new Deno.Command(Deno.execPath(), {
      args: ["run", "--allow-read", `${ROOT}runners/cli/main.ts`, "compare", run.file, run.file],
      stdout: "piped",
    }).output();
    assertMatch(
      new TextDecoder().decode(compare.stdout).split("\n")[0],
      new RegExp(`^${run.file}: Partial result: interrupted by SIGINT at .* UTC; 2 planned records not finished`),
    );
  }));

Deno.test("SIGINT after the first round: each record keeps its first run, and --resume goes on from it", () =>
  withTmp(async (tmp) => {
    // Round 1 starts with node (rotate): held there, before its server starts.
    const run = await interruptAt(tmp, "before-first-node-1", "before-first-node-1", ["--duration", "0.2"]);
    assertEquals(run.code, 130, run.stderr);
    assertEquals(kept(run.result), [
      { id: IDS[0], status: "interrupted", runs: ["0@0.0"] },
      { id: IDS[1], status: "interrupted", runs: ["0@0.1"] },
    ]);
    assertEquals(run.result.records.map((r) => r.error?.message), [
      "interrupted by SIGINT after 1 of 3 runs",
      "interrupted by SIGINT after 1 of 3 runs",
    ]);
    assertEquals(run.result.interrupted!.remaining, IDS);
    assertMatch(
      lastLine(run.stderr),
      /keeps 0 finished records and the finished runs of 2 more \(2 records not started\)/,
    );
    const before = run.result;

    const resumed = await runCli(["--workload-file", FIXTURE, "--resume", run.file, "--quiet"], {
      TMPDIR: run.tmp,
      CHECKPOINTS: `${run.tmp}/marks`,
    });
    assertEquals(resumed.code, 0, resumed.stderr);
    const after = parseResult(await Deno.readTextFile(run.file));
    assertEquals(after.interrupted, undefined);
    assertEquals(kept(after), [
      { id: IDS[0], status: "completed", runs: ["0@0.0", "1@1.1", "2@2.0"] },
      { id: IDS[1], status: "completed", runs: ["0@0.1", "1@1.0", "2@2.1"] },
      { id: IDS[2], status: "completed", runs: ["0@0.0", "1@1.1", "2@2.0"] },
      { id: IDS[3], status: "completed", runs: ["0@0.1", "1@1.0", "2@2.1"] },
    ]);
    for (const i of [0, 1]) {
      assertEquals(after.records[i].runs[0], before.records[i].runs[0], "the kept run is the one measured before");
      assertEquals(after.records[i].startedAt, before.records[i].startedAt);
      assertEquals(after.records[i].summary.requestsPerSecond.n, 3);
    }
    assertMatch(after.warnings.at(-1)!.message, /from 0 done records and 2 interrupted ones; 4 measured now/);
  }));

Deno.test("SIGINT in the middle of a run: the finished round is kept, the run cut short is not", () =>
  withTmp(async (tmp) => {
    // node's second run: its server is up and under load for 2 s when the signal comes.
    const run = await interruptAt(tmp, "before-first-node-1", "", ["--duration", "2"], 1200);
    assertEquals(run.code, 130, run.stderr);
    assertEquals(kept(run.result), [
      { id: IDS[0], status: "interrupted", runs: ["0@0.0"] },
      { id: IDS[1], status: "interrupted", runs: ["0@0.1"] },
    ]);
    assert(!run.reached.includes("before-first-deno-1"), `deno's second run never began: ${run.reached}`);
    assertEquals(run.result.interrupted!.remaining, IDS);
    assertEquals(await entries(run.tmp), ["marks", "r.json"], "nothing else left");
  }));

Deno.test("the default suite interrupted after its first round keeps that round", () =>
  withTmp(async (tmp) => {
    const file = `${tmp}/r.json`;
    // The default suite's plan and order; its windows short, without http-json's fixed-rate and idle phases (the round
    // is the point, not what a run measures).
    const short = ["--duration", "0.3", "--warmup", "0", "--cpu-rate", "0", "--idle-connections", "0"];
    const child = spawnCli(["--quiet", ...short, "--out", file], { TMPDIR: tmp });
    const output = child.output();
    // Each run starts a fresh server from the record's directory: the fourth is round 1's first.
    const servers = new Set<string>();
    const started = await waitFor(async () => {
      for (const line of await processesWithTmpdir(tmp)) {
        const [pid] = line.trim().split(/\s+/);
        if (/\/records\/\d+\/http_json\./.test(line) && !line.includes("engine/_child")) servers.add(pid);
      }
      return servers.size >= 4;
    }, 300_000);
    assert(started, `round 1 never started (servers seen: ${servers.size})`);
    child.kill("SIGINT");
    const done = await output;
    const stderr = new TextDecoder().decode(done.stderr);
    assertEquals(done.code, 130, stderr);
    const result = parseResult(await Deno.readTextFile(file));
    assertEquals(kept(result), [
      { id: "http-json/default/deno", status: "interrupted", runs: ["0@0.0"] },
      { id: "http-json/default/node", status: "interrupted", runs: ["0@0.1"] },
      { id: "http-json/default/bun", status: "interrupted", runs: ["0@0.2"] },
    ]);
    assertEquals(result.interrupted!.remaining.length, 57);
    assert(result.records.every((r) => r.runs[0].figures.requestsPerSecond > 0));
    assert(await waitFor(async () => (await processesWithTmpdir(tmp)).length === 0, 5000), "processes left");
  }));

// docs/guide.md "Nothing lost: `--resume`": a suite that cannot wind down after SIGINT (a hook ignoring the signal) is
// left after a few seconds, its children killed; the file still says it was interrupted, by which signal, and what is
// left, because it is marked the moment the signal arrives, not only once everything has stopped.
Deno.test("SIGINT while a hook ignores it: left after the wind-down, the file marked interrupted all the same", () =>
  withTmp(async (tmp) => {
    const stuck = await interruptAt(tmp, "before-first-node-1", "before-first-node-1", ["--duration", "0.2"], 0, {
      CHECKPOINT_STUCK: "1",
    });
    assertEquals(stuck.code, 130, stuck.stderr);
    assertEquals(stuck.result.interrupted?.signal, "SIGINT");
    assertEquals(stuck.result.interrupted?.remaining, IDS);
    assertEquals(await entries(tmp), ["marks", "r.json"]);
  }));
