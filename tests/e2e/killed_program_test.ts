// README walk: shows claims of docs/guide.md "Nothing left running" (a program built on run(), killed).
// A program that imports run() (tests/fixtures/killed_program.ts), killed with SIGTERM (no handler: the runtime's
// default ends it at once) or SIGKILL as soon as its server runs, leaves no process and no temporary path 5 s later:
// with a plain server, and with the postgres workload's embedded PostgreSQL. The CLI under SIGKILL with the embedded
// PostgreSQL likewise (abrupt_exit_test shows it with a plain server). A killed run whose reaper was killed with it
// leaves its temporary directory to the next start, which removes it, and never one of a run still alive.
// Runs alone: "nothing left 5 s later" is a deadline, which a neighbour's load stretches.
import { assert, assertEquals } from "@std/assert";
import { sweepLedgers } from "../../runners/platform/reaper.ts";
import {
  BENCH_PERMISSIONS,
  entries,
  exists,
  processesMatching,
  processesWithTmpdir,
  ROOT,
  runCli,
  spawnCli,
  waitFor,
  withTmp,
} from "../_helpers.ts";

const PROGRAM = `${ROOT}tests/fixtures/killed_program.ts`;

function program(mode: "plain" | "postgres" | "hold", tmp: string): Deno.ChildProcess {
  return new Deno.Command(Deno.execPath(), {
    args: ["run", ...BENCH_PERMISSIONS, PROGRAM, mode],
    cwd: ROOT,
    env: { NO_COLOR: "1", TMPDIR: tmp },
    stdout: "piped",
    stderr: "piped",
    stdin: "null",
  }).spawn();
}

/** Processes as `ps` lists them: pid, parent, and the command line (empty for a zombie). */
async function ps(): Promise<{ pid: number; ppid: number; line: string }[]> {
  const out = await new Deno.Command("ps", { args: ["-eo", "pid=,ppid=,stat=,args="], stdout: "piped" }).output();
  return new TextDecoder().decode(out.stdout).split("\n").filter(Boolean).map((line) => {
    const [pid, ppid, stat] = line.trim().split(/\s+/);
    return { pid: Number(pid), ppid: Number(ppid), line: stat.startsWith("Z") ? "" : line.trim().slice(0, 300) };
  });
}

/**
 * The run's processes: those started with its TMPDIR or naming it, and everything they started (PostgreSQL's workers
 * rename themselves, hiding both).
 */
async function runProcesses(tmp: string): Promise<Set<number>> {
  const roots = [...await processesWithTmpdir(tmp), ...await processesMatching(tmp)];
  const found = new Set(roots.map((l) => Number(l.trim().split(/\s+/)[0])));
  const all = await ps();
  for (let before = -1; before !== found.size;) {
    before = found.size;
    for (const p of all) if (found.has(p.ppid)) found.add(p.pid);
  }
  return found;
}

/**
 * Kills `child` with `signal` once the server under test runs (`server` names its file), then awaits its end; returns
 * the run's processes just before the signal.
 */
async function killWhenServing(
  child: Deno.ChildProcess,
  tmp: string,
  server: RegExp,
  signal: Deno.Signal,
): Promise<Set<number>> {
  const output = child.output();
  const up = await waitFor(async () => (await processesWithTmpdir(tmp)).some((p) => server.test(p)), 120_000);
  const processes = await runProcesses(tmp);
  child.kill(signal);
  const done = await output;
  assert(up, `the server started: ${new TextDecoder().decode(done.stderr)}`);
  assertEquals(done.signal, signal);
  return processes;
}

/**
 * Within 5 s nothing of the run is left: none of `processes`, no process started with its TMPDIR or naming it, nothing
 * in it but what is `kept`.
 */
async function assertGone(tmp: string, processes = new Set<number>(), kept: string[] = []): Promise<void> {
  const running = async () => [
    ...(await ps()).filter((p) => processes.has(p.pid) && p.line).map((p) => p.line),
    ...await processesWithTmpdir(tmp),
    ...await processesMatching(tmp),
  ];
  assert(
    await waitFor(async () => (await running()).length === 0, 5000),
    `left running:\n${(await running()).join("\n")}`,
  );
  assert(
    await waitFor(async () => (await entries(tmp)).every((name) => kept.includes(name)), 5000),
    `left in TMPDIR: ${(await entries(tmp)).join(", ")}`,
  );
}

