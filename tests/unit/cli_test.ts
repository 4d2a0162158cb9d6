// README walk: shows claims of docs/reference.md "Commands" (one command line, `rtbench --help` lists the commands,
// an unknown command is one line and exit 2, `report`, `compare` and `trend` load none of the measuring code) and of
// docs/development.md "How rtbench is built" (the reading commands' module graph). In one process: main() is called
// directly, and the module graph is read from the sources (tests/e2e/layering_test.ts reads it with `deno info`).
import { assert, assertEquals, assertMatch } from "@std/assert";
import { COMMANDS, main } from "../../runners/cli/main.ts";
import { ROOT } from "../_helpers.ts";

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

/** The relative imports of a source file (static, type-only and dynamic), comments left out. */
function importsOf(source: string): string[] {
  const code = source.replace(/\/\*[\s\S]*?\*\//g, "").replace(/^\s*\/\/.*$/gm, "");
  const found = [
    ...code.matchAll(/^\s*(?:import|export)\b[^;]*?\bfrom\s*"(\.[^"]+)"/gm),
    ...code.matchAll(/^\s*import\s*"(\.[^"]+)"/gm),
    ...code.matchAll(/\bimport\(\s*"(\.[^"]+)"\s*\)/g),
  ];
  return found.map((m) => m[1]);
}

/** Every project file `entry` loads (paths relative to the root), following relative imports. */
async function moduleGraph(entry: string, root = ROOT): Promise<string[]> {
  const seen = new Set<string>();
  const visit = async (path: string) => {
    if (seen.has(path)) return;
    seen.add(path);
    if (!/\.(ts|mts|js|mjs)$/.test(path)) return;
    for (const spec of importsOf(await Deno.readTextFile(`${root}${path}`))) {
      await visit(new URL(spec, `file:///${path}`).pathname.slice(1));
    }
  };
  await visit(entry);
  return [...seen].sort();
}

/** Folders whose code measures: a command that only reads results loads none of it. */
const MEASURING = ["workloads/", "adapters/", "runners/drivers/", "runners/kinds/", "runners/engine/"];

Deno.test("report, compare and trend load none of the measuring code", async () => {
  for (const command of ["report", "compare", "trend"]) {
    const graph = await moduleGraph(`runners/cli/${command}.ts`);
    assert(graph.includes("runners/report/mod.ts") && graph.includes("runners/schema/mod.ts"), graph.join(" "));
    assertEquals(graph.filter((f) => MEASURING.some((m) => f.startsWith(m))), [], `${command} loads measuring code`);
    // The command line's own files import nothing of runners/platform (the layers below it still may).
    const cli = graph.filter((f) => f.startsWith("runners/cli/"));
    for (const file of cli) {
      const imports = importsOf(await Deno.readTextFile(`${ROOT}${file}`));
      assertEquals(imports.filter((i) => i.includes("platform/")), [], `${file} imports runners/platform`);
    }
  }
  // main.ts itself loads a command's module only when it is chosen: every command is a dynamic import.
  const main = await Deno.readTextFile(`${ROOT}runners/cli/main.ts`);
  assertEquals(importsOf(main.replace(/\bimport\(\s*"[^"]+"\s*\)/g, "")), [], "main.ts imports nothing statically");
  assertEquals(importsOf(main).sort(), SIX.map((c) => `./${c}.ts`).sort());
});

Deno.test("the graph reader sees a planted import of measuring code: static, type-only and dynamic", async () => {
  const report = await Deno.readTextFile(`${ROOT}runners/cli/report.ts`);
  const plants = [
    'import { builtinWorkloads } from "../../workloads/mod.ts";\n',
    'import type { LoadGenerator } from "../drivers/mod.ts";\n',
    'export { engineGenerator } from "../drivers/mod.ts";\n',
  ];
  for (const plant of plants) {
    const imports = importsOf(plant + report);
    assert(imports.some((i) => i.startsWith("../../workloads/") || i.startsWith("../drivers/")), plant);
  }
  assert(importsOf('const m = await import("../kinds/mod.ts");\n').includes("../kinds/mod.ts"));
  // A JSDoc example's import is not an import.
  assertEquals(importsOf('/**\n * ```ts\n * import { x } from "../../workloads/mod.ts";\n * ```\n */\n'), []);
});
