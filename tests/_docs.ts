// The project's documentation as the tests read it: the README (what rtbench is, how to run it, how to read its output)
// and the pages of docs/ the rest lives in. A test that holds a claim of the docs reads the page the claim is on.
import { assert } from "@std/assert";
import { ROOT } from "./_helpers.ts";

/** The documentation's pages, relative to the root: the README first, then docs/ in name order. */
export const DOC_PAGES: readonly string[] = [
  "README.md",
  ...[...Deno.readDirSync(`${ROOT}docs`)].filter((e) => e.isFile && e.name.endsWith(".md")).map((e) => `docs/${e.name}`)
    .sort(),
];

/** The text of one page (`README.md`, `docs/reference.md`). */
export function readDoc(page: string): string {
  assert(DOC_PAGES.includes(page), `${page} is a page of the docs`);
  return Deno.readTextFileSync(`${ROOT}${page}`);
}

/** Every page's text, one after the other: for a claim that may sit on any page. */
export function allDocs(): string {
  return DOC_PAGES.map(readDoc).join("\n");
}

/**
 * A section of a page: from its heading (`### Write your own workload`) to the next heading of its level or above,
 * headings in fenced code (a shell comment) not counting.
 */
export function docSection(page: string, heading: string): string {
  const lines = readDoc(page).split("\n");
  const start = lines.indexOf(heading);
  assert(start >= 0, `${page} has ${heading}`);
  const level = /^#+/.exec(heading)![0].length;
  let fenced = false;
  let end = start + 1;
  for (; end < lines.length; end++) {
    if (lines[end].startsWith("```")) fenced = !fenced;
    else if (!fenced && new RegExp(`^#{1,${level}} `).test(lines[end])) break;
  }
  return lines.slice(start, end).join("\n");
}