const PLAIN = /\/records\/\d+\/http_json\.mjs/;
const POSTGRES = /\/records\/\d+\/postgres\.mjs/;

for (const signal of ["SIGTERM", "SIGKILL"] as const) {
  // docs/guide.md "Nothing left running": "a program built on `run()` … killed with SIGTERM or SIGKILL".
  Deno.test(`a program calling run() with a plain server, killed with ${signal}: nothing left 5 s later`, async () => {
    await withTmp(async (tmp) => {
      await assertGone(tmp, await killWhenServing(program("plain", tmp), tmp, PLAIN, signal));
    });
  });

  Deno.test(`a program calling run() with the embedded PostgreSQL, killed with ${signal}: nothing left 5 s later`, async () => {
    await withTmp(async (tmp) => {
      const processes = await killWhenServing(program("postgres", tmp), tmp, POSTGRES, signal);
      assert(processes.size >= 8, `PostgreSQL and its workers among ${[...processes]}`);
      await assertGone(tmp, processes);
    }, { database: true });
  });
}

Deno.test("the CLI with the embedded PostgreSQL, killed with SIGKILL: nothing left 5 s later", async () => {
  await withTmp(async (tmp) => {
    const args = ["--workload", "postgres", "--variant", "db", "--runtime", "node", "--duration", "60", "--runs", "1"];
    const cli = spawnCli([...args, "--out", `${tmp}/r.json`], { TMPDIR: tmp });
    await assertGone(tmp, await killWhenServing(cli, tmp, POSTGRES, "SIGKILL"), ["r.json"]);
  }, { database: true });
});

// docs/guide.md "Nothing left running": "the next start removes them; never those of a run still alive".
Deno.test("a killed run whose reaper died with it: the next start removes its directory, not a live run's", async () => {
  await withTmp(async (tmp) => {
    const held = async () => {
      const child = program("hold", tmp);
      const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
      const dir = (await reader.read()).value!.trim();
      await reader.cancel();
      await child.stderr.cancel();
      // Its reaper's command line names the program's ledger, `<cache>/owned/<pid>-<token>`.
      const [reaper] = await processesMatching(`/owned/${child.pid}-`);
      return { child, dir, reaper: Number(reaper?.trim().split(" ")[0]) };
    };
    const [killed, live] = [await held(), await held()];
    assert(Number.isInteger(killed.reaper), "the killed program's reaper was found");
    // A whole container stopped: the program and its reaper at once.
    Deno.kill(killed.reaper, "SIGKILL");
    killed.child.kill("SIGKILL");
    await killed.child.status;
    assert(await exists(killed.dir), "the killed run's directory is left");
    const start = await runCli(["--help"], { TMPDIR: tmp });
    assertEquals(start.code, 0, start.stderr);
    assertEquals([await exists(killed.dir), await exists(live.dir)], [false, true]);
    live.child.kill("SIGTERM");
    await live.child.status;
    await assertGone(tmp);
  });
});

// docs/guide.md "Nothing left running": a start sweeps the ledgers of killed runs, but not one whose reaper is yet to
// read it — another rtbench starting in the second after a kill took the ledger from under the reaper, whose server
// then ran on.
Deno.test("a killed run whose reaper still runs: another start leaves its ledger to the reaper", async () => {
  await withTmp(async (tmp) => {
    const gone = new Deno.Command("true").spawn();
    await gone.status;
    const owned = `${tmp}/owned`;
    const ledger = `${owned}/${gone.pid}-abcd1234`;
    const path = `${tmp}/rtbench-killed-run`;
    await Deno.mkdir(path, { recursive: true });
    await Deno.mkdir(owned);
    await Deno.writeTextFile(ledger, `${JSON.stringify({ path })}\n`);
    // A stand-in for its reaper: a process whose command line names the ledger, as the reaper's does.
    const reaper = new Deno.Command("sh", { args: ["-c", "sleep 30", ledger] }).spawn();
    try {
      assertEquals(await sweepLedgers(owned), []);
      assertEquals([await exists(ledger), await exists(path)], [true, true]);
    } finally {
      reaper.kill("SIGKILL");
      await reaper.status;
    }
    assertEquals(await sweepLedgers(owned), [path]);
    assertEquals([await exists(ledger), await exists(path)], [false, false]);
  });
});
