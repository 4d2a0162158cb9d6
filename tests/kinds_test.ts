// The workload kinds have one list (WORKLOAD_KINDS, in the schema layer, the lowest that knows kinds); the kind
// registry, workload validation, the report's views and the JSON Schema agree with it, by the type checker where
// types reach and by this file where they do not. A kind added in a copy of the repository runs end to end.

import { assert, assertEquals, assertMatch } from "@std/assert";
import { WORKLOAD_KINDS } from "../runners/schema/mod.ts";
import {
  headlineOf,
  type HttpRecordContext,
  type RecordContext,
  type ServedRecordContext,
} from "../runners/kinds/mod.ts";
import type { httpKind } from "../runners/kinds/http.ts";
import type { microKind } from "../runners/kinds/micro.ts";
import type { processKind } from "../runners/kinds/process.ts";
import type { websocketKind } from "../runners/kinds/websocket.ts";
import { kindView } from "../runners/report/_kinds.ts";
import { PROFILES } from "../runners/suite/settings.ts";
import {
  builtinWorkloads,
  type MicroWorkload,
  type ProcessWorkload,
  validateWorkload,
  type WebSocketWorkload,
} from "../workloads/mod.ts";
import { WORKLOAD_KINDS as VALIDATED } from "../workloads/validate.ts";
import { assertNothingLeft, processesMatching, withTmp } from "./_helpers.ts";

const ROOT = new URL("../", import.meta.url);

