// README walk: shows claims of docs/reproduce.md "The articles' experiments, and `deno task reproduce`" (fs's write and read columns).
// fs: write and read are figures of their own in the tables (002 reports them apart), not only in the JSON.
import { assert, assertEquals } from "@std/assert";
import { run } from "../_suite.ts";
import { validateResult } from "../../runners/schema/mod.ts";
import { fsWorkload } from "../../workloads/fs.ts";
import { formatMarkdown } from "../../runners/report/mod.ts";
import { formatTable } from "../../runners/report/table.ts";
import { withTmp } from "../_helpers.ts";

/** The cells of the Markdown row of `runtime` under the table whose header holds `write`. */
function rowOf(markdown: string, runtime: string): Map<string, string> {
  const lines = markdown.split("\n");
  const header = lines.findIndex((l) => l.startsWith("|") && l.includes("| write |") && l.includes("| read |"));
  assert(header >= 0, `no table with write and read columns:\n${markdown}`);
  const cells = (line: string) => line.split("|").slice(1, -1).map((c) => c.trim());
  const names = cells(lines[header]);
  const row = lines.slice(header + 2).find((l) => l.startsWith("|") && cells(l)[0]?.startsWith(`${runtime} `));
  if (!row) throw new Error(`no row for ${runtime}`);
  return new Map(cells(row).map((c, i) => [names[i], c]));
}

Deno.test("fs tables show write and read apart, each the median of its own runs' figure", () =>
  withTmp(async (tmp) => {
    const result = await run({
      workloads: [fsWorkload],
      runtimes: ["deno", "node", "bun"],
      variants: ["idiomatic"],
      options: { "fs-files": 300 },
      settings: { runs: 3 },
      tempDir: tmp,
    });
    assertEquals(validateResult(result), []);
    const markdown = formatMarkdown(result);
    for (const record of result.records) {
      assertEquals(record.status, "completed", JSON.stringify(record.error));
      const row = rowOf(markdown, record.runtime.name);
      // The medians of the three runs' own figures, computed here from the runs rather than read from the summary.
      const median = (figure: string) => record.runs.map((r) => r.figures[figure]).sort((a, b) => a - b)[1];
      assertEquals(row.get("write"), `${median("writeMs").toFixed(2)} ms`);
      assertEquals(row.get("read"), `${median("readMs").toFixed(2)} ms`);
    }
    // The terminal table carries the same two columns.
    const table = formatTable(result);
    assert(/\bwrite\b/.test(table) && /\bread\b/.test(table), table);
  }));
