// README walk: shows claims of docs/reference.md "Commands" (one command line, `rtbench --help` lists the commands,
// an unknown command is one line and exit 2, `report`, `compare` and `trend` load none of the measuring code) and of
// docs/development.md "How rtbench is built" (the reading commands' module graph). In one process: main() is called
// directly, and the module graph is read from the sources (tests/e2e/layering_test.ts reads it with `deno info`).
import { assert, assertEquals, assertMatch } from "@std/assert";
import { COMMANDS, main } from "../../runners/cli/main.ts";
import { importsOf, loadedBy, MEASURING, readSource, weightProblems } from "../_imports.ts";

/** What `fn` printed with console.log and console.error, line by line, and what it returned. */
async function printed<T>(fn: () => Promise<T>): Promise<{ value: T; out: string[]; err: string[] }> {
  const out: string[] = [];
  const err: string[] = [];
  const { log, error } = console;
  console.log = (...args: unknown[]) => out.push(...args.join(" ").split("\n"));
  console.error = (...args: unknown[]) => err.push(...args.join(" ").split("\n"));
  try {
    return { value: await fn(), out, err };
  } finally {
    console.log = log;
    console.error = error;
  }
}

const SIX = ["bench", "report", "compare", "trend", "calibrate", "reproduce"];

Deno.test("rtbench --help, help and no arguments list the six commands, one line each", async () => {
  assertEquals(COMMANDS.map((c) => c.name), SIX);
  for (const args of [["--help"], ["-h"], ["help"], []]) {
    const { value, out, err } = await printed(() => main(args));
    assertEquals([value, err], [0, []], args.join(" "));
    assertMatch(out.join("\n"), /^Usage: rtbench <command> \[flags\]/m);
    for (const name of SIX) {
      assertEquals(out.filter((l) => new RegExp(`^  ${name}\\b`).test(l)).length, 1, `${name}: one line`);
    }
    assertEquals(out.filter((l) => /^ {2}\w/.test(l)).length, SIX.length, "no other command line");
  }
  assertEquals(COMMANDS.find((c) => c.name === "bench")?.aliases, ["run"]);
});

Deno.test("an unknown command, or a flag before any command: one line naming it, exit 2", async () => {
  for (const [args, named] of [[["frobnicate"], '"frobnicate"'], [["--workload", "ws"], "--workload"]] as const) {
    const { value, out, err } = await printed(() => main([...args]));
    assertEquals([value, out, err.length], [2, [], 1], err.join("\n"));
    assertMatch(err[0], /^rtbench: unknown /);
    assert(err[0].includes(named), err[0]);
    assert(!err[0].includes("    at "), "no stack trace");
  }
});

// What `deno task report` (and compare, trend) loads: main.ts, then the chosen command's module.
function commandGraph(command: string): string[] {
  const main = loadedBy(
    "runners/cli/main.ts",
    (file) =>
      file === "runners/cli/main.ts" ? readSource(file).replace(/\bimport\(\s*"[^"]+"\s*\)/g, "") : readSource(file),
  );
  return [...new Set([...main, ...loadedBy(`runners/cli/${command}.ts`, readSource)])].sort();
}

Deno.test("report, compare and trend load none of the measuring code or the platform", () => {
  for (const command of ["report", "compare", "trend"]) {
    const graph = commandGraph(command);
    assert(graph.includes("runners/schema/read.ts") && graph.includes(`runners/cli/${command}.ts`), graph.join(" "));
    assertEquals(graph.filter((f) => MEASURING.some((m) => f.startsWith(m))), [], `${command} loads measuring code`);
  }
  // main.ts itself loads a command's module only when it is chosen: every command is a dynamic import.
  const main = readSource("runners/cli/main.ts");
  assertEquals(importsOf("runners/cli/main.ts", main).sort(), SIX.map((c) => `runners/cli/${c}.ts`).sort());
  assertEquals(commandGraph("report").filter((f) => /^runners\/cli\/(bench|calibrate|reproduce)\.ts$/.test(f)), []);
});

Deno.test("the graph reader sees a planted import of measuring code: static, type-only, re-export and dynamic", () => {
  const report = readSource("runners/cli/report.ts");
  const plants = [
    'import { builtinWorkloads } from "../../workloads/mod.ts";\n',
    'import type { LoadGenerator } from "../drivers/mod.ts";\n',
    'export { engineGenerator } from "../drivers/mod.ts";\n',
    'const m = await import("../kinds/mod.ts");\n',
  ];
  for (const plant of plants) {
    const graph = importsOf("runners/cli/report.ts", plant + report);
    assertEquals(weightProblems([], graph).length, 1, plant);
  }
});
