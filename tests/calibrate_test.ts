// README walk: shows claims of README "Calibrate and check" (calibrate; vs-wrk is only tried with bad input, in entry_points_test).
// deno task calibrate: one row per installed load generator with its rate,
// client and server CPU and what limits it; bad flags exit 2.
import { assert, assertEquals, assertMatch } from "@std/assert";
import { builtinLoadGenerators } from "../runners/drivers/generators.ts";
import { BENCH_PERMISSIONS, entries, privateTmp, processesMatching, ROOT } from "./_helpers.ts";

async function calibrate(args: string[], env: Record<string, string> = {}) {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", ...BENCH_PERMISSIONS, `${ROOT}runners/cli/calibrate.ts`, ...args],
    cwd: ROOT,
    env: { NO_COLOR: "1", ...env },
    stdout: "piped",
    stderr: "piped",
  }).output();
  const dec = new TextDecoder();
  return { code: out.code, stdout: dec.decode(out.stdout), stderr: dec.decode(out.stderr) };
}

Deno.test("calibrate prints every installed generator's ceiling", async () => {
  const tmp = await privateTmp();
  const run = await calibrate(["--duration", "1", "--warmup", "0"], { TMPDIR: tmp });
  assertEquals(run.code, 0, run.stderr);
  const installed = [];
  for (const g of builtinLoadGenerators) if (await g.available()) installed.push(g.name);
  if (installed.includes("wrk")) installed.splice(installed.indexOf("wrk") + 1, 0, "wrk+check");
  const rows = run.stdout.split("\n").filter((l) => /^\S+\s+\S+\s+[\d,]+\/s/.test(l));
  assertEquals(rows.map((l) => l.split(/\s+/)[0]), installed);
  for (const row of rows) assertMatch(row, /\d+% \(\d+%\)\s+\d+% \(\d+%\)\s+(\S.*(ceiling|projected|matched)|unknown)/);
  assertMatch(run.stdout, /^calibrate · http-json on deno \d/m);
  assertMatch(run.stdout, new RegExp(`--load-generator auto uses ${installed[0]}`));
  assertEquals(await processesMatching(tmp), []);
  assertEquals(await entries(tmp), []);
  await Deno.remove(tmp);
});

Deno.test("calibrate rejects an unknown generator with exit 2", async () => {
  const run = await calibrate(["--load-generator", "ab"]);
  assertEquals(run.code, 2);
  assertMatch(run.stderr.trim(), /^rtbench calibrate: --load-generator: unknown load generator "ab"/);
  assert(!run.stderr.includes("    at "));
});
