// README walk: shows claims of README "Use rtbench from your own code" (a project of your own, from a checkout or JSR)
// and "Write your own workload".
// A project outside the checkout, made in a temporary directory exactly as the README says: its deno.json (the import
// line `deno add jsr:@rtbench/rtbench` writes, and `links` to a checkout at ../rtbench), the greet workload, its three
// servers and bench.ts, all taken from the README's blocks. It type-checks with no other configuration, and the README's
// command runs it: three runtimes measured, the result written and read back with rtbench's reader.
import { assert, assertEquals, assertMatch } from "@std/assert";
import { parseResult } from "../runners/schema/mod.ts";
import { entries, processesWithTmpdir, ROOT, waitFor, withTmp } from "./_helpers.ts";
import { condition, needs } from "./_needs.ts";

const README = await Deno.readTextFile(`${ROOT}README.md`);

/** The README's blocks with a `title="…"`, by title, between the headings `from` and the next `##` heading. */
function blocks(from: string): Map<string, string> {
  const start = README.indexOf(`\n${from}\n`);
  assert(start >= 0, `README has ${from}`);
  const end = README.indexOf("\n## ", start + 1);
  const text = README.slice(start, end === -1 ? undefined : end);
  return new Map([...text.matchAll(/^```\w+ title="([^"]+)"\n([\s\S]*?)^```$/gm)].map((m) => [m[1], m[2]]));
}

const files = blocks("## Use rtbench from your own code");

Deno.test("the README's deno.json from JSR and from a checkout differ only by links", () => {
  const local = JSON.parse(files.get("deno.json")!);
  const jsr = JSON.parse(files.get("deno.json (from JSR)")!);
  assertEquals(local.links, ["../rtbench"]);
  delete local.links;
  assertEquals(local, jsr);
  // The version range the docs give takes this checkout's version.
  const version = JSON.parse(Deno.readTextFileSync(`${ROOT}deno.json`)).version as string;
  assertEquals(jsr.imports["@rtbench/rtbench"], `jsr:@rtbench/rtbench@^${version.split(".").slice(0, 2).join(".")}.0`);
});

Deno.test("a project of its own, made as the README says, type-checks and runs its workload, reading the result back", () =>
  withTmp(async (tmp) => {
    // The checkout next to the project, as the README puts it.
    await Deno.symlink(ROOT.replace(/\/$/, ""), `${tmp}/rtbench`);
    const project = `${tmp}/greet`;
    for (const [name, text] of files) {
      if (name.includes("(")) continue;
      await Deno.mkdir(`${project}/${name}`.replace(/\/[^/]+$/, ""), { recursive: true });
      await Deno.writeTextFile(`${project}/${name}`, text);
    }
    assertEquals(
      (await entries(project)).sort(),
      ["bench.ts", "deno.json", "greet.ts", "servers"],
      "the README gives the project's files",
    );
    const deno = (args: string[]) =>
      new Deno.Command(Deno.execPath(), {
        args,
        cwd: project,
        env: { TMPDIR: tmp, NO_COLOR: "1" },
        stdout: "piped",
        stderr: "piped",
        stdin: "null",
      }).output();
    const check = await deno(["check", "bench.ts", "greet.ts"]);
    assertEquals(check.code, 0, new TextDecoder().decode(check.stderr));

    const command = /^deno run ((?:--allow-\w+ )+)bench\.ts$/m.exec(README);
    if (!command) throw new Error("README shows no `deno run … bench.ts` command");
    const out = await deno(["run", ...command[1].trim().split(" "), "bench.ts"]);
    const stderr = new TextDecoder().decode(out.stderr);
    assertEquals(out.code, 0, stderr);
    const result = parseResult(await Deno.readTextFile(`${project}/greet.json`));
    assertEquals(result.records.map((r) => [r.id, r.status]), [
      ["greet/default/deno", "completed"],
      ["greet/default/node", "completed"],
      ["greet/default/bun", "completed"],
    ]);
    const body = JSON.stringify({ greeting: "Hello, JSR!" });
    for (const record of result.records) {
      assertEquals(record.options, { "greet-name": "JSR" });
      // The workload's quick defaults, not the profile's 2 s × 3 runs.
      assertEquals([record.settings.durationSec, record.runs.length], [1, 1]);
      const bodyCheck = record.verification.checks.find((c) => c.name === "GET /greet?name=JSR body");
      assertEquals([bodyCheck?.passed, bodyCheck?.expected], [true, body]);
      assert(record.runs[0].figures.validResponses > 0);
      // The server that answered is the project's own file.
      assertMatch(record.command!.join(" "), new RegExp(`${record.runtime.name === "node" ? "node\\.mjs" : "\\.ts"}$`));
    }
    // The table bench.ts prints is of the result it read back.
    for (const name of ["deno", "node", "bun"]) assertMatch(stderr, new RegExp(`^${name} \\d`, "m"));
    assert(await waitFor(async () => (await processesWithTmpdir(tmp)).length === 0, 5000), "processes left");
  }));

/** The public JSR registry, for the one test that resolves rtbench from it: opt in with RTBENCH_TEST_NETWORK=1. */
const JSR = condition(
  "jsr.io",
  Deno.env.get("RTBENCH_TEST_NETWORK") === "1" ? null : "resolves from jsr.io: opt in with RTBENCH_TEST_NETWORK=1",
);

Deno.test(needs(JSR, {
  name: "the README's deno.json from JSR resolves from jsr.io",
  fn: () =>
    withTmp(async (tmp) => {
      await Deno.writeTextFile(`${tmp}/deno.json`, files.get("deno.json (from JSR)")!);
      await Deno.writeTextFile(`${tmp}/main.ts`, 'import { run } from "@rtbench/rtbench";\nconsole.log(typeof run);\n');
      const out = await new Deno.Command(Deno.execPath(), { args: ["check", "main.ts"], cwd: tmp }).output();
      assertEquals(out.code, 0, new TextDecoder().decode(out.stderr));
    }),
}));
