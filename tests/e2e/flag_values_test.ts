// README walk: shows claims of docs/reference.md "Exit codes" (2) and docs/guide.md "Faults tried" (a wrong value for every flag).
// Every flag of every task, each given a wrong value: exit 2, one line naming the flag, no stack trace, nothing
// started, no file left. The flags come from each task's own --help, so a flag added without a row here fails the
// test, and a row for a flag that is gone fails it too.
import { assertEquals } from "@std/assert";
import {
  denoTasks,
  devTools,
  entries,
  processesWithTmpdir,
  ROOT,
  runDevTool,
  runTask,
  waitFor,
  withTmp,
} from "../_helpers.ts";

/**
 * Per task, per flag of its --help: arguments that give that flag a wrong value (and what else it needs), with the
 * files they name in `tmp` (see {@linkcode wrongFiles}).
 */
function wrongValues(tmp: string): Record<string, Record<string, string[]>> {
  const result = `${tmp}/result.json`;
  const notDir = `${tmp}/file.txt`;
  const history = `${ROOT}fixtures/history`;
  return {
    bench: {
      "--workload": ["--workload", "nope"],
      "--runtime": ["--runtime", "rhino"],
      "--last": ["--last", "0"],
      "--variant": ["--variant", "turbo"],
      "--profile": ["--profile", "fast"],
      "--duration": ["--duration", "0"],
      "--warmup": ["--warmup", "-1"],
      "--connections": ["--connections", "0"],
      "--runs": ["--runs", "two"],
      "--pipelining": ["--pipelining", "0"],
      "--keep-alive": ["--keep-alive", "maybe"],
      "--timeout": ["--timeout", "0"],
      "--start-timeout": ["--start-timeout", "-5"],
      "--min-runs": ["--min-runs", "1"],
      "--max-runs": ["--max-runs", "1.5"],
      "--ci-target": ["--min-runs", "3", "--ci-target", "0"],
      "--load-generator": ["--load-generator", "ab"],
      "--sample-interval": ["--sample-interval", "1"],
      "--rate": ["--rate", "0"],
      "--phases": ["--phases", "10x"],
      "--arrival": ["--rate", "100", "--arrival", "sideways"],
      "--sweep": ["--sweep=garbage"],
      "--sweep-steps": ["--sweep", "--sweep-steps", "1"],
      "--slo-p99": ["--sweep", "--slo-p99", "0"],
      "--server-cpus": ["--server-cpus", "0"],
      "--port": ["--port", "70000"],
      "--host": ["--host", "192.0.2.77"],
      "--workload-file": ["--workload-file", `${tmp}/missing.ts`],
      "--server-host": ["--server-host", "nosuchhost.invalid"],
      "--client-host": ["--client-host", "user@@host"],
      "--db-host": ["--workload", "postgres", "--db-host", "nosuchhost.invalid"],
      "--ssh-config": ["--server-host", "nosuchhost.invalid", "--ssh-config", `${tmp}/missing_config`],
      "--order": ["--order", "random"],
      "--seed": ["--seed", "-1"],
      "--resume": ["--resume", `${tmp}/missing.json`],
      "--history": ["--history", notDir],
      "--fail-on-regression": ["--history", `${tmp}/h`, "--fail-on-regression", "-1"],
      "--bcrypt-cost": ["--workload", "bcrypt", "--bcrypt-cost", "3"],
      "--database-url": ["--workload", "postgres", "--database-url", "mysql://x"],
      "--pool": ["--workload", "postgres", "--pool", "0"],
      "--warmup-runs": ["--workload", "startup", "--warmup-runs", "-1"],
      "--install-manifest": ["--workload", "install", "--install-manifest", `${tmp}/missing.json`],
      "--package-manager": ["--workload", "install", "--package-manager", "pip"],
      "--fs-files": ["--workload", "fs", "--fs-files", "0"],
      "--fs-file-bytes": ["--workload", "fs", "--fs-file-bytes", "0"],
      "--message-size": ["--workload", "ws", "--message-size", "2"],
      "--in-flight": ["--workload", "ws", "--in-flight", "0"],
      "--messages": ["--workload", "ws", "--messages", "0"],
      "--format": ["--format", "pdf"],
      "--out": ["--out", tmp],
      "--json": ["--json=yes"],
      "--list": ["--list=yes"],
      "--quiet": ["--quiet=1"],
      "--debug": ["--debug=1"],
      "--version": ["--version=1"],
      "--help": ["--help=1"],
      "--aa": ["--aa=yes"],
      "--pairing": ["--pairing", "trio"],
      "--cpu-rate": ["--cpu-rate", "-1"],
      "--idle-connections": ["--idle-connections", "x"],
      "--noise-floor": ["--history", `${tmp}/h`, "--fail-on-regression", "5", "--noise-floor", `${tmp}/missing.json`],
      "--pass-env": ["--pass-env", "1BAD"],
      "--signup-workers": ["--signup-workers", "0"],
    },
    report: {
      "--format": [result, "--format", "pdf"],
      "--out": [result, "--out", notDir + "/r.txt"],
      "--debug": [result, "--debug=yes"],
      "--help": ["--help=yes"],
    },
    compare: {
      "--fail-on-regression": [result, result, "--fail-on-regression", "x"],
      "--noise-floor": [result, result, "--noise-floor", `${tmp}/missing.json`],
      "--format": [result, result, "--format", "html"],
      "--debug": [result, result, "--debug=yes"],
      "--help": ["--help=yes"],
    },
    trend: {
      "--format": [history, "--format", "csv"],
      "--out": [history, "--out", tmp],
      "--fail-on-regression": [history, "--fail-on-regression", "-3"],
      "--debug": [history, "--debug=yes"],
      "--help": ["--help=yes"],
    },
    "compare-startup": {
      "--runtime": ["--runtime", "rhino"],
      "--variant": ["--variant", "warm"],
      "--rounds": ["--rounds", "1"],
      "--batch": ["--batch", "1"],
      "--debug": ["--debug=yes"],
      "--help": ["--help=yes"],
    },
    "ws-ceiling": {
      "--runtime": ["--runtime", "rhino"],
      "--duration": ["--duration", "0"],
      "--connections": ["--connections", "0"],
      "--message-size": ["--message-size", "2"],
      "--debug": ["--debug=yes"],
      "--help": ["--help=yes"],
    },
    calibrate: {
      "--runtime": ["--runtime", "rhino"],
      "--duration": ["--duration", "x"],
      "--warmup": ["--warmup", "-1"],
      "--connections": ["--connections", "0"],
      "--load-generator": ["--load-generator", "ab"],
      "--json": ["--json=yes"],
      "--debug": ["--debug=yes"],
      "--help": ["--help=yes"],
    },
    "fair-share": {
      "--workload": ["--workload", "nope"],
      "--runtime": ["--runtime", "rhino"],
      "--budgets": ["--budgets", "0"],
      "--duration": ["--duration", "0"],
      "--warmup": ["--warmup", "-1"],
      "--runs": ["--runs", "two"],
      "--out-dir": ["--out-dir", notDir],
      "--debug": ["--debug=yes"],
    },
    reproduce: {
      "--claim": ["--claim", "nope"],
      "--full": ["--full=yes"],
      "--as-published": ["--as-published=yes"],
      "--runs": ["--runs", "0"],
      "--markdown": ["--markdown=yes"],
      "--out": ["--out", `${notDir}/r.json`],
      "--list": ["--list=yes"],
      "--debug": ["--debug=yes"],
    },
    "vs-wrk": {
      "--runtime": ["--runtime", "rhino"],
      "--rounds": ["--rounds", "0"],
      "--duration": ["--duration", "0.5"],
      "--warmup": ["--warmup", "-1"],
      "--connections": ["--connections", "0"],
      "--locust": ["--locust=yes"],
      "--debug": ["--debug=yes"],
      "--help": ["--help=yes"],
    },
    "order-drift": {
      "--runtime": ["--runtime", "deno"],
      "--runs": ["--runs", "1"],
      "--repeats": ["--repeats", "0"],
      "--duration": ["--duration", "0"],
      "--warmup": ["--warmup", "-1"],
      "--debug": ["--debug=yes"],
      "--help": ["--help=yes"],
    },
    kinds: {
      "--check": ["--check=yes"],
      "--debug": ["--debug=yes"],
      "--help": ["--help=yes"],
    },
    "results-page": {
      "--debug": ["--debug=yes"],
      "--help": ["--help=yes"],
    },
    "schema-json": {
      "--check": ["--check=yes"],
      "--debug": ["--debug=yes"],
      "--help": ["--help=yes"],
    },
    "reaper-cost": {
      "--groups": ["--groups", "-1"],
      "--messages": ["--messages", "x"],
      "--idle": ["--idle", "-1"],
      "--debug": ["--debug=yes"],
      "--help": ["--help=yes"],
    },
  };
}

