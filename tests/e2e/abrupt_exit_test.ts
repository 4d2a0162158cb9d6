// README walk: shows claims of docs/reference.md "Exit codes" (129) and docs/guide.md "Nothing left running" (the children reaper).
// The harness ending abruptly: killed with SIGKILL (the children reaper stops its servers and removes its
// temporary files), an uncaught exception or an unhandled rejection (global handlers clean up and exit 1 with
// one line), and `deno task` killed under it (the orphaned harness stops itself).
// Runs alone: "nothing left 6 s later" is a deadline, which a neighbour's load stretches.
import { assert, assertEquals, assertMatch } from "@std/assert";
import { parseResult } from "../../runners/schema/mod.ts";
import {
  BENCH_PERMISSIONS,
  devTools,
  entries,
  processesWithTmpdir,
  ROOT,
  spawnCli,
  waitFor,
  withTmp,
} from "../_helpers.ts";
import { docSection } from "../_docs.ts";

const LONG_RUN = ["--workload", "http-json", "--runtime", "deno", "--duration", "30", "--warmup", "0", "--runs", "1"];

async function serverUp(tmp: string): Promise<boolean> {
  return await waitFor(async () => (await processesWithTmpdir(tmp)).some((p) => p.includes("http_json")), 60_000);
}

async function assertClean(tmp: string, within: number): Promise<void> {
  assert(
    await waitFor(async () => (await processesWithTmpdir(tmp)).length === 0, within),
    `left running:\n${(await processesWithTmpdir(tmp)).join("\n")}`,
  );
  assert(
    await waitFor(async () => (await entries(tmp)).every((name) => name === "r.json"), within),
    `left in TMPDIR: ${(await entries(tmp)).join(", ")}`,
  );
  parseResult(await Deno.readTextFile(`${tmp}/r.json`));
}

// docs/guide.md "Faults tried": "harness killed with SIGKILL".
Deno.test("SIGKILL of the harness: the reaper stops its server and load generator and removes its files", async () => {
  await withTmp(async (tmp) => {
    const child = spawnCli([...LONG_RUN, "--out", `${tmp}/r.json`], { TMPDIR: tmp });
    const output = child.output();
    assert(await serverUp(tmp), "a server started");
    child.kill("SIGKILL");
    assertEquals((await output).signal, "SIGKILL");
    await assertClean(tmp, 5000);
  });
});

for (
  const [name, message] of [
    ["throws-uncaught", "thrown from a timer in a workload hook"],
    ["rejects-unhandled", "rejected in a workload hook, never handled"],
  ]
) {
  // docs/guide.md "Faults tried": "uncaught exception or unhandled rejection in a workload hook".
  Deno.test(`${name}: one line, exit 1, nothing left running or on disk`, async () => {
    await withTmp(async (tmp) => {
      const args = ["--workload-file", "tests/fixtures/uncaught.ts", "--workload", name, "--runtime", "deno"];
      const out = await spawnCli([...args, "--out", `${tmp}/r.json`], { TMPDIR: tmp }).output();
      const stderr = new TextDecoder().decode(out.stderr);
      assertEquals(out.code, 1, stderr);
      // Besides the progress line of the variant that started, the one line.
      const lines = stderr.trim().split("\n").filter((l) => !/^\[\d+:\d\d\] → /.test(l));
      assertEquals(lines, [`rtbench: internal error: ${message} (--debug shows the stack)`]);
      await assertClean(tmp, 5000);
      // --debug adds the stack.
      const debug = await spawnCli([...args, "--out", `${tmp}/r.json`, "--debug"], { TMPDIR: tmp }).output();
      const debugErr = new TextDecoder().decode(debug.stderr);
      assertEquals(debug.code, 1);
      assertMatch(
        debugErr,
        new RegExp(`^(\\[\\d+:\\d\\d\\] → .*\\n)?rtbench: internal error: ${message}\\n(.|\\n)*    at .*uncaught\\.ts`),
      );
      await assertClean(tmp, 5000);
    });
  });
}

