// README walk: shows claims of docs/reference.md "Use rtbench from your own code" (a project of your own, from a checkout or JSR)
// and "Write your own workload".
// A project outside the checkout, made in a temporary directory exactly as docs/reference.md says: its deno.json (the
// import line `deno add jsr:@rtbench/rtbench` writes, and `links` to a checkout at ../rtbench), the greet workload, its
// three servers and bench.ts, all taken from the page's blocks. It type-checks with no other configuration, and the
// page's command runs it: three runtimes measured, the result written and read back with rtbench's reader. The same
// project with the deno.json of docs/reference.md from JSR resolves jsr:@rtbench/rtbench from a local JSR registry
// (tests/fixtures/jsr_registry.ts: this checkout as `deno publish` would publish it, at JSR's paths, with its
// manifest's checksums) that JSR_URL names, and so does docs/reference.md's `deno run -A jsr:@rtbench/rtbench/cli`.
import { assert, assertEquals, assertMatch } from "@std/assert";
import { type BenchResult, parseResult } from "../../runners/schema/mod.ts";
import { localJsr } from "../fixtures/jsr_registry.ts";
import { entries, processesWithTmpdir, ROOT, waitFor, withTmp } from "../_helpers.ts";
import { needs, optIn } from "../_needs.ts";
import { docSection, readDoc } from "../_docs.ts";

/** The blocks with a `title="…"` of a section of docs/reference.md (its subsections included), by title. */
function blocks(from: string): Map<string, string> {
  const text = docSection("docs/reference.md", from);
  return new Map([...text.matchAll(/^```\w+ title="([^"]+)"\n([\s\S]*?)^```$/gm)].map((m) => [m[1], m[2]]));
}

const files = blocks("## Use rtbench from your own code");

Deno.test("the deno.json of docs/reference.md from JSR and from a checkout differ only by links", () => {
  const local = JSON.parse(files.get("deno.json")!);
  const jsr = JSON.parse(files.get("deno.json (from JSR)")!);
  assertEquals(local.links, ["../rtbench"]);
  delete local.links;
  assertEquals(local, jsr);
  // The version range the docs give takes this checkout's version.
  const version = JSON.parse(Deno.readTextFileSync(`${ROOT}deno.json`)).version as string;
  assertEquals(jsr.imports["@rtbench/rtbench"], `jsr:@rtbench/rtbench@^${version.split(".").slice(0, 2).join(".")}.0`);
});

/** What the project of docs/reference.md did: its result read back, bench.ts's stderr. */
interface ProjectRun {
  result: BenchResult;
  stderr: string;
}

/**
 * Makes the project of docs/reference.md in `tmp/greet` with the deno.json titled `config`, type-checks it and runs the
 * page's command in it (with `env` added to the environment); checks what the result holds and that nothing is left
 * running.
 */
async function runProject(tmp: string, config: string, env: Record<string, string> = {}): Promise<ProjectRun> {
  const project = `${tmp}/greet`;
  for (const [name, text] of files) {
    // Of the page's two deno.json, the one asked for.
    if (name.startsWith("deno.json") && name !== config) continue;
    const path = `${project}/${name.replace(/ \(.*\)$/, "")}`;
    await Deno.mkdir(path.replace(/\/[^/]+$/, ""), { recursive: true });
    await Deno.writeTextFile(path, text);
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
      env: { TMPDIR: tmp, NO_COLOR: "1", ...env },
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
  ], JSON.stringify(result.records.map((r) => r.error)));
  const body = JSON.stringify({ greeting: "Hello, JSR!" });
  for (const record of result.records) {
    assertEquals(record.options, { "greet-name": "JSR" });
    // The workload's quick defaults, not the profile's 1 s × 3 runs.
    assertEquals([record.settings.durationSec, record.runs.length], [0.5, 1]);
    const bodyCheck = record.verification.checks.find((c) => c.name === "GET /greet?name=JSR body");
    assertEquals([bodyCheck?.passed, bodyCheck?.expected], [true, body]);
    assert(record.runs[0].figures.validResponses > 0);
    // The server that answered is the project's own file.
    assertMatch(record.command!.join(" "), new RegExp(`${record.runtime.name === "node" ? "node\\.mjs" : "\\.ts"}$`));
  }
  // The table bench.ts prints is of the result it read back.
  for (const name of ["deno", "node", "bun"]) assertMatch(stderr, new RegExp(`^${name} \\d`, "m"));
  assert(await waitFor(async () => (await processesWithTmpdir(tmp)).length === 0, 5000), "processes left");
  // Nothing but the project and what the test put beside it (the checkout's link, a Deno cache): rtbench's temporary
  // directories, the load engine's copy out of a remote package too, are gone.
  assertEquals((await entries(tmp)).filter((e) => !["greet", "rtbench", "deno-dir"].includes(e)), [], "files left");
  return { result, stderr };
}

