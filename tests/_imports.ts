// The project's module graph read from the source, for the unit tier, which may not start processes (so not
// `deno info`, which tests/e2e/layering_test.ts reads): the top-level import and export declarations that deno fmt
// puts at the start of a line, and literal dynamic imports. A JSDoc example's import is not at a line's start.
import { ROOT } from "./_helpers.ts";

/** Most project modules a program that reads results may load through the reports. */
export const REPORT_MAX = 61;
/** Folders whose modules measure, run or provision: a reader of results loads none of them. */
export const MEASURING = [
  "runners/platform/",
  "runners/samples/",
  "runners/suite/",
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

/** What is wrong with what the schema and the reports (or a reading command) load: empty when they load little. */
export function weightProblems(schema: readonly string[], report: readonly string[]): string[] {
  const problems = schema.filter((f) => f.startsWith("runners/platform/")).map((f) => `schema loads ${f}`);
  problems.push(...report.filter((f) => MEASURING.some((m) => f.startsWith(m))).map((f) => `report loads ${f}`));
  if (report.length > REPORT_MAX) {
    problems.push(`report loads ${report.length} project modules (at most ${REPORT_MAX})`);
  }
  return problems;
}

/** Reads a project file by its path from the root. */
export const readSource = (file: string): string => Deno.readTextFileSync(`${ROOT}${file}`);
