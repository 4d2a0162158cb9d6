// README walk: shows claims of docs/guide.md "Reports and comparisons" (Progress).
// The progress line: what it says for each event and how its time estimate
// learns from finished records; on a real terminal (a pty from `script`) the
// CLI draws it, with --quiet or a pipe it draws nothing.
import { assert, assertEquals, assertMatch, assertStringIncludes } from "@std/assert";
import { needs, tool } from "../_needs.ts";
import { clock, createProgress } from "../../runners/suite/progress.ts";
import type { BenchRecord } from "../../runners/schema/result.ts";
import { assertNothingLeft, BENCH_PERMISSIONS, ROOT, withTmp } from "../_helpers.ts";
import { HEAD_PATH, loadFixture } from "../_report_helpers.ts";
import { builtinWorkloads } from "../../workloads/mod.ts";
import { estimateSec, planGroups } from "../../runners/suite/plan.ts";

const head = await loadFixture(HEAD_PATH);

function fakeTerminal(columns = 200) {
  let t = 0;
  let screen = "";
  const progress = createProgress({ write: (text) => screen += text, now: () => t, columns: () => columns });
  return {
    progress,
    advance: (sec: number) => t += sec * 1000,
    take(): string {
      const s = screen;
      screen = "";
      return s;
    },
  };
}

/** The line currently shown: the text after the last erase. */
function lastLine(screen: string): string {
  return screen.split("\r\x1b[2K").at(-1)!;
}

Deno.test("progress shows workload, runtime, run and phase with elapsed and remaining time for the suite", () => {
  const term = fakeTerminal();
  const { progress } = term;
  progress.update({ type: "suite-start", records: 3, estimatedSec: 60 });
  assertMatch(lastLine(term.take()), /preparing 3 records/);
  term.advance(2);
  progress.update({ type: "record-start", index: 0, total: 3, id: "http-json/default/deno", estimatedSec: 20 });
  progress.update({ type: "phase", id: "http-json/default/deno", phase: "measure", run: 0, runs: 2 });
  const line = lastLine(term.take());
  assertStringIncludes(line, "1/3 http-json (default) · deno · run 1/2 measure");
  assertStringIncludes(line, "0:02 elapsed, ~1:00 left");
  term.advance(5);
  progress.tick();
  assertStringIncludes(lastLine(term.take()), "0:07 elapsed, ~0:55 left", "the clock moves between events");
});

Deno.test("the time left is corrected by the pace of finished records", () => {
  const term = fakeTerminal();
  const { progress } = term;
  const deno = head.records[0];
  progress.update({ type: "suite-start", records: 3, estimatedSec: 30 });
  progress.update({ type: "record-start", index: 0, total: 3, id: deno.id, estimatedSec: 10 });
  term.advance(20); // twice the estimate
  progress.update({ type: "record-end", record: deno });
  const finished = term.take();
  assertMatch(finished, /✓ http-json \(default\) · deno 2\.9\.6: [\d,]+\/s requestsPerSecond · p99 [\d.]+ ms\n/);
  progress.update({ type: "record-start", index: 1, total: 3, id: "http-json/default/node", estimatedSec: 10 });
  // 20 s of estimates left, at twice the pace: 40 s.
  assertStringIncludes(lastLine(term.take()), "0:20 elapsed, ~0:40 left · 2/3");
});

Deno.test("interleaved records: the line follows the run being measured, and time left counts runs done", () => {
  const term = fakeTerminal();
  const { progress } = term;
  progress.update({ type: "suite-start", records: 2, estimatedSec: 40 });
  for (const [index, runtime] of ["deno", "node"].entries()) {
    progress.update({ type: "record-start", index, total: 2, id: `http-json/default/${runtime}`, estimatedSec: 20 });
  }
  progress.update({ type: "phase", id: "http-json/default/deno", phase: "measure", run: 0, runs: 2 });
  assertStringIncludes(lastLine(term.take()), "1/2 http-json (default) · deno · run 1/2 measure");
  term.advance(10);
  progress.update({ type: "phase", id: "http-json/default/node", phase: "warmup", run: 0, runs: 2 });
  assertStringIncludes(lastLine(term.take()), "~0:30 left · 2/2 http-json (default) · node · run 1/2 warmup");
  term.advance(10);
  progress.update({ type: "phase", id: "http-json/default/deno", phase: "measure", run: 1, runs: 2 });
  // Deno's first run is done: 10 of 40 estimated seconds, 20 s since the work began.
  assertStringIncludes(lastLine(term.take()), "~0:30 left · 1/2 http-json (default) · deno · run 2/2 measure");
});

