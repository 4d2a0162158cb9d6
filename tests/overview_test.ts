// README "At a glance, across versions, over time", the overview and key findings.
// Every human-readable report opens with the overview (workload rows × runtime columns, each cell relative to the
// row's best, ties where the 95% intervals overlap, warnings as badges) and the key findings, which list a
// difference only when compare's test finds it significant. Run on the stored results (fixtures/results).
import { assert, assertEquals, assertMatch } from "@std/assert";
import { formatHtml, formatMarkdown } from "../runners/report/mod.ts";
import { formatTable } from "../runners/report/table.ts";
import { welchTest } from "../runners/stats/welch.ts";
import { holmAdjust } from "../runners/stats/holm.ts";
import type { BenchRecord, BenchResult } from "../runners/schema/result.ts";
import { summarize } from "../runners/stats/summary.ts";
import { BASE_PATH, HEAD_PATH, loadFixture, markdownRow } from "./_report_helpers.ts";

function findingLines(text: string, bullet: string): string[] {
  return text.split("\n").filter((l) => l.startsWith(bullet));
}

/** Per-run requests/s of a runtime in a result. */
function runsOf(result: BenchResult, runtime: string): number[] {
  return result.records.find((r) => r.runtime.requested === runtime)!.runs.map((r) => r.figures.requestsPerSecond);
}

Deno.test("terminal, Markdown and HTML reports open with the overview and the key findings", async () => {
  const head = await loadFixture(HEAD_PATH);
  const text = formatTable(head);
  assert(text.startsWith("At a glance\n"), text.slice(0, 200));
  assert(text.indexOf("Key findings:") < text.indexOf("http-json (default) · "), "findings before the sections");

  const md = formatMarkdown(head);
  assert(md.indexOf("## At a glance") < md.indexOf("## http-json (default)"));
  assert(md.indexOf("### Key findings") < md.indexOf("## http-json (default)"));

  const html = formatHtml(head);
  assert(html.indexOf('<section id="overview">') > 0);
  assert(html.indexOf('<section id="overview">') < html.indexOf('<section class="workload"'));
});

Deno.test("overview: each cell relative to the row's best, a tie where the 95% CIs overlap, warnings as badges", async () => {
  const head = await loadFixture(HEAD_PATH);
  const ci = (runtime: string) => head.records.find((r) => r.runtime.requested === runtime)!.summary.requestsPerSecond;
  // In head, bun is best; deno's interval reaches into bun's, node's does not.
  assert(ci("deno").ci95!.high >= ci("bun").ci95!.low && ci("node").ci95!.high < ci("bun").ci95!.low);
  const md = formatMarkdown(head);
  const row = markdownRow(md, "http-json (default)");
  assertEquals(row.slice(0, 2), ["http-json (default)", "requestsPerSecond ↑"]);
  assertEquals(row[2], "50,931/s · ≈ best");
  const ratio = ci("bun").median / ci("node").median;
  // bun, the best, is client-bound: its figure is a lower bound, so node is at least this far behind.
  assertEquals(row[3], `37,671/s · ≥ ${ratio.toFixed(2)}× behind`);
  assertEquals(row[4], "80,115/s · best ⚠ client-bound");
  assertEquals(row[5], "errored");

  const html = formatHtml(head);
  const cells = [
    ...html.matchAll(/<td class="text [^"]*" data-runtime="([^"]+)" data-standing="([^"]+)"[^>]*>(.*?)<\/td>/g),
  ];
  assertEquals(cells.map((c) => [c[1], c[2]]), [["deno", "tie"], ["node", "behind"], ["bun", "best"], [
    "node@99",
    "errored",
  ]]);
  assertMatch(cells[2][3], /<span class="badge" title="[^"]+">⚠ client-bound<\/span>/);
});

Deno.test("findings: a significant difference yields a finding with its numbers and interval, a non-significant none", async () => {
  const head = await loadFixture(HEAD_PATH);
  // What the test says of the pairs with the best (bun), corrected for testing both (Holm): node significant, deno not.
  const [node, deno] = holmAdjust(["node", "deno"].map((r) => welchTest(runsOf(head, r), runsOf(head, "bun")).p));
  assert(node < 0.05 && deno >= 0.05, `Holm-adjusted p: node ${node}, deno ${deno}`);

  const text = formatTable(head);
  const findings = findingLines(text, "• ");
  assertEquals(findings.length, 1, text);
  const w = welchTest(runsOf(head, "node"), runsOf(head, "bun"));
  const pct = (v: number) => (100 * v / w.meanBase).toFixed(1);
  assertEquals(
    findings[0],
    // bun is client-bound in head: its figure is a lower bound, so it is at least this much faster.
    `• http-json (default): bun 1.4.5 is ≥ 2.13× faster than node 20.20.2 on requestsPerSecond (median 80,115/s vs ` +
      `37,671/s; difference of means +${pct(w.difference)}% of node 20.20.2's, 95% CI +${pct(w.ci.low)}% to +${
        pct(w.ci.high)
      }%, p (Holm, 2 tests) < 0.001, 5 vs 5 runs)`,
  );
  assert(!findings.some((f) => f.includes("deno")), "deno's lead-or-lag is noise: no finding");
  assertEquals(findingLines(formatMarkdown(head), "- http-json").length, 1);
  assertEquals((formatHtml(head).match(/<ul class="findings"><li>/g) ?? []).length, 1);

  // In base no runtime differs significantly from the best: no finding at all, in any format.
  const base = await loadFixture(BASE_PATH);
  for (const runtime of ["deno", "node"]) assert(welchTest(runsOf(base, runtime), runsOf(base, "bun")).p >= 0.05);
  const none = formatTable(base);
  assertEquals(findingLines(none, "• "), []);
  assert(none.includes("No significant difference between runtimes"));
  assert(formatHtml(base).includes("No significant difference between runtimes"));
});