// docs/guide.md "Faults tried": "`deno task` sent SIGTERM".
Deno.test("deno task sent SIGTERM forwards it: the harness exits 143 and cleans up", async () => {
  await withTmp(async (tmp) => {
    const task = new Deno.Command(Deno.execPath(), {
      args: ["task", "-q", "bench", ...LONG_RUN, "--out", `${tmp}/r.json`],
      cwd: ROOT,
      env: { NO_COLOR: "1", TMPDIR: tmp },
      stdout: "null",
      stderr: "piped",
    }).spawn();
    const output = task.output();
    assert(await serverUp(tmp), "a server started");
    task.kill("SIGTERM");
    const done = await output;
    assertEquals(done.code, 143, new TextDecoder().decode(done.stderr));
    assertMatch(
      new TextDecoder().decode(done.stderr),
      /rtbench: interrupted by SIGTERM; \S+r\.json keeps .*go on with: deno task bench --resume \S+r\.json$/m,
    );
    await assertClean(tmp, 5000);
  });
});

// docs/guide.md "Faults tried": "`deno task` killed with SIGKILL".
Deno.test("deno task killed with SIGKILL: the orphaned harness stops itself and cleans up", async () => {
  await withTmp(async (tmp) => {
    const task = new Deno.Command(Deno.execPath(), {
      args: ["task", "-q", "bench", ...LONG_RUN, "--out", `${tmp}/r.json`],
      cwd: ROOT,
      env: { NO_COLOR: "1", TMPDIR: tmp },
      stdout: "null",
      stderr: "null",
    }).spawn();
    assert(await serverUp(tmp), "a server started");
    task.kill("SIGKILL");
    await task.status;
    // The harness checks its parent once a second, then has the usual 5 s.
    await assertClean(tmp, 6000);
  });
});

// docs/guide.md "No shell, explicit permissions": the bench task's permissions, each named there.
Deno.test("the bench task runs with the permissions docs/guide.md lists, not -A", () => {
  const readme = docSection("docs/guide.md", "### No shell, explicit permissions");
  assert(!BENCH_PERMISSIONS.includes("--allow-all") && BENCH_PERMISSIONS.length > 0);
  for (const permission of BENCH_PERMISSIONS) {
    assert(readme.includes(`\`${permission}\``), `docs/guide.md lists ${permission}`);
  }
});

// docs/guide.md (Nothing left running): "Every command that starts processes (`bench`, `calibrate`, `reproduce`, and
// the development tools) runs through one lifecycle (`runners/platform/entry.ts`)"; the commands that only read results
// (`report`, `compare`, `trend`) through the light one of `runners/cli/_entry.ts`. Every task of deno.json runs
// runners/cli/main.ts with a command, and each command's file and each tool of runners/dev/ calls one of them once.
Deno.test("every deno task's command runs through runEntry, or runReading when it only reads", async () => {
  const tasks: Record<string, string> = JSON.parse(await Deno.readTextFile(`${ROOT}deno.json`)).tasks;
  const commands = Object.values(tasks).flatMap((t) => /runners\/cli\/main\.ts (\w+)$/.exec(t)?.[1] ?? []);
  assertEquals(commands.sort(), ["bench", "calibrate", "compare", "report", "reproduce", "trend"]);
  const tools = (await devTools()).map((name) => `runners/dev/${name.replaceAll("-", "_")}.ts`);
  assert(tools.length >= 7, tools.join(" "));
  const reading = ["compare", "report", "trend"];
  for (const file of [...commands.map((c) => `runners/cli/${c}.ts`), ...tools]) {
    const source = await Deno.readTextFile(`${ROOT}${file}`);
    if (reading.some((c) => file === `runners/cli/${c}.ts`)) {
      assertMatch(source, /import \{[^}]*\brunReading\b[^}]*\} from "\.\/_entry\.ts"/, file);
      assertEquals(source.match(/\brunReading\(/g)?.length, 1, file);
      continue;
    }
    assertMatch(source, /import \{[^}]*\brunEntry\b[^}]*\} from "\.\.\/platform\/(entry|mod)\.ts"/, file);
    assertEquals(source.match(/\brunEntry\(/g)?.length, 1, file);
  }
});
