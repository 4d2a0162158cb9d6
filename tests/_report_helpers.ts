// Helpers for the exporter tests: load the stored results, read numbers back
// out of rendered text, parse CSV.
import { assert, assertEquals, assertMatch, assertStringIncludes } from "@std/assert";
import type { BenchRecord, BenchResult } from "../runners/schema/result.ts";
import { parseResult } from "../runners/schema/mod.ts";
import { formatNumber } from "../runners/stats/format.ts";
import { ROOT } from "./_helpers.ts";

/** The stored result pair (see fixtures/results/README.md). */
export const BASE_PATH = `${ROOT}fixtures/results/base.json`;
export const HEAD_PATH = `${ROOT}fixtures/results/head.json`;
/** Real multi-core runs of http-json on deno and node at one and two server CPUs (see the same README). */
export const SERVER_CPUS_1_PATH = `${ROOT}fixtures/results/server-cpus-1.json`;
export const SERVER_CPUS_2_PATH = `${ROOT}fixtures/results/server-cpus-2.json`;

/** A stored result, parsed and validated. */
export async function loadFixture(path: string): Promise<BenchResult> {
  return parseResult(await Deno.readTextFile(path));
}

const UNITS: Record<string, number> = { "µs": 1, "ms": 1000, "s": 1_000_000, "/s": 1, "": 1 };

/**
 * Reads a number as the exporters print it (`80,115/s`, `1.09 ms`, `995 µs`)
 * back into the JSON's unit (µs for times, per second for rates), with the
 * largest error its printed precision allows.
 */
export function readNumber(text: string): { value: number; tolerance: number } {
  const m = text.trim().match(/^(-?[\d,]+(?:\.(\d+))?)\s*(µs|ms|s|\/s)?$/);
  if (!m) throw new Error(`Not a printed number: "${text}"`);
  const factor = UNITS[m[3] ?? ""];
  const decimals = m[2]?.length ?? 0;
  return { value: Number(m[1].replace(/,/g, "")) * factor, tolerance: 0.5 * 10 ** -decimals * factor + 1e-9 };
}

/** Whether printed `text` is `value` to its printed precision. */
export function shows(text: string, value: number): boolean {
  const { value: v, tolerance } = readNumber(text);
  return Math.abs(v - value) <= tolerance;
}

/** Cells of the Markdown table row whose first cell is `first`. */
export function markdownRow(markdown: string, first: string, after = 0): string[] {
  const line = markdown.slice(after).split("\n").find((l) => l.startsWith(`| ${first} |`));
  if (!line) throw new Error(`No Markdown row for "${first}"`);
  return line.slice(2, -2).split(/ (?<!\\)\| /);
}

/** Parses RFC 4180 CSV into rows of fields. */
export function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = "";
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') {
        quoted = false;
      } else {
        field += c;
      }
    } else if (c === '"') {
      quoted = true;
    } else if (c === ",") {
      row.push(field);
      field = "";
    } else if (c === "\r" && text[i + 1] === "\n") {
      row.push(field);
      rows.push(row);
      row = [];
      field = "";
      i++;
    } else {
      field += c;
    }
  }
  if (field !== "" || row.length > 0) rows.push([...row, field]);
  return rows;
}

/** A record's label in the reports: `name version`, or what was asked for when it never ran. */
export function label(r: BenchRecord): string {
  return r.runtime.version ? `${r.runtime.name} ${r.runtime.version}` : r.runtime.requested;
}

/**
 * Checks, without the exporters' own code, that `text` is `result` rendered as `format` (an HTTP result, whose
 * headline is requests/s): the JSON is the result document; every other format shows each completed record's median
 * where that format puts it (the Markdown and terminal row of its runtime, the CSV row of its headline, the HTML bar's
 * label).
 */
export function assertRenders(format: string, text: string, result: BenchResult): void {
  const completed = result.records.filter((r) => r.status === "completed");
  assert(completed.length > 0, "a result with figures to show");
  const rate = (r: BenchRecord) => r.summary.requestsPerSecond.median;
  const printed = (r: BenchRecord) => `${Math.round(rate(r)).toLocaleString("en-US")}/s`;
  switch (format) {
    case "json":
      assertEquals(parseResult(text), result);
      return;
    case "md":
      assertMatch(text, /^# rtbench results\n/);
      for (const r of completed) {
        const cell = markdownRow(text, label(r), text.indexOf(`## ${r.workload} (${r.variant})`))[1];
        assert(shows(cell, rate(r)), `${label(r)}: ${cell} is ${rate(r)}`);
      }
      return;
    case "csv": {
      const [header, ...rows] = parseCsv(text);
      const col = (name: string) => header.indexOf(name);
      for (const r of completed) {
        const row = rows.find((x) => x[col("runtime")] === r.runtime.name && x[col("figure")] === "requestsPerSecond");
        // Numbers as the CSV writes them: 12 significant digits, so binary float noise never shows.
        assertEquals([row?.[col("statistic")], row?.[col("value")]], ["median", formatNumber(rate(r))], label(r));
        assertEquals(row![col("samples")].split(" "), r.runs.map((x) => formatNumber(x.figures.requestsPerSecond)));
      }
      return;
    }
    case "table":
      for (const r of completed) {
        const line = text.split("\n").find((l) => l.startsWith(`${label(r)} `));
        assert(line?.includes(printed(r)), `${label(r)}: ${line}`);
      }
      return;
    case "html":
      assertMatch(text, /^<!doctype html>/);
      for (const r of completed) assertStringIncludes(text, `>${printed(r)}</text>`, label(r));
      return;
    default:
      throw new Error(`No check for format ${format}`);
  }
}