Deno.test("a tie (overlapping 95% CIs) can still be a finding; among several pairs, Holm's correction can undo it", async () => {
  const head = await loadFixture(HEAD_PATH);
  const withRuns = (r: BenchRecord, values: number[]): BenchRecord => ({
    ...r,
    runs: r.runs.slice(0, values.length).map((run, i) => ({
      ...run,
      figures: { ...run.figures, requestsPerSecond: values[i] },
    })),
    summary: { ...r.summary, requestsPerSecond: summarize(values) },
  });
  const [deno, bun] = ["deno", "bun"].map((n) => head.records.find((r) => r.runtime.requested === n)!);
  const result = {
    ...head,
    records: [withRuns(deno, [97_000, 98_000, 99_500]), withRuns(bun, [100_000, 101_000, 102_000])],
  };
  const [a, b] = result.records.map((r) => r.summary.requestsPerSecond.ci95!);
  assert(a.high >= b.low, "the intervals overlap");
  assert(welchTest([97_000, 98_000, 99_500], [100_000, 101_000, 102_000]).p < 0.05, "and the test finds a difference");
  const md = formatMarkdown(result);
  assertEquals(markdownRow(md, "http-json (default)")[2], "98,000/s · ≈ best");
  assertEquals(findingLines(md, "- http-json").length, 1);

  // A third runtime makes two pairs to test: corrected for both (Holm), the same difference is no longer a finding.
  const node = head.records.find((r) => r.runtime.requested === "node")!;
  const three = { ...result, records: [...result.records, withRuns(node, [99_000, 100_500, 101_500])] };
  const raw = [[97_000, 98_000, 99_500], [99_000, 100_500, 101_500]].map((v) =>
    welchTest(v, [100_000, 101_000, 102_000]).p
  );
  assert(raw[0] < 0.05 && holmAdjust(raw)[0] >= 0.05, `raw ${raw}, adjusted ${holmAdjust(raw)}`);
  assertEquals(findingLines(formatMarkdown(three), "- http-json"), []);
});

// README "At a glance, across versions, over time": "A cell measured once says `1 run`".
Deno.test("a runtime measured once is marked 1 run in the overview: its ratio is one measurement, not a ranking", async () => {
  const head = await loadFixture(HEAD_PATH);
  const once = (r: BenchRecord): BenchRecord => {
    const value = r.runs[0].figures.requestsPerSecond;
    return { ...r, runs: r.runs.slice(0, 1), summary: { ...r.summary, requestsPerSecond: summarize([value]) } };
  };
  const records = head.records.map((r) => r.runtime.requested === "node" ? once(r) : r);
  const node = records.find((r) => r.runtime.requested === "node")!;
  const md = formatMarkdown({ ...head, records });
  const row = markdownRow(md, "http-json (default)");
  assertMatch(row[3], /^[\d,]+\/s · ≥ [\d.]+× behind · 1 run$/, row[3]);
  assertEquals(row[4], "80,115/s · best ⚠ client-bound", "bun, measured 5 times, is not marked");
  assertEquals(node.summary.requestsPerSecond.ci95, null);
  assert(md.includes("1 run = measured once, no interval"), "the legend says what it means");
  assert(formatHtml({ ...head, records }).includes(" · 1 run"));
});

Deno.test("a result where no workload has two runtimes with a figure says there is nothing to compare", async () => {
  const head = await loadFixture(HEAD_PATH);
  const lone = {
    ...head,
    records: head.records.filter((r) => r.runtime.requested === "deno" || r.status !== "completed"),
  };
  const text = formatTable(lone);
  assert(text.startsWith("At a glance\n"));
  assert(text.includes("Nothing to compare: no workload has two runtimes with a figure."), text.slice(0, 800));
  assert(!text.includes("No significant difference"));
});