Deno.test("finished records keep a line each: errors, skips and warnings say so", () => {
  const term = fakeTerminal();
  const { progress } = term;
  const errored = head.records.find((r) => r.status === "errored")!;
  const flagged = head.records.find((r) => r.warnings.length > 0)!;
  const skipped: BenchRecord = { ...errored, status: "skipped", error: null, skipReason: "bun cannot do this variant" };
  progress.update({ type: "suite-start", records: 3, estimatedSec: 30 });
  term.take();
  for (const record of [errored, flagged, skipped]) progress.update({ type: "record-end", record });
  const lines = term.take().split("\n").map(lastLine);
  assertMatch(lines[0], /^✗ http-json \(default\) · node@99: errored in provision: Cannot provision node@99/);
  assertMatch(lines[1], /^✓ .*bun 1\.4\.5: .* ⚠ client-bound$/);
  assertMatch(lines[2], /^– .*: skipped: bun cannot do this variant$/);
});

// docs/guide.md "Reports and comparisons" (Progress): when stderr is not a terminal, plain lines: one as each workload
// variant starts, one per finished record.
Deno.test("not on a terminal: plain lines as a variant starts and per finished record, nothing redrawn", () => {
  let t = 0;
  let screen = "";
  const progress = createProgress({ write: (text) => screen += text, now: () => t, live: false });
  progress.update({ type: "suite-start", records: 2, estimatedSec: 30 });
  progress.update({ type: "record-start", index: 0, total: 2, id: "http-json/default/deno", estimatedSec: 20 });
  progress.update({ type: "phase", id: "http-json/default/deno", phase: "measure", run: 0, runs: 3 });
  progress.update({ type: "record-start", index: 1, total: 2, id: "http-json/default/node", estimatedSec: 10 });
  t = 83_000;
  progress.tick();
  assertEquals(screen, "[0:00] → http-json (default) · ~0:30 left\n", "one line for the variant, no redraw");
  const flagged = head.records.find((r) => r.warnings.length > 0)!;
  progress.update({ type: "record-end", record: flagged });
  progress.stop();
  assertMatch(screen, /\n\[1:23\] ✓ .*bun 1\.4\.5: .* ⚠ client-bound\n$/);
  assert(!screen.includes("\r") && !screen.includes("\x1b"), screen);
});

Deno.test("progress lines are cut to the terminal width so they redraw in place", () => {
  const term = fakeTerminal(40);
  term.progress.update({ type: "suite-start", records: 1, estimatedSec: 10 });
  term.progress.update({ type: "record-start", index: 0, total: 1, id: "http-json/default/deno", estimatedSec: 10 });
  const line = lastLine(term.take());
  assert([...line].length < 40, line);
  assert(line.endsWith("…"));
  term.progress.stop();
  assertEquals(term.take(), "\r\x1b[2K", "stop erases the line");
  assertEquals(clock(3725), "1:02:05");
});

const SCRIPT = tool("script", "apt-get install bsdutils");

