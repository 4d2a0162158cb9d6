// docs/method.md "The environment of every process": a variable of the user's shell that would change a runtime does
// not reach it — here NODE_OPTIONS preloading a module that does not exist, which makes any node it reaches fail at
// once — unless `--pass-env` names it; the result lists every process of a record with what it got, and the report says
// the variable was dropped or kept. A bad `--pass-env` name exits 2 naming the flag.
import { assert, assertEquals, assertMatch, assertStringIncludes } from "@std/assert";
import type { BenchResult } from "../../runners/schema/result.ts";
import { validateResult } from "../../runners/schema/mod.ts";
import { runCli, withTmp } from "../_helpers.ts";
import { formatMarkdown } from "../../runners/report/markdown.ts";
import { formatHtml } from "../../runners/report/html.ts";

const PRELOAD = "--require=/nonexistent/rtbench-preload.js";
const ARGS = [
  ...["--workload", "startup,http-json", "--variant", "hello,default", "--runtime", "node"],
  ...["--runs", "1", "--duration", "0.3", "--warmup", "0", "--warmup-runs", "0", "--quiet"],
  // The same processes without http-json's fixed-rate window and idle connections (the load engine runs those too).
  ...["--cpu-rate", "0", "--idle-connections", "0"],
];

async function bench(tmp: string, extra: string[]): Promise<{ code: number; stdout: string; result: BenchResult }> {
  const out = `${tmp}/r${extra.length}.json`;
  const run = await runCli([...ARGS, ...extra, "--out", out], { TMPDIR: tmp, NODE_OPTIONS: PRELOAD });
  const result = JSON.parse(await Deno.readTextFile(out)) as BenchResult;
  assertEquals(validateResult(result), []);
  return { code: run.code, stdout: run.stdout + run.stderr, result };
}

Deno.test("NODE_OPTIONS in rtbench's environment reaches no node it measures, unless --pass-env NODE_OPTIONS", async () => {
  await withTmp(async (tmp) => {
    const dropped = await bench(tmp, []);
    const why = dropped.result.records.map((r) => `${r.id}: ${r.status} ${r.error?.message ?? ""}`).join("\n");
    assertEquals(dropped.result.records.map((r) => [r.id, r.status]), [
      ["startup/hello/node", "completed"],
      ["http-json/default/node", "completed"],
    ], why);
    const known = dropped.result.environment.variables!.known.find((k) => k.name === "NODE_OPTIONS");
    assertEquals([known?.fate, known?.value], ["dropped", PRELOAD]);
    assertMatch(dropped.stdout, /environment: variables known to change a runtime: dropped [^\n]*NODE_OPTIONS/);
    // The Markdown and HTML reports give it a row in their environment table.
    assertStringIncludes(
      formatMarkdown(dropped.result),
      `**NODE_OPTIONS=${PRELOAD}** | dropped: no process got it (node:`,
    );
    assertStringIncludes(
      formatHtml(dropped.result),
      `<td class="text">NODE_OPTIONS=${PRELOAD}</td><td class="text">dropped: no process got it (node:`,
    );
    // Every process of each record is listed with exactly what it got: the timed node, the server, the engine.
    const [startup, http] = dropped.result.records;
    const roles = (r: BenchResult["records"][number]) => (r.processes ?? []).map((p) => `${p.role}:${p.program}`);
    assert(roles(startup).includes("timed process:node"), roles(startup).join(" "));
    assert(roles(http).includes("server:node"), roles(http).join(" "));
    assert(roles(http).some((r) => r.startsWith("load engine:bun")), roles(http).join(" "));
    for (const p of [...startup.processes!, ...http.processes!]) {
      assertEquals(p.env.NODE_OPTIONS, undefined, `${p.role} got NODE_OPTIONS`);
      assertEquals(p.env.TMPDIR, tmp, `${p.role} lost TMPDIR`);
    }
    const server = http.processes!.find((p) => p.role === "server")!;
    assertEquals([server.env.HOST, server.env.NO_COLOR], ["127.0.0.1", "1"]);
    assertMatch(server.env.PORT, /^\d+$/);

    const kept = await bench(tmp, ["--pass-env", "NODE_OPTIONS"]);
    assertEquals(kept.result.environment.variables!.passed, ["NODE_OPTIONS"]);
    assertEquals(
      kept.result.environment.variables!.known.find((k) => k.name === "NODE_OPTIONS")?.fate,
      "kept (--pass-env)",
    );
    // Now every node it starts fails to load the preload, as node does with that NODE_OPTIONS: even the one that
    // reads its version.
    for (const r of kept.result.records) {
      assertEquals(r.status, "errored", `${r.id} ran with a NODE_OPTIONS that preloads a missing file`);
      assertStringIncludes(r.error!.message, "Cannot run /");
    }
  });
});

Deno.test("--pass-env with a name that is not a variable's exits 2, naming the flag, before anything runs", async () => {
  await withTmp(async (tmp) => {
    for (const bad of ["NODE-OPTIONS", "1ABC", "A B"]) {
      const run = await runCli(["--workload", "startup", "--runtime", "node", "--pass-env", bad], { TMPDIR: tmp });
      assertEquals(run.code, 2, run.stderr);
      const lines = run.stderr.trim().split("\n");
      assertEquals(lines.length, 1, run.stderr);
      assertMatch(lines[0], /--pass-env: .* is not an environment variable name/);
    }
    assertEquals([...Deno.readDirSync(tmp)].length, 0, "nothing was started or written");
  });
});
