// rtbench's code is in layers where every import points down (docs/development.md "How rtbench is built"): the table is
// LAYERS in tests/_layering.ts, read against the real module graph.
import { assert, assertEquals } from "@std/assert";
import { importGraph, layerOf, LAYERS, longFunctions, sourceFiles, violations } from "../_layering.ts";
import { ROOT, withTmp } from "../_helpers.ts";

Deno.test("every import points down a layer, no private file is used from outside its folder, no cycle", async () => {
  const graph = await importGraph(ROOT);
  // The graph really is the repository's: the entry points and a layer's files are in it.
  for (const file of ["mod.ts", "runners/cli/main.ts", "runners/platform/process.ts", "workloads/mod.ts"]) {
    assert(graph.has(file), `${file} is missing from the import graph`);
  }
  assert(graph.get("runners/suite/run.ts")!.length > 5);
  assertEquals(violations(graph), []);
});

// docs/development.md (How rtbench is built): the commands that only read results import nothing of the measuring
// layers. The same check as tests/unit/cli_test.ts's, on the module graph as `deno info` reads it.
Deno.test("report, compare and trend reach no module of the measuring layers in deno info's graph", async () => {
  const graph = await importGraph(ROOT);
  const measuring = ["workloads/", "adapters/", "runners/drivers/", "runners/kinds/", "runners/engine/"];
  for (const entry of ["runners/cli/report.ts", "runners/cli/compare.ts", "runners/cli/trend.ts"]) {
    const reached = new Set<string>();
    const visit = (file: string) => {
      if (reached.has(file)) return;
      reached.add(file);
      for (const next of graph.get(file) ?? []) visit(next);
    };
    visit(entry);
    assert(reached.has("runners/report/mod.ts"), entry);
    assertEquals([...reached].filter((f) => measuring.some((m) => f.startsWith(m))), [], entry);
  }
});

Deno.test("every source folder has a row in the layer table", async () => {
  const folders = new Set((await sourceFiles(ROOT)).map((f) => f.includes("/") ? f.slice(0, f.lastIndexOf("/")) : "."));
  for (const folder of folders) assert(layerOf(folder) !== null, `${folder} has no layer`);
});

/** A copy of the repository's deno.json and the given files in `root`. */
async function plant(root: string, files: Record<string, string>): Promise<void> {
  await Deno.copyFile(`${ROOT}deno.json`, `${root}/deno.json`);
  for (const [path, text] of Object.entries(files)) {
    await Deno.mkdir(`${root}/${path.slice(0, path.lastIndexOf("/"))}`, { recursive: true });
    await Deno.writeTextFile(`${root}/${path}`, text);
  }
}

Deno.test("a planted upward import, private import, import past a folder's mod.ts and cycle each fail the check, naming the files", async () => {
  const found = await withTmp(async (root) => {
    await plant(root, {
      "runners/platform/ports.ts": 'import { run } from "../suite/run.ts";\nexport const p = run;\n',
      "runners/suite/run.ts": 'import { view } from "../report/_view.ts";\nexport const run = view;\n',
      "runners/report/_view.ts": "export const view = 1;\n",
      "runners/stats/a.ts": 'import { b } from "./b.ts";\nexport const a = () => b;\n',
      "runners/stats/b.ts": 'import { a } from "./a.ts";\nexport const b = () => a;\n',
      "workloads/ok.ts": 'import { a } from "../runners/stats/a.ts";\nexport const ok = a;\n',
    });
    return violations(await importGraph(root));
  });
  assertEquals(found.sort(), [
    "cycle: runners/stats/a.ts → runners/stats/b.ts → runners/stats/a.ts",
    "private: runners/suite/run.ts imports runners/report/_view.ts",
    "surface: runners/platform/ports.ts imports runners/suite/run.ts (import runners/suite/mod.ts)",
    "surface: workloads/ok.ts imports runners/stats/a.ts (import runners/stats/mod.ts)",
    "upward: runners/platform/ports.ts (runners/platform) imports runners/suite/run.ts (runners/suite)",
  ]);
});

Deno.test("the layer table itself points down: no layer allows one that allows it back", () => {
  for (const [layer, allowed] of Object.entries(LAYERS)) {
    for (const below of allowed) {
      assert(!(LAYERS[below] ?? []).includes(layer), `${layer} and ${below} allow each other`);
    }
  }
});

Deno.test("no function in runners/, workloads/ or adapters/ is longer than 80 lines", async () => {
  const files = (await sourceFiles(ROOT)).filter((f) => /^(runners|workloads|adapters)\//.test(f));
  assert(files.length > 10);
  const long = [];
  for (const file of files) {
    for (const f of longFunctions(await Deno.readTextFile(`${ROOT}${file}`), 80)) long.push(`${file}: ${f}`);
  }
  assertEquals(long, []);
  // The scanner finds a long one when there is one.
  const body = Array.from({ length: 81 }, (_, i) => `  const a${i} = ${i};`).join("\n");
  assertEquals(longFunctions(`export async function big(): Promise<void> {\n${body}\n}\n`, 80), ["big (83 lines)"]);
});

Deno.test("the servers under test import nothing of rtbench", async () => {
  const imports: string[] = [];
  const walk = async (dir: string) => {
    for await (const e of Deno.readDir(`${ROOT}${dir}`)) {
      const path = `${dir}/${e.name}`;
      if (e.isDirectory) await walk(path);
      else if (/\.(ts|mjs|js)$/.test(e.name)) {
        const text = await Deno.readTextFile(`${ROOT}${path}`);
        for (const m of text.matchAll(/(?:from|import)\s*\(?\s*["'](\.[^"']*)["']/g)) {
          const target = new URL(m[1], `file:///${path}`).pathname.slice(1);
          if (!target.startsWith("servers/")) imports.push(`${path} imports ${m[1]}`);
        }
      }
    }
  };
  await walk("servers");
  assertEquals(imports, []);
});
