// README walk: shows claims of docs/reference.md "Use rtbench from your own code" (a project of your own, from a checkout or JSR)
// and "Write your own workload". A project outside the checkout, made in a temporary directory exactly as
// docs/reference.md says: its deno.json (the import line `deno add jsr:@rtbench/rtbench` writes, and `links` to a
// checkout at ../rtbench), the greet workload, its three servers and bench.ts, all taken from the page's blocks. It
// type-checks with no other configuration, and the page's command runs it: three runtimes measured, the result written
// and read back with rtbench's reader.
import { assert, assertEquals, assertMatch } from "@std/assert";
import { parseResult } from "../runners/schema/mod.ts";
import { entries, privateTmp, processesWithTmpdir, ROOT, waitFor } from "./_helpers.ts";
import { docSection, readDoc } from "./_docs.ts";

/** The blocks with a `title="…"` of a section of docs/reference.md (its subsections included), by title. */
function blocks(from: string): Map<string, string> {
  const text = docSection("docs/reference.md", from);
  return new Map([...text.matchAll(/^```\w+ title="([^"]+)"\n([\s\S]*?)^```$/gm)].map((m) => [m[1], m[2]]));
}

const files = blocks("## Use rtbench from your own code");

Deno.test("the deno.json from JSR and from a checkout of docs/reference.md differ only by links", () => {
  const local = JSON.parse(files.get("deno.json")!);
  const jsr = JSON.parse(files.get("deno.json (from JSR)")!);
  assertEquals(local.links, ["../rtbench"]);
  delete local.links;
  assertEquals(local, jsr);
  // The version range the docs give takes this checkout's version.
  const version = JSON.parse(Deno.readTextFileSync(`${ROOT}deno.json`)).version as string;
  assertEquals(jsr.imports["@rtbench/rtbench"], `jsr:@rtbench/rtbench@^${version.split(".").slice(0, 2).join(".")}.0`);
});

Deno.test("a project of its own, made as docs/reference.md says, type-checks and runs its workload, reading the result back", async () => {
  const tmp = await privateTmp();
  // The checkout next to the project, as docs/reference.md puts it.
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
    "docs/reference.md gives the project's files",
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

  const command = /^deno run ((?:--allow-\w+ )+)bench\.ts$/m.exec(readDoc("docs/reference.md"));
  if (!command) throw new Error("docs/reference.md shows no `deno run … bench.ts` command");
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
  await Deno.remove(tmp, { recursive: true });
});

Deno.test({
  name: "the deno.json from JSR of docs/reference.md resolves where JSR is reachable",
  ignore: !(await fetch("https://jsr.io/@rtbench/rtbench/meta.json", { signal: AbortSignal.timeout(5000) })
    .then((r) => r.ok, () => false)),
  async fn() {
    const tmp = await privateTmp();
    await Deno.writeTextFile(`${tmp}/deno.json`, files.get("deno.json (from JSR)")!);
    await Deno.writeTextFile(`${tmp}/main.ts`, 'import { run } from "@rtbench/rtbench";\nconsole.log(typeof run);\n');
    const out = await new Deno.Command(Deno.execPath(), { args: ["check", "main.ts"], cwd: tmp }).output();
    assertEquals(out.code, 0, new TextDecoder().decode(out.stderr));
    await Deno.remove(tmp, { recursive: true });
  },
});
