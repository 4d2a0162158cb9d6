// Helpers for the exporter tests: load the stored results, read numbers back
// out of rendered text, parse CSV.
import type { BenchResult } from "../runners/schema/result.ts";
import { parseResult } from "../runners/schema/mod.ts";
import { ROOT } from "./_helpers.ts";

/** The stored result pair (see fixtures/results/README.md). */
export const BASE_PATH = `${ROOT}fixtures/results/base.json`;
export const HEAD_PATH = `${ROOT}fixtures/results/head.json`;

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
