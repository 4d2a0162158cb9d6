// The workload kinds have one list, the kind registry (runners/kinds/registry.ts): validation, the run loop and the
// reports find each kind there, and what the layers below see of it (runners/schema/kinds.ts, the JSON Schema's enum)
// is written from it by `runners/dev/kinds.ts` and checked here. A kind added to a copy of the repository as
// docs/development.md shows it (its file, its registry line, its report view, `runners/dev/kinds.ts`) runs end to end.

import { assert, assertEquals, assertMatch } from "@std/assert";
import { WORKLOAD_KINDS } from "../../runners/schema/mod.ts";
import {
  headlineOf,
  type HttpRecordContext,
  type RecordContext,
  registeredKinds,
  type ServedRecordContext,
} from "../../runners/kinds/mod.ts";
import { kindView } from "../../runners/report/_kind_views.ts";
import type { httpKind } from "../../runners/kinds/http.ts";
import type { microKind } from "../../runners/kinds/micro.ts";
import type { processKind } from "../../runners/kinds/process.ts";
import type { websocketKind } from "../../runners/kinds/websocket.ts";
import { kindFiles } from "../../runners/dev/kinds.ts";
import { PROFILES } from "../../runners/suite/settings.ts";
import {
  builtinWorkloads,
  type MicroWorkload,
  type ProcessWorkload,
  validateWorkload,
  type WebSocketWorkload,
} from "../../workloads/mod.ts";
import { docSection } from "../_docs.ts";
import { assertNothingLeft, processesMatching, withTmp } from "../_helpers.ts";

const ROOT = new URL("../../", import.meta.url);

Deno.test("the schema's kinds and the JSON Schema's enum are the registry's, and the built-in workloads use them all", async () => {
  for (const [path, text] of await kindFiles()) {
    assertEquals(
      await Deno.readTextFile(new URL(path, ROOT)),
      text,
      `${path} is stale: run deno run -A runners/dev/kinds.ts`,
    );
  }
  const schema = JSON.parse(await Deno.readTextFile(new URL("runners/schema/bench_result.schema.json", ROOT)));
  assertEquals(schema.definitions.record.properties.kind.enum, [...WORKLOAD_KINDS]);
  assertEquals(registeredKinds().map((k) => k.name).sort(), [...WORKLOAD_KINDS].sort());
  assertEquals([...new Set(builtinWorkloads.map((w) => w.kind))].sort(), [...WORKLOAD_KINDS].sort());
});

Deno.test("every kind has a runner and a report view; a kind nobody knows has neither", () => {
  for (const kind of WORKLOAD_KINDS) {
    const workload = builtinWorkloads.find((w) => w.kind === kind)!;
    assert(headlineOf(workload, PROFILES.quick).figure.length > 0, kind);
    assert(kindView(kind).columns.length > 0, kind);
  }
  // The report shows no unknown kind as HTTP (a result file with one fails its schema before any report).
  let thrown = "";
  try {
    kindView("eval");
  } catch (e) {
    thrown = (e as Error).message;
  }
  assertEquals(thrown, 'Cannot show records of workload kind "eval": no report view for it');
  let invalid = "";
  try {
    validateWorkload(
      { name: "x", description: "x", kind: "eval", variants: [{ name: "a", description: "a" }] },
      "x.ts",
    );
  } catch (e) {
    invalid = (e as Error).message;
  }
  assertMatch(invalid, /"kind" must be one of http, websocket, process, micro/);
});

/** The code of a titled block of docs/development.md's section on a new kind. */
function docBlock(title: string): string {
  const section = docSection("docs/development.md", "### A new workload kind");
  const start = section.indexOf(`\`\`\`ts title="${title}`);
  assert(start >= 0, `docs/development.md shows ${title}`);
  const from = section.indexOf("\n", start) + 1;
  return section.slice(from, section.indexOf("\n\`\`\`", from) + 1);
}

/** A workload of the new kind, given to the CLI with --workload-file. */
const SUM_WORKLOAD = `
import type { EvalWorkload } from "../../runners/kinds/eval.ts";
export const sum: EvalWorkload = {
  name: "sum",
  description: "prints 1 + 2",
  kind: "eval",
  variants: [{ name: "default", description: "console.log" }],
  code: "console.log(1 + 2)",
  prints: "3",
};
`;

/** Runs `deno <args>` in `cwd`: its exit code and what it wrote. */
async function deno(cwd: string, args: string[], env: Record<string, string> = {}) {
  const out = await new Deno.Command(Deno.execPath(), {
    args,
    cwd,
    env: { NO_COLOR: "1", ...env },
    stdout: "piped",
    stderr: "piped",
  }).output();
  const text = new TextDecoder();
  return { code: out.code, stdout: text.decode(out.stdout), stderr: text.decode(out.stderr) };
}