/** Runs the bench CLI with stdout and stderr on a pseudo-terminal; returns everything it drew. */
async function onTerminal(args: string[], tmp: string): Promise<{ code: number; screen: string }> {
  const quote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;
  const command = [Deno.execPath(), "run", ...BENCH_PERMISSIONS, `${ROOT}runners/cli/bench.ts`, ...args].map(quote)
    .join(" ");
  const out = await new Deno.Command(SCRIPT.path!, {
    args: ["-qefc", `stty cols 200 rows 50; exec ${command}`, "/dev/null"],
    cwd: ROOT,
    env: { TMPDIR: tmp, NO_COLOR: "1" },
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).output();
  return { code: out.code, screen: new TextDecoder().decode(out.stdout) };
}

Deno.test(needs(SCRIPT, {
  name: "bench on a terminal draws the progress line; --quiet draws none",
  async fn() {
    await withTmp(async (tmp) => {
      const args = [
        "--workload",
        "http-json",
        "--runtime",
        "deno",
        "--duration",
        "0.5",
        "--warmup",
        "0",
        "--runs",
        "2",
        // The line is the point, not http-json's fixed-rate and idle phases.
        "--cpu-rate",
        "0",
        "--idle-connections",
        "0",
      ];
      const shown = await onTerminal([...args, "--out", `${tmp}/a.json`], tmp);
      assertEquals(shown.code, 0, shown.screen);
      assertStringIncludes(shown.screen, "\r\x1b[2K");
      assertMatch(shown.screen, /elapsed, ~\d+:\d\d left · 1\/1 http-json \(default\) · deno · run 2\/2 /);
      assertMatch(shown.screen, /✓ http-json \(default\) · deno [\d.]+: [\d,]+\/s requestsPerSecond/);
      assertMatch(shown.screen, /^deno [\d.]+ +[\d,]+\/s/m, "then the table");

      const quiet = await onTerminal([...args, "--out", `${tmp}/b.json`, "--quiet"], tmp);
      assertEquals(quiet.code, 0, quiet.screen);
      // (Deno itself may clear a line of its own on a terminal, with ESC[0G rather than CR.)
      assert(!quiet.screen.includes("\r\x1b[2K") && !quiet.screen.includes("elapsed"), quiet.screen);
      assertMatch(quiet.screen, /^deno [\d.]+ +[\d,]+\/s/m);

      await assertNothingLeft(tmp, ["a.json", "b.json"]);
    });
  },
}));

// docs/guide.md "Progress": the first estimate of the time left comes from each kind's estimate of a record. Seconds each
// workload × variant took for its three runtimes in a default suite on a busy 2-core machine (`deno task bench`,
// 4 min 58 s; the runs' start times in its result file), 290 s from the first run to the last record.
const MEASURED_SEC: Record<string, number> = {
  "http-json/default": 54.4,
  "uuid-file/default": 19.2,
  "bcrypt/bcryptjs": 31.6,
  "bcrypt/native": 32.0,
  "postgres/db": 8.0,
  "postgres/queries": 8.6,
  "rest-api/default": 20.6,
  "startup/hello": 4.4,
  "startup/script": 4.6,
  "install/cold": 14.9,
  "install/warm-lockfile": 2.1,
  "install/warm-no-node-modules": 13.6,
  "fs/idiomatic": 7.4,
  "fs/node-compat": 7.0,
  "micro/json": 6.7,
  "micro/uuid": 6.8,
  "micro/bcrypt": 6.4,
  "micro/url-query": 6.4,
  "ws/default": 34.5,
};

Deno.test("the default suite's first estimate is within 15% of a measured default suite, each workload within 4×", () => {
  const groups = planGroups(builtinWorkloads, "quick", {}, {}, undefined, true);
  assertEquals(groups.map((g) => `${g.workload.name}/${g.variant}`).sort(), Object.keys(MEASURED_SEC).sort());
  let total = 0;
  for (const g of groups) {
    const estimated = 3 * estimateSec(g);
    const measured = MEASURED_SEC[`${g.workload.name}/${g.variant}`];
    total += estimated;
    // Start-up's ten launches fill a second: counting each as a run of the window read 150 s for 9 s.
    assert(estimated / measured < 4 && measured / estimated < 4, `${g.workload.name}/${g.variant}: ${estimated} s`);
  }
  assert(Math.abs(total / 290 - 1) < 0.15, `${total} s estimated, 290 s measured`);
});