Deno.test("the JSON Schema's kinds, validation's and the built-in workloads' are the one list", async () => {
  const schema = JSON.parse(await Deno.readTextFile(new URL("runners/schema/bench_result.schema.json", ROOT)));
  assertEquals(schema.definitions.record.properties.kind.enum, [...WORKLOAD_KINDS]);
  assertEquals(VALIDATED, WORKLOAD_KINDS);
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
    kindView("eval" as never);
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

/** The new kind's file: each run evaluates the workload's line of code with the runtime and checks what it prints. */
const EVAL_KIND = `
import type { EvalWorkload } from "../../workloads/mod.ts";
import type { Headline } from "../schema/mod.ts";
import { runCommand } from "../platform/mod.ts";
import { PhaseError } from "./errors.ts";
import type { Kind } from "./kind.ts";
import type { RecordContext } from "./record.ts";

const HEADLINE: Headline = { figure: "wallMs", higherIsBetter: false };

export const evalKind: Kind<EvalWorkload, { ctx: RecordContext<EvalWorkload>; argv: string[] }> = {
  headline: () => HEADLINE,
  open(ctx, outcome) {
    outcome.headline = HEADLINE;
    outcome.cpus = { server: ctx.cpus.server, client: null };
    outcome.command = ctx.runtime.adapter.evalCommand(ctx.runtime.binary, ctx.workload.code);
    return Promise.resolve({ ctx, argv: outcome.command });
  },
  async run({ ctx, argv }, run) {
    ctx.onPhase?.("measure", run);
    const startedAt = new Date().toISOString();
    const start = performance.now();
    const out = await runCommand(argv, { cwd: ctx.workDir, timeoutMs: 60_000, signal: ctx.signal, role: "timed process" });
    const wallMs = performance.now() - start;
    if (out.stdout.trim() !== ctx.workload.prints) throw new PhaseError("verify", \`printed \${out.stdout.trim()}\`);
    const counts = { errors: 0, timeouts: 0, non2xx: 0, mismatches: 0 };
    return { run: { index: run, startedAt, figures: { wallMs }, counts, latencyUs: null, latencyHistogram: null } };
  },
};
`;

/** The workload type of the new kind, beside the others in workloads/types.ts. */
const EVAL_WORKLOAD = `
/** A workload of the eval kind: one line of code, and what it prints. */
export interface EvalWorkload extends WorkloadBase {
  /** Always \`"eval"\`. */
  readonly kind: "eval";
  /** The line evaluated. */
  readonly code: string;
  /** What it must print. */
  readonly prints: string;
}
`;

/** A workload of the new kind, given to the CLI with --workload-file. */
const SUM_WORKLOAD = `
import type { EvalWorkload } from "../workloads/mod.ts";
export const sum: EvalWorkload = {
  name: "sum",
  description: "prints 1 + 2",
  kind: "eval",
  variants: [{ name: "default", description: "console.log" }],
  code: "console.log(1 + 2)",
  prints: "3",
};
`;

async function edit(root: string, path: string, from: string | RegExp, to: string): Promise<void> {
  const text = await Deno.readTextFile(`${root}/${path}`);
  const edited = text.replace(from, to);
  assert(edited !== text, `${path}: ${from} not found`);
  await Deno.writeTextFile(`${root}/${path}`, edited);
}

async function check(root: string): Promise<{ ok: boolean; errors: string }> {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["check", "-q", "runners/cli/bench.ts"],
    cwd: root,
    env: { NO_COLOR: "1" },
    stdout: "piped",
    stderr: "piped",
  }).output();
  return { ok: out.success, errors: new TextDecoder().decode(out.stderr) };
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
  name: "a new kind is its file and an entry in each table the type checker names; it then runs end to end",
  sanitizeResources: false,
  fn: () =>
    withTmp(async (tmp) => {
      const repo = `${tmp}/repo`;
      await copyRepository(repo);
      // The kind's file, its name in the one list and its workload type.
      await Deno.writeTextFile(`${repo}/runners/kinds/eval.ts`, EVAL_KIND);
      await edit(
        repo,
        "runners/schema/result.ts",
        '"process", "micro"] as const',
        '"process", "micro", "eval"] as const',
      );
      await edit(
        repo,
        "workloads/types.ts",
        /\nexport type Workload = ([^;]+);/,
        `${EVAL_WORKLOAD}\nexport type Workload = $1 | EvalWorkload;`,
      );
      // Before the tables have it, the type checker names each table, and nothing else.
      const before = await check(repo);
      assert(!before.ok);
      const named = [...before.errors.matchAll(/at file:\/\/\S+?\/repo\/([^:]+):/g)].map((m) => m[1]);
      assertEquals([...new Set(named)].sort(), [
        "runners/kinds/mod.ts",
        "runners/report/_kinds.ts",
        "workloads/validate.ts",
      ], before.errors);
      // One entry in each: the registry, validation's contract, the report's view, and the JSON Schema's enum.
      await edit(repo, "runners/kinds/mod.ts", "  micro: microKind,\n", "  micro: microKind,\n  eval: evalKind,\n");
      await edit(
        repo,
        "runners/kinds/mod.ts",
        "import { microKind }",
        'import { evalKind } from "./eval.ts";\nimport { microKind }',
      );
      await edit(
        repo,
        "workloads/validate.ts",
        '  micro: ["script", "verify"],\n',
        '  micro: ["script", "verify"],\n  eval: [],\n',
      );
      await edit(repo, "runners/report/_kinds.ts", '    case "micro":\n', '    case "eval":\n    case "micro":\n');
      await edit(
        repo,
        "runners/schema/bench_result.schema.json",
        /"process",(\s*)"micro"/,
        '"process",$1"micro",$1"eval"',
      );
      const after = await check(repo);
      assert(after.ok, after.errors);
      await Deno.writeTextFile(`${repo}/tests/sum.ts`, SUM_WORKLOAD);
      const out = await new Deno.Command(Deno.execPath(), {
        args: [
          "run",
          "-A",
          "runners/cli/bench.ts",
          "--workload-file",
          "tests/sum.ts",
          "--workload",
          "sum",
          "--runtime",
          "deno,node",
        ]
          .concat(["--runs", "3", "--quiet", "--out", `${tmp}/sum.json`]),
        cwd: repo,
        env: { TMPDIR: tmp, NO_COLOR: "1" },
        stdout: "piped",
        stderr: "piped",
      }).output();
      const stderr = new TextDecoder().decode(out.stderr);
      assertEquals(out.code, 0, stderr);
      // The copy's own reader validates the file against the copy's schema, which now knows the kind.
      const read = await new Deno.Command(Deno.execPath(), {
        args: ["run", "-A", "runners/cli/report.ts", `${tmp}/sum.json`],
        cwd: repo,
        env: { TMPDIR: tmp, NO_COLOR: "1" },
        stdout: "piped",
        stderr: "piped",
      }).output();
      assertEquals(read.code, 0, new TextDecoder().decode(read.stderr));
      const result = JSON.parse(await Deno.readTextFile(`${tmp}/sum.json`));
      assertEquals(result.records.map((r: { kind: string; status: string }) => [r.kind, r.status]), [
        ["eval", "completed"],
        ["eval", "completed"],
      ]);
      for (const record of result.records) assertEquals(record.runs.length, 3);
      assertMatch(new TextDecoder().decode(read.stdout), /sum/);
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
