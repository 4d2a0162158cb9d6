// README "At a glance, across versions, over time", the overview and key findings.
// Every human-readable report opens with the overview (workload rows × runtime columns, each cell relative to the
// row's best, ties where the 95% intervals overlap, warnings as badges) and the key findings, which list a
// difference only when compare's test finds it significant. Run on the stored results (fixtures/results).
import { assert, assertEquals, assertMatch } from "@std/assert";
import { formatHtml, formatMarkdown } from "../runners/report/mod.ts";
import { formatTable } from "../runners/report/table.ts";
import type { BenchRecord } from "../runners/schema/result.ts";
import { summarize } from "../runners/stats/summary.ts";
import { BASE_PATH, HEAD_PATH, loadFixture, markdownRow } from "./_report_helpers.ts";

function findingLines(text: string, bullet: string): string[] {
  return text.split("\n").filter((l) => l.startsWith(bullet));
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
  // In head (fixtures/results), bun is best at 80,114.7/s. The 95% intervals stored in the file (mean ± t(0.975, 4) ×
  // s / √5, t = 2.7764): bun 79,439.16 ± 2.7764 × 3,225.78 / √5 = 75,434 – 83,444/s; deno's, 35,819 – 85,282/s,
  // reaches into it (a tie); node's, 27,691 – 43,083/s, does not (behind).
  const md = formatMarkdown(head);
  const row = markdownRow(md, "http-json (default)");
  assertEquals(row.slice(0, 2), ["http-json (default)", "requestsPerSecond ↑"]);
  assertEquals(row[2], "50,931/s · ≈ best");
  // bun, the best, is client-bound: its figure is a lower bound, so node (median 37,671.39/s) is at least
  // 80,114.7 / 37,671.39 = 2.1267 times behind.
  assertEquals(row[3], "37,671/s · ≥ 2.13× behind");
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

// Welch's t-test of node (base) against bun in head.json, by hand (30-digit arithmetic, independent of rtbench):
//   node 36869.23, 39597.92, 37671.39, 38353.1, 24442.73: mean 35,386.874, s² 38,430,521.41, s²/n 7,686,104.28
//   bun  75724.19, 84050.92, 80211.96, 77094.01, 80114.7: mean 79,439.156, s² 10,405,658.76, s²/n 2,081,131.75
//   difference 44,052.282 = +124.49% of node's mean; se = √(7,686,104.28 + 2,081,131.75) = 3,125.258
//   df = 9,767,236.04² / (7,686,104.28²/4 + 2,081,131.75²/4) = 6.018; t = 44,052.282 / 3,125.258 = 14.096, p = 7.77e-6
//   t(0.975, 6.018) = 2.4451: CI 44,052.28 ± 7,641.64 = 36,410.64 to 51,693.92 = +102.89% to +146.08% of node's
// deno against bun: deno's mean 60,550.372, s²/n 79,368,671.2, df 4.210, t = 2.093, p = 0.1010.
// Holm over the two pairs: node min(1, 2 × 7.77e-6) = 1.55e-5 < 0.05, a finding; deno max(1.55e-5, 0.1010) = 0.1010.
// base.json: deno against bun t = 2.281, df 7.97, p = 0.0521; node against bun t = 1.398, df 7.16, p = 0.2038: neither
// below 0.05 even before the correction.
Deno.test("findings: a significant difference yields a finding with its numbers and interval, a non-significant none", async () => {
  const head = await loadFixture(HEAD_PATH);
  const text = formatTable(head);
  const findings = findingLines(text, "• ");
  assertEquals(findings, [
    // bun is client-bound in head: its figure is a lower bound, so it is at least 80,114.7 / 37,671.39 = 2.13× faster.
    "• http-json (default): bun 1.4.5 is ≥ 2.13× faster than node 20.20.2 on requestsPerSecond (median 80,115/s vs " +
    "37,671/s; difference of means +124.5% of node 20.20.2's, 95% CI +102.9% to +146.1%, p (Holm, 2 tests) < 0.001, " +
    "5 vs 5 runs)",
  ], text);
  assertEquals(findingLines(formatMarkdown(head), "- http-json").length, 1);
  assertEquals((formatHtml(head).match(/<ul class="findings"><li>/g) ?? []).length, 1);

  // In base no runtime differs significantly from the best: no finding at all, in any format.
  const base = await loadFixture(BASE_PATH);
  const none = formatTable(base);
  assertEquals(findingLines(none, "• "), []);
  assert(none.includes("No significant difference between runtimes"));
  assert(formatHtml(base).includes("No significant difference between runtimes"));
});

// By hand: deno 97,000, 98,000, 99,500 (mean 98,166.67, s² 1,583,333.3) against bun 100,000, 101,000, 102,000 (mean
// 101,000, s² 1,000,000): 95% CIs 98,166.67 ± 4.3027 × 1,258.3 / √3 = 95,040.8 – 101,292.6 and 101,000 ± 2,484.1 =
// 98,515.9 – 103,484.1 overlap, yet Welch's t = 2,833.33 / √(527,777.8 + 333,333.3) = 3.053, df 3.806, p = 0.0405.
// node 99,000, 100,500, 101,500 against bun: t = 666.67 / 927.96 = 0.718, p = 0.5141. Holm over the two pairs:
// deno's 2 × 0.0405 = 0.0809 ≥ 0.05.
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
  const md = formatMarkdown(result);
  assertEquals(markdownRow(md, "http-json (default)")[2], "98,000/s · ≈ best");
  assertEquals(findingLines(md, "- http-json").length, 1);
  assertMatch(findingLines(md, "- http-json")[0], /p = 0\.040\b|p = 0\.04\b/);

  // A third runtime makes two pairs to test: corrected for both (Holm), the same difference is no longer a finding.
  const node = head.records.find((r) => r.runtime.requested === "node")!;
  const three = { ...result, records: [...result.records, withRuns(node, [99_000, 100_500, 101_500])] };
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