Deno.test("a project of its own, made as docs/reference.md says, type-checks and runs its workload, reading the result back", () =>
  withTmp(async (tmp) => {
    // The checkout next to the project, as docs/reference.md puts it.
    await Deno.symlink(ROOT.replace(/\/$/, ""), `${tmp}/rtbench`);
    await runProject(tmp, "deno.json");
  }));

/**
 * A Deno cache of its own, so that what a registry served is read from that registry and not from an earlier run's
 * cache; npm packages come from the shared cache, as they would on a machine that ran the README's set-up.
 */
async function freshDenoDir(tmp: string): Promise<string> {
  const info = await new Deno.Command(Deno.execPath(), { args: ["info", "--json"], stdout: "piped" }).output();
  const shared = JSON.parse(new TextDecoder().decode(info.stdout)).denoDir as string;
  const dir = `${tmp}/deno-dir`;
  await Deno.mkdir(dir);
  await Deno.symlink(`${shared}/npm`, `${dir}/npm`);
  return dir;
}

Deno.test("the same project with rtbench from JSR (a local registry serving this checkout as published) runs alike", () =>
  withTmp(async (tmp) => {
    await using jsr = await localJsr();
    const run = await runProject(tmp, "deno.json (from JSR)", {
      JSR_URL: jsr.url,
      DENO_DIR: await freshDenoDir(tmp),
    });
    // rtbench came from the registry: its versions, the version's manifest, then its modules.
    const base = `/${jsr.name}/`;
    assertEquals(jsr.requests.slice(0, 2), [`${base}meta.json`, `${base}${jsr.version}_meta.json`]);
    assert(jsr.requests.includes(`${base}${jsr.version}/mod.ts`), jsr.requests.join("\n"));
    assert(run.result.records.every((r) => r.verification.passed));
  }));

// The local registry is JSR as Deno reads it: the manifest's checksums are checked, so a file that differs is refused.
Deno.test("the local JSR registry's manifest is checked: a module served altered is refused", () =>
  withTmp(async (tmp) => {
    await using jsr = await localJsr({ tampered: "/mod.ts" });
    await Deno.writeTextFile(`${tmp}/deno.json`, files.get("deno.json (from JSR)")!);
    await Deno.writeTextFile(`${tmp}/main.ts`, 'import { run } from "@rtbench/rtbench";\nconsole.log(typeof run);\n');
    const out = await new Deno.Command(Deno.execPath(), {
      args: ["check", "main.ts"],
      cwd: tmp,
      env: { JSR_URL: jsr.url, DENO_DIR: await freshDenoDir(tmp), NO_COLOR: "1" },
      stdout: "piped",
      stderr: "piped",
    }).output();
    const stderr = new TextDecoder().decode(out.stderr);
    assert(!out.success, stderr);
    assertMatch(stderr, /Integrity check failed/);
    assertMatch(stderr, new RegExp(`Specifier: ${jsr.url}@rtbench/rtbench/${jsr.version}/mod\\.ts\n`));
    // What Deno expected is the manifest's checksum of the file as published.
    const published = await crypto.subtle.digest("SHA-256", jsr.files.get("/mod.ts")! as Uint8Array<ArrayBuffer>);
    const hex = [...new Uint8Array(published)].map((b) => b.toString(16).padStart(2, "0")).join("");
    assertMatch(stderr, new RegExp(`Expected: ${hex}\n`));
  }));

