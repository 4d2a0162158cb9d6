// Reading a result loads little: the result schema (`./schema`) loads nothing of the platform, and the reports load
// the schema, the statistics and themselves, never the layers that measure. The unit tier may not start processes,
// so the module graph is walked here from the source (the top-level import and export declarations that deno fmt
// puts at the start of a line, and literal dynamic imports); tests/e2e/layering_test.ts reads the same graph with
// `deno info`.
import { assertEquals, assertGreater } from "@std/assert";
import { ROOT } from "../_helpers.ts";

/** Most project modules a program that reads results may load through the reports. */
const REPORT_MAX = 60;
/** Folders whose modules measure, run or provision: a reader of results loads none of them. */
const MEASURING = [
  "runners/platform/",
  "runners/engine/",
  "runners/drivers/",
  "runners/kinds/",
  "workloads/",
  "adapters/",
];

const STATIC =
  /^(?:import|export)\s+(?:type\s+)?(?:[\w$]+\s*,?\s*)?(?:\{[^}]*\}\s*|\*\s*(?:as\s+[\w$]+\s*)?)?from\s*["']([^"']+)["']/gm;
const BARE = /^import\s*["']([^"']+)["']/gm;
const DYNAMIC = /\bimport\(\s*["']([^"']+)["']\s*\)/g;

/** The project files `text` imports (relative specifiers only: the rest are packages), as paths from the root. */
export function importsOf(file: string, text: string): string[] {
  const dir = file.includes("/") ? file.slice(0, file.lastIndexOf("/") + 1) : "";
  const found = [...text.matchAll(STATIC), ...text.matchAll(BARE), ...text.matchAll(DYNAMIC)]
    .map((m) => m[1]).filter((s) => s.startsWith("./") || s.startsWith("../"));
  return [...new Set(found.map((s) => new URL(s, `file:///${dir}`).pathname.slice(1)))];
}

/** Every project file `entry` loads, itself included, reading each file with `read`. */
export function loadedBy(entry: string, read: (file: string) => string): string[] {
  const seen = new Set<string>();
  const visit = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    if (/\.(ts|js|mjs|mts)$/.test(file)) { for (const next of importsOf(file, read(file))) visit(next); }
  };
  visit(entry);
  return [...seen].sort();
}

/** What is wrong with what the schema and the reports load: empty when they load little. */
export function weightProblems(schema: readonly string[], report: readonly string[]): string[] {
  const problems = schema.filter((f) => f.startsWith("runners/platform/")).map((f) => `schema loads ${f}`);
  problems.push(...report.filter((f) => MEASURING.some((m) => f.startsWith(m))).map((f) => `report loads ${f}`));
  if (report.length > REPORT_MAX) {
    problems.push(`report loads ${report.length} project modules (at most ${REPORT_MAX})`);
  }
  return problems;
}

const readSource = (file: string) => Deno.readTextFileSync(`${ROOT}${file}`);

Deno.test("the result schema loads nothing of the platform, and the reports nothing that measures, at most 60 modules", () => {
  const schema = loadedBy("runners/schema/mod.ts", readSource);
  const report = loadedBy("runners/report/mod.ts", readSource);
  assertEquals(weightProblems(schema, report), []);
  // The walk finds the graph: the schema's JSON and the statistics are in it.
  assertEquals(schema.includes("runners/schema/bench_result.schema.json"), true);
  assertGreater(report.filter((f) => f.startsWith("runners/stats/")).length, 5);
});

Deno.test("a planted import of the platform into the schema, or of a driver into a report, fails the check", () => {
  const files: Record<string, string> = {
    "runners/schema/mod.ts": 'export * from "./read.ts";\nexport { x } from "./validate.ts";\n',
    "runners/schema/read.ts":
      '/**\n * import { y } from "../drivers/mod.ts";\n */\nimport {\n  UsageError,\n} from "../platform/mod.ts";\n',
    "runners/schema/validate.ts": 'import schema from "./s.json" with { type: "json" };\n',
    "runners/schema/s.json": "{}",
    "runners/platform/mod.ts": "",
    "runners/report/mod.ts":
      'import type { T } from "../schema/mod.ts";\nconst m = await import("../drivers/wrk.ts");\n',
    "runners/drivers/wrk.ts": "",
  };
  const read = (file: string) => files[file];
  const schema = loadedBy("runners/schema/mod.ts", read);
  assertEquals(schema, [
    "runners/platform/mod.ts",
    "runners/schema/mod.ts",
    "runners/schema/read.ts",
    "runners/schema/s.json",
    "runners/schema/validate.ts",
  ]);
  const report = loadedBy("runners/report/mod.ts", read);
  assertEquals(weightProblems(schema, report), [
    "schema loads runners/platform/mod.ts",
    "report loads runners/drivers/wrk.ts",
    "report loads runners/platform/mod.ts",
  ]);
  const many = Array.from({ length: REPORT_MAX + 1 }, (_, i) => `runners/report/f${i}.ts`);
  assertEquals(weightProblems([], many), [`report loads ${REPORT_MAX + 1} project modules (at most ${REPORT_MAX})`]);
});