/** The files the wrong values name: a result to report on, and a file where a folder is wanted. */
async function wrongFiles(tmp: string): Promise<void> {
  await Deno.copyFile(`${ROOT}fixtures/results/base.json`, `${tmp}/result.json`);
  await Deno.writeTextFile(`${tmp}/file.txt`, "not a folder\n");
}

/** Every task of deno.json that runs one of rtbench's commands, and every development tool of runners/dev/. */
const TASKS = [
  ...Object.entries(await denoTasks()).filter(([, command]) => / runners\/cli\/main\.ts \w+$/.test(command))
    .map(([name]) => name),
  ...await devTools(),
];

/** Runs a task, or a development tool by its name. */
async function runNamed(name: string, args: string[], env: Record<string, string> = {}) {
  return (await devTools()).includes(name) ? await runDevTool(name, args, env) : await runTask(name, args, env);
}

/** The flags a task's --help lists, one row each (`  --flag, -f <value>  meaning`). */
async function helpFlags(task: string): Promise<string[]> {
  const help = await runNamed(task, ["--help"]);
  assertEquals(help.code, 0, `${task} --help: ${help.stderr}`);
  return [...help.stdout.matchAll(/^ {2}(--[a-z0-9-]+)/gm)].map((m) => m[1]);
}

Deno.test("every task's --help lists its flags, and each has a row here", async () => {
  const WRONG = wrongValues("/nonexistent");
  assertEquals(TASKS.sort(), Object.keys(WRONG).sort(), "a task without rows, or rows for a task that is gone");
  for (const task of TASKS) {
    assertEquals((await helpFlags(task)).sort(), Object.keys(WRONG[task]).sort(), `${task}: --help against the rows`);
  }
});