// docs/reference.md (Use rtbench from your own code): "`@rtbench/rtbench/cli` | the command line itself, `rtbench
// <command>`: `deno run -A jsr:@rtbench/rtbench/cli bench --workload http-json`". ws's Node.js server imports the npm
// package ws, which publishing rewrites to an npm: specifier Node.js cannot load: the staged server gets it back bare.
Deno.test("the command line from JSR of docs/reference.md (the local registry) measures http-json and ws, every response verified, and reports the file", () =>
  withTmp(async (tmp) => {
    await using jsr = await localJsr();
    const command = /`deno run (-A jsr:@rtbench\/rtbench\/cli bench --workload http-json)`/.exec(
      readDoc("docs/reference.md"),
    );
    if (!command) throw new Error("docs/reference.md shows no `deno run -A jsr:@rtbench/rtbench/cli` command");
    // The page's command with ws beside http-json, quick settings and a result file.
    const args = [...command[1].split(" ").map((a) => a === "http-json" ? "http-json,ws" : a), "--runtime", "node,deno"]
      .concat(["--runs", "1", "--duration", "0.3", "--warmup", "0", "--out", "r.json"]);
    const out = await new Deno.Command(Deno.execPath(), {
      args: ["run", ...args],
      cwd: tmp,
      env: { JSR_URL: jsr.url, DENO_DIR: await freshDenoDir(tmp), TMPDIR: tmp, NO_COLOR: "1" },
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
    }).output();
    const stderr = new TextDecoder().decode(out.stderr);
    assertEquals(out.code, 0, stderr);
    const result = parseResult(await Deno.readTextFile(`${tmp}/r.json`));
    assertEquals(result.records.map((r) => [r.id, r.status]), [
      ["http-json/default/node", "completed"],
      ["http-json/default/deno", "completed"],
      ["ws/default/node", "completed"],
      ["ws/default/deno", "completed"],
    ], JSON.stringify(result.records.map((r) => r.error)));
    for (const record of result.records) {
      assert(record.verification.passed, record.id);
      assertEquals(record.runs[0].counts.mismatches, 0, record.id);
    }
    // The same entry reads the result back: `report` renders the file it wrote.
    const report = await new Deno.Command(Deno.execPath(), {
      args: ["run", "-A", "jsr:@rtbench/rtbench/cli", "report", "r.json", "--format", "md"],
      cwd: tmp,
      env: { JSR_URL: jsr.url, DENO_DIR: `${tmp}/deno-dir`, NO_COLOR: "1" },
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
    }).output();
    const markdown = new TextDecoder().decode(report.stdout);
    assertEquals(report.code, 0, new TextDecoder().decode(report.stderr));
    assertMatch(markdown, /^## At a glance$/m);
    assertMatch(markdown, /\| ws \(default\)/);
    // The CLI's own files came from the registry.
    for (const command of ["bench", "report"]) {
      assert(jsr.requests.includes(`/${jsr.name}/${jsr.version}/runners/cli/${command}.ts`), jsr.requests.join("\n"));
    }
    assert(await waitFor(async () => (await processesWithTmpdir(tmp)).length === 0, 5000), "processes left");
    assertEquals((await entries(tmp)).sort(), ["deno-dir", "r.json"], "files left");
  }));

/**
 * The public JSR registry, for the one test that resolves rtbench from jsr.io itself: opt in with
 * `RTBENCH_TEST_JSR=1`. Not part of RTBENCH_TEST_NETWORK (the npm registry, which CI reaches): jsr.io is not reachable
 * from every machine CI runs on, and the local registry above tests the same path offline.
 */
const JSR = optIn("jsr.io", "RTBENCH_TEST_JSR", "resolves rtbench from jsr.io");

Deno.test(needs(JSR, {
  name: "the same project with rtbench from jsr.io itself runs alike",
  fn: () =>
    withTmp(async (tmp) => {
      await runProject(tmp, "deno.json (from JSR)", { DENO_DIR: await freshDenoDir(tmp) });
    }),
}));
