// Reading a result loads little: the result schema (`./schema`) loads nothing of the platform, and the reports load
// the schema, the statistics and themselves, never the layers that measure (the graph as tests/_imports.ts reads it).
import { assertEquals, assertGreater } from "@std/assert";
import { loadedBy, readSource, REPORT_MAX, weightProblems } from "../_imports.ts";

Deno.test("the result schema loads nothing of the platform, and the reports nothing that measures, at most 61 modules", () => {
  const schema = loadedBy("runners/schema/mod.ts", readSource);
  const report = loadedBy("runners/report/mod.ts", readSource);
  assertEquals(weightProblems(schema, report), []);
  // `deno task report` (and compare, trend): the command line's entry, which loads only the command chosen.
  for (const command of ["report", "compare", "trend"]) {
    const loads = [...new Set(["runners/cli/main.ts", ...loadedBy(`runners/cli/${command}.ts`, readSource)])];
    assertEquals(weightProblems(schema, loads), [], command);
  }
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