Deno.test("a wrong value for every flag of every task: exit 2, one line naming the flag, nothing left", () =>
  withTmp(async (tmp) => {
    await wrongFiles(tmp);
    // Each case its own missing folder: runs at once must not see each other's folder come and go.
    const cases = Object.entries(wrongValues(tmp)).flatMap(([task, rows]) =>
      Object.entries(rows).map(([flag, args]) => ({ task, flag, args }))
    ).map((c, i) => ({
      ...c,
      args: c.task === "bench" && !c.args.includes("--out") ? [...c.args, "--out", `${tmp}/out-${i}/r.json`] : c.args,
    }));
    const failures: string[] = [];
    // Four at a time: each case is a process start, and the machine is small.
    for (let i = 0; i < cases.length; i += 4) {
      await Promise.all(
        cases.slice(i, i + 4).map(async ({ task, flag, args }) => {
          await withTmp(async (work) => {
            const run = await runNamed(task, args, { TMPDIR: work, RTBENCH_CACHE_DIR: `${tmp}/cache` });
            const label = `deno task ${task} ${args.join(" ")}`;
            const lines = run.stderr.trim().split("\n");
            const problems = [
              run.code !== 2 && `exit ${run.code}`,
              lines.length !== 1 && `${lines.length} lines`,
              !lines[0].includes(flag) && `the message does not name ${flag}`,
              run.stderr.includes("    at ") && "a stack trace",
              run.stdout !== "" && "output on stdout",
              // The children reaper outlives its harness by a moment.
              !(await waitFor(async () => (await processesWithTmpdir(work)).length === 0, 5000)) && "processes left",
              (await entries(work)).length > 0 && "files left in TMPDIR",
            ].filter(Boolean);
            if (problems.length > 0) failures.push(`${label}: ${problems.join(", ")}\n  ${run.stderr.trim()}`);
          });
        }),
      );
    }
    assertEquals(failures, []);
    // A refused run leaves no result file, nor the folder made for it.
    const left = (await entries(tmp)).filter((name) => name.startsWith("out-"));
    assertEquals(left, [], "--out folders left");
  }));