/** A copy of the repository's files (what git tracks, and new files not ignored) under `dir`. */
async function copyRepository(dir: string): Promise<void> {
  const root = decodeURIComponent(ROOT.pathname);
  const out = await new Deno.Command("git", {
    args: ["ls-files", "-co", "--exclude-standard", "-z"],
    cwd: root,
    stdout: "piped",
  }).output();
  for (const path of new TextDecoder().decode(out.stdout).split("\0").filter(Boolean)) {
    const from = `${root}${path}`;
    if (!(await Deno.lstat(from).then((s) => s.isFile, () => false))) continue;
    await Deno.mkdir(`${dir}/${path.slice(0, path.lastIndexOf("/") + 1) || "."}`, { recursive: true });
    await Deno.copyFile(from, `${dir}/${path}`);
  }
}

Deno.test({
  name: "a new kind is its file, a registry line and a report view, as the docs show it; it then runs end to end",
  sanitizeResources: false,
  fn: () =>
    withTmp(async (tmp) => {
      const repo = `${tmp}/repo`;
      await copyRepository(repo);
      await Deno.writeTextFile(`${repo}/runners/kinds/eval.ts`, docBlock("runners/kinds/eval.ts"));
      const line = docBlock("runners/kinds/registry.ts");
      assertEquals(line.trim().split("\n").length, 1, line);
      await Deno.writeTextFile(
        `${repo}/runners/kinds/registry.ts`,
        await Deno.readTextFile(`${repo}/runners/kinds/registry.ts`) + line,
      );
      // Its view at the end of the report's views, and its line among them.
      const views = `${repo}/runners/report/_kind_views.ts`;
      const entry = docBlock("runners/report/_kind_views.ts (its line in VIEWS)");
      const text = (await Deno.readTextFile(views)).replace("  micro: microView,\n", `  micro: microView,\n${entry}`);
      await Deno.writeTextFile(views, text + docBlock("runners/report/_kind_views.ts (the view, added at the end)"));
      // The kinds tool writes the rest; then the whole program type-checks and the copy's own test of it agrees.
      const written = await deno(repo, ["run", "-A", "runners/dev/kinds.ts"]);
      assertEquals(written.code, 0, written.stderr);
      assertEquals(
        written.stdout,
        "kinds: wrote runners/schema/kinds.ts, runners/schema/bench_result.schema.json, runners/schema/validator.js\n",
      );
      const checked = await deno(repo, ["check", "-q", "runners/cli/main.ts"]);
      assertEquals(checked.code, 0, checked.stderr);
      assertEquals((await deno(repo, ["run", "-A", "runners/dev/kinds.ts", "--check"])).stdout, "kinds: current\n");
      await Deno.writeTextFile(`${repo}/tests/sum.ts`, SUM_WORKLOAD);
      const bench = await deno(
        repo,
        ["run", "-A", "runners/cli/main.ts", "bench", "--workload-file", "tests/sum.ts", "--workload", "sum"]
          .concat(["--runtime", "deno,node", "--runs", "3", "--quiet", "--out", `${tmp}/sum.json`]),
        { TMPDIR: tmp },
      );
      assertEquals(bench.code, 0, bench.stderr);
      // The copy's own reader validates the file against the copy's schema, which now knows the kind.
      const read = await deno(repo, ["run", "-A", "runners/cli/main.ts", "report", `${tmp}/sum.json`], { TMPDIR: tmp });
      assertEquals(read.code, 0, read.stderr);
      const result = JSON.parse(await Deno.readTextFile(`${tmp}/sum.json`));
      assertEquals(result.records.map((r: { kind: string; status: string }) => [r.kind, r.status]), [
        ["eval", "completed"],
        ["eval", "completed"],
      ]);
      for (const record of result.records) assertEquals(record.runs.length, 3);
      // The report shows the kind's own column, from its view.
      assertMatch(read.stdout, /sum/);
      assertMatch(read.stdout, /fastest/);
      await Deno.remove(repo, { recursive: true });
      assertEquals(await processesMatching(tmp), []);
      await assertNothingLeft(tmp, ["sum.json"]);
    }),
});

Deno.test("a record's context is split by kind: the HTTP kind's load generators and a server's host are not the others'", () => {
  // Checked by the type checker when this file is: each @ts-expect-error must meet an error.
  const fields = (
    process: RecordContext<ProcessWorkload>,
    micro: RecordContext<MicroWorkload>,
    ws: ServedRecordContext<WebSocketWorkload>,
    http: HttpRecordContext,
  ) => [
    // @ts-expect-error: a process record has no load generator
    process.loadGenerator,
    // @ts-expect-error: nor a server's host
    process.host,
    // @ts-expect-error: a micro record has no port
    micro.port,
    // @ts-expect-error: a WebSocket record has no HTTP load generators
    ws.loadGenerators,
    ws.host,
    http.loadGenerator,
    http.topology,
  ];
  // And each kind's runner is typed to see only its own part.
  const processSees: "host" extends keyof Parameters<typeof processKind.open>[0] ? false : true = true;
  const microSees: "port" extends keyof Parameters<typeof microKind.open>[0] ? false : true = true;
  const websocketSees: "loadGenerator" extends keyof Parameters<typeof websocketKind.open>[0] ? false : true = true;
  const httpSees: "loadGenerator" extends keyof Parameters<typeof httpKind.open>[0] ? true : false = true;
  assertEquals([typeof fields, processSees, microSees, websocketSees, httpSees], ["function", true, true, true, true]);
});
