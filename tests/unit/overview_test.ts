// docs/guide.md "At a glance, across versions, over time", the overview and key findings.
// Every human-readable report opens with the overview (workload rows × runtime columns, each cell relative to the
// row's best, a tie where the 95% interval of the ratio includes 1, warnings as badges) and the key findings, which
// list a difference only when the ratio's test finds it significant. Run on the stored results (fixtures/results,
// runtimes measured one after another) and on a result whose runtimes were interleaved round by round.
import { assert, assertEquals, assertMatch, assertStringIncludes } from "@std/assert";
import { formatHtml, formatMarkdown } from "../../runners/report/mod.ts";
import { formatTable } from "../../runners/report/table.ts";
import type { BenchRecord, BenchResult } from "../../runners/schema/result.ts";
import { summarize } from "../../runners/stats/summary.ts";
import { validateResult } from "../../runners/schema/mod.ts";
import { BASE_PATH, HEAD_PATH, loadFixture, markdownRow } from "../_report_helpers.ts";
import { SERVER_CPUS_1_PATH, SERVER_CPUS_2_PATH } from "../_report_helpers.ts";
import { overviewOf } from "../../runners/report/_overview.ts";
import { buildView } from "../../runners/report/_view.ts";
import { createProgress } from "../../runners/suite/progress.ts";

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

// The ratio of two runtimes measured apart: Welch's t-test on the logs of their runs, worked by hand for head.json
// (30-digit arithmetic, independent of rtbench):
//   ln bun:  mean 11.282091, s² 0.0016348865;  ln node: mean 10.459400, s² 0.040136238;  ln deno: mean 10.967534,
//   s² 0.10955338 (five runs each).
//   bun/node: difference 0.822691, se = √(0.0016348865/5 + 0.040136238/5) = 0.0914015, df 4.3253, t = 9.0009,
//   p = 0.00058314; t(0.975, 4.3253) = 2.6960: e^(0.822691 ± 0.246417) = 2.2766 (1.7794–2.9128).
//   bun/deno: difference 0.314557, se 0.149123, df 4.1194, t = 2.1094, p = 0.10056; t(0.975) = 2.7450:
//   1.3697 (0.9096–2.0625), which includes 1.
//   Holm over the two: node 2 × 0.00058314 = 0.0011663 < 0.05; deno max(0.0011663, 0.10056) = 0.10056 ≥ 0.05.
// base.json: bun/deno p = 0.082205 (1.5143, 0.9301–2.4652), bun/node p = 0.20868 (1.1888, 0.8880–1.5915).

/** Five rounds of three runtimes interleaved round by round: each moves ±8% with the machine, their ratios ±1–2%. */
function pairedResult(head: BenchResult): BenchResult {
  const deno = [148_000, 176_000, 160_000, 170_000, 152_000];
  const node = [78_000, 90_000, 84_000, 88_000, 80_000];
  // bun behind deno by 10%, 8%, 12%, 9%, 11% in the five rounds.
  const bun = deno.map((d, i) => d / [1.10, 1.08, 1.12, 1.09, 1.11][i]);
  const ids = ["deno", "node", "bun"].map((n) => `http-json/default/${n}`);
  const pairing = { id: "http-json/default 2026-11-25T08:00:00.000Z", records: ids };
  const paired = (name: string, values: number[]): BenchRecord => {
    const r = head.records.find((x) => x.runtime.requested === name)!;
    return {
      ...r,
      warnings: [],
      pairing,
      runs: values.map((v, round) => ({
        ...r.runs[round],
        round,
        figures: { ...r.runs[round].figures, requestsPerSecond: v },
      })),
      summary: { ...r.summary, requestsPerSecond: summarize(values) },
    };
  };
  return {
    ...head,
    settings: { ...head.settings, order: "rotate" },
    records: [paired("deno", deno), paired("node", node), paired("bun", bun)],
  };
}

// docs/guide.md "At a glance, across versions, over time": cells relative to the row's best, from per-round ratios
// where the runtimes were measured in the same rounds; a tie where the ratio's interval includes 1.
Deno.test("overview: runtimes measured in the same rounds are ranked by the paired interval of their ratio", async () => {
  const result = pairedResult(await loadFixture(HEAD_PATH));
  assertEquals(validateResult(result), [], "the paired result is valid against the schema");
  const [deno, node, bun] = result.records.map((r) => r.summary.requestsPerSecond.ci95!);
  // Each runtime's own interval: deno's and bun's overlap widely (the old rule called this a tie).
  assert(bun.high > deno.low, `${JSON.stringify(bun)} vs ${JSON.stringify(deno)}`);
  assert(node.high < bun.low);
  const md = formatMarkdown(result);
  const row = markdownRow(md, "http-json (default)");
  // By hand (see stats/paired_test.ts for the method): deno/bun per-round ln ratios 0.0953, 0.0770, 0.1133, 0.0862,
  // 0.1044: mean 0.0952275, s 0.0143755, half 2.776445 · s / √5 = 0.0178497 → 1.0999 (1.0805–1.1197).
  // deno/node: 1.9178 (1.8870–1.9491).
  assertEquals(row[2], "160,000/s · best");
  assertEquals(row[3], "84,000/s · 1.92× behind");
  assertEquals(row[4], "142,857/s · 1.10× behind");
  // The results table's relative column: against the slowest (node), with the paired interval.
  // bun/node by hand: 1.7436 (1.6875–1.8015).
  assertStringIncludes(markdownRow(md, "deno 2.9.6", md.indexOf("## http-json"))[3], "1.92× node (1.89–1.95)");
  assertStringIncludes(markdownRow(md, "bun 1.4.5", md.indexOf("## http-json"))[3], "1.74× node (1.69–1.80)");
  assertStringIncludes(md, "relative: paired by round (5 rounds");
  // Both differences are findings, with the paired interval.
  const findings = findingLines(md, "- http-json");
  assertEquals(findings.length, 2, md.slice(0, 2000));
  assertStringIncludes(findings[0], "deno 2.9.6 is 1.10× faster than bun 1.4.5");
  assertStringIncludes(findings[0], "paired over 5 rounds: 95% CI 1.08–1.12×");
  assertStringIncludes(findings[1], "deno 2.9.6 is 1.92× faster than node 20.20.2");
  assertStringIncludes(findings[1], "paired over 5 rounds: 95% CI 1.89–1.95×");
});

Deno.test("overview: runtimes measured apart are ranked by Welch's interval of the ratio on the logs", async () => {
  const head = await loadFixture(HEAD_PATH);
  const md = formatMarkdown(head);
  const row = markdownRow(md, "http-json (default)");
  assertEquals(row.slice(0, 2), ["http-json (default)", "requestsPerSecond ↑"]);
  // In head (runtimes measured one after another), bun is best; bun/deno's interval (0.91–2.06) includes 1, bun/node's
  // (1.78–2.91) does not (by hand, above).
  assertEquals(row[2], "50,931/s · ≈ best");
  // bun, the best, is client-bound: its figure is a lower bound, so node is at least 2.2766 times behind.
  assertEquals(row[3], "37,671/s · ≥ 2.28× behind");
  assertEquals(row[4], "80,115/s · best ⚠ client-bound");
  assertEquals(row[5], "errored");
  assertStringIncludes(md, "relative: runs measured one runtime after another (not paired by round)");

  const html = formatHtml(head);
  const cells = [
    ...html.matchAll(/<td class="text [^"]*" data-runtime="([^"]+)" data-standing="([^"]+)"[^>]*>(.*?)<\/td>/g),
  ];
  assertEquals(cells.map((c) => [c[1], c[2]]), [["deno", "tie"], ["node", "behind"], ["bun", "best"], [
    "node@99",
    "errored",
  ]]);
  // A warning is a numbered marker, its code and message in the title, the number explained under the table.
  assertMatch(cells[2][3], /<span class="badge" data-code="client-bound" title="client-bound: [^"]+">⚠1<\/span>/);
  assertStringIncludes(html, `<span class="badge">⚠1</span> client-bound`);
});

Deno.test("findings: a significant difference yields a finding with its numbers and interval, a non-significant none", async () => {
  const head = await loadFixture(HEAD_PATH);
  // The pairs with the best (bun), corrected for testing both (Holm, by hand above): node 0.0011663, deno 0.10056.
  const text = formatTable(head);
  const findings = findingLines(text, "• ");
  assertEquals(findings.length, 1, text);
  assertEquals(
    findings[0],
    // bun is client-bound in head: its figure is a lower bound, so it is at least this much faster.
    "• http-json (default): bun 1.4.5 is ≥ 2.28× faster than node 20.20.2 on requestsPerSecond " +
      "(median 80,115/s vs 37,671/s; runs measured apart, 5 vs 5: 95% CI 1.78–2.91×, p (Holm, 2 tests) = 0.001)",
  );
  assert(!findings.some((f) => f.includes("deno")), "deno's lead-or-lag is noise: no finding");
  assertEquals(findingLines(formatMarkdown(head), "- http-json").length, 1);
  assertEquals((formatHtml(head).match(/<ul class="findings"><li>/g) ?? []).length, 1);

  // In base no runtime differs significantly from the best: no finding at all, in any format.
  const base = await loadFixture(BASE_PATH);
  const none = formatTable(base);
  assertEquals(findingLines(none, "• "), []);
  assert(none.includes("No significant difference between runtimes in any workload."));
  assert(!none.includes("it takes"), "base has 5 runs on each side: no word about too few");
  assert(formatHtml(base).includes("No significant difference between runtimes"));
});

Deno.test("behind in the overview, yet among several pairs Holm's correction can keep it out of the findings", async () => {
  const head = await loadFixture(HEAD_PATH);
  const withRuns = (r: BenchRecord, values: number[]): BenchRecord => ({
    ...r,
    warnings: [],
    runs: r.runs.slice(0, values.length).map((run, i) => ({
      ...run,
      figures: { ...run.figures, requestsPerSecond: values[i] },
    })),
    summary: { ...r.summary, requestsPerSecond: summarize(values) },
  });
  const [deno, bun] = ["deno", "bun"].map((n) => head.records.find((r) => r.runtime.requested === n)!);
  // By hand: ln of fast = 100,000, 101,000, 102,000 has mean 11.522843, s² 9.8036813e-5; of slow = 97,000, 98,000,
  // 99,500 mean 11.494367, s² 1.6391162e-4. fast/slow: difference 0.0284758, se 0.00934431, df 3.7621, t = 3.0474,
  // p = 0.041315; t(0.975, 3.7621) = 2.84708: e^(0.0284758 ± 0.0266040) = 1.0289 (1.0019–1.0566): alone, its interval
  // excludes 1. fast/other (99,000, 100,500, 101,500): t = 0.7194, p = 0.51368. Holm over the two pairs:
  // 2 × 0.041315 = 0.082631 ≥ 0.05.
  const slow = [97_000, 98_000, 99_500];
  const fast = [100_000, 101_000, 102_000];
  const result = { ...head, records: [withRuns(deno, slow), withRuns(bun, fast)] };
  const md = formatMarkdown(result);
  assertEquals(markdownRow(md, "http-json (default)")[2], "98,000/s · 1.03× behind");
  assertEquals(findingLines(md, "- http-json").length, 1);

  // A third runtime makes two pairs to test: corrected for both (Holm), the same difference is no longer a finding.
  const node = head.records.find((r) => r.runtime.requested === "node")!;
  const other = [99_000, 100_500, 101_500];
  const three = { ...result, records: [...result.records, withRuns(node, other)] };
  assertEquals(findingLines(formatMarkdown(three), "- http-json"), []);
});

// docs/guide.md "At a glance, across versions, over time": "A cell measured once says `1 run`".
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
  assert(formatHtml({ ...head, records }).includes(' · <span class="part">1 run</span>'));
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

// docs/method.md "CPU per request": with --cpu-rate the overview has a second row per workload, the server's CPU per
// request at the fixed rate (lower is better), ranked by paired ratio, the load's own CPU per response beside it.
Deno.test("overview: the server's CPU per request at the fixed rate is a row of its own, ranked by paired ratio", async () => {
  const result = pairedResult(await loadFixture(HEAD_PATH));
  // The figures quoted for http-json at a fixed rate on these machines (server µs per request, three rounds).
  const cpu: Record<string, number[]> = { deno: [6.0, 6.5, 7.1], node: [11.2, 12.1, 11.6], bun: [6.7, 6.9, 6.8] };
  const records = result.records.map((r) => {
    const values = cpu[r.runtime.name];
    const runs = r.runs.slice(0, 3).map((run, i) => ({
      ...run,
      figures: { ...run.figures, serverCpuUsPerRequestAtRate: values[i], clientCpuUsPerResponseAtRate: 9 + i },
    }));
    return {
      ...r,
      settings: { ...r.settings, cpuRate: 20_000 },
      warnings: [{ code: "client-saturated", message: "closed model only" }],
      runs,
      summary: {
        ...r.summary,
        requestsPerSecond: summarize(runs.map((x) => (x.figures as Record<string, number>).requestsPerSecond)),
        serverCpuUsPerRequestAtRate: summarize(values),
        clientCpuUsPerResponseAtRate: summarize([9, 10, 11]),
      },
    };
  });
  const md = formatMarkdown({ ...result, records });
  const row = markdownRow(md, "http-json (default) at 20,000/s");
  assertEquals(row[1], "serverCpuUsPerRequestAtRate ↓");
  // By hand: node/deno per-round ln ratios ln(11.2/6.0), ln(12.1/6.5), ln(11.6/7.1) → 1.784 (1.476–2.155), behind;
  // bun/deno → 1.043 (0.859–1.267), which includes 1: a tie. No ≥ mark: at a fixed rate the client was not the limit,
  // and the closed model's client-saturated badge is not this row's.
  assertEquals(row[2], "6.50 µs (client 10.00 µs) · best");
  assertEquals(row[3], "11.60 µs (client 10.00 µs) · 1.78× behind");
  assertEquals(row[4], "6.80 µs (client 10.00 µs) · ≈ best");
  // The results table shows the CPU columns.
  assertStringIncludes(md, "CPU/request at rate");
});

// docs/guide.md "Every core: --server-cpus": "The overview of a result with multi-core records on more than one server
// CPU, or at more than one core budget, has the same table under At equal CPU … a line per core budget, the client's
// cores stated, a shared layout marked". Stored real runs (fixtures/results/server-cpus-*.json); every expected figure is the median of the three
// runs' figures as the file holds them (the rate per used core and the CPU per request are each run's own, from the
// window's exact CPU time, so their medians are not the ratio of the medians):
//   --server-cpus 2, deno: requestsPerSecond 18,023 17,246 20,775 → 18,023; serverCoresUsed 0.33 0.33 0.35 → 0.33;
//     per used core 54,307 53,008 59,984 → 54,307; CPU µs/request 18.41 18.86 16.67 → 18.41.
//   --server-cpus 2, node: 1,880 1,674 2,133 → 1,880; 0.44 0.43 0.46 → 0.44; 4,229 3,909 4,614 → 4,229;
//     236.47 255.8 216.73 → 236.47 (printed 236.5).
//   --server-cpus 1, deno: 21,324 19,479 24,272 → 21,324; 0.39 0.29 0.38 → 0.38; 54,609 67,128 63,339 → 63,339;
//     18.31 14.9 15.79 → 15.79.
//   --server-cpus 1, node: 5,018 8,140 7,657 → 7,657; 0.5 0.47 0.56 → 0.50; 10,058 17,355 13,655 → 13,655;
//     99.43 57.62 73.23 → 73.23.
Deno.test("overview of a multi-core result: at equal CPU, the CPU each server used, per used core, client cores stated", async () => {
  const two = await loadFixture(SERVER_CPUS_2_PATH);
  const overview = overviewOf(buildView(two));
  assertEquals(overview.fairShare.length, 1);
  const [table] = overview.fairShare;
  assertEquals([table.title, table.figure, table.runtimes], [
    "http-json (default)",
    "requestsPerSecond",
    ["deno 2.9.6", "node 20.20.2"],
  ]);
  const [line] = table.lines;
  // Two server CPUs on a 2-CPU machine leave the load generator none of its own: it shares them, and the line says so.
  assertEquals([line.cores, line.serverCpus, line.clientCores, line.clientCpus, line.shared], [
    2,
    "0,1",
    2,
    "0,1",
    true,
  ]);
  assertEquals(line.cells.map((c) => [c?.rate, c?.coresUsed, c?.perUsedCore, c?.cpuUsPerUnit]), [
    [18_023, 0.33, 54_307, 18.41],
    [1_880, 0.44, 4_229, 236.47],
  ]);
  const text = formatTable(two);
  const block = text.slice(text.indexOf("At equal CPU:"), text.indexOf("Key findings:"));
  assert(text.indexOf("At a glance") < text.indexOf("At equal CPU:"), "in the overview, before the findings");
  const rows = block.split("\n");
  assertMatch(
    rows.find((l) => l.startsWith("server cores"))!,
    /^server cores +server cpu +client cores +client cpu +deno/,
  );
  const row = rows.find((l) => /^ +2 {2}/.test(l))!;
  assertMatch(row, /^ +2 {2}0,1 +2 {2}0,1 \(shares the server's\)/);
  assertStringIncludes(row, "18,023/s on 0.33 cores · 54,307/s per used core · 18.4 µs CPU/request");
  assertStringIncludes(row, "1,880/s on 0.44 cores · 4,229/s per used core · 236.5 µs CPU/request");
  assertStringIncludes(block, "⚠ a line whose client shares the server's CPUs");
  // Markdown and HTML carry the same table.
  const md = formatMarkdown(two);
  assertStringIncludes(md, "### At equal CPU");
  assertEquals(markdownRow(md, "2").slice(0, 4), ["2", "0,1", "2", "0,1 (shares the server's)"]);
  const html = formatHtml(two);
  assertStringIncludes(html, "<h3>At equal CPU</h3>");
  assertStringIncludes(html, "1,880/s on 0.44 cores · 4,229/s per used core · 236.5 µs CPU/request");
});

Deno.test("overview at two core budgets: a line per budget, the same runtimes; one budget of one CPU shows none", async () => {
  const [one, two] = await Promise.all([loadFixture(SERVER_CPUS_1_PATH), loadFixture(SERVER_CPUS_2_PATH)]);
  // One server CPU alone is the ordinary single-core comparison: no fair share; nor has a result without --server-cpus.
  assertEquals(overviewOf(buildView(one)).fairShare, []);
  assert(!formatTable(one).includes("At equal CPU"));
  assertEquals(overviewOf(buildView(await loadFixture(BASE_PATH))).fairShare, []);
  // Both budgets' records in one result (as runners/dev/fair_share.ts measures them): fewest cores first.
  const both: BenchResult = {
    ...two,
    records: [...two.records, ...one.records.map((r) => ({ ...r, id: `${r.id}/1-cpu` }))],
  };
  assertEquals(validateResult(both), []);
  const [table] = overviewOf(buildView(both)).fairShare;
  assertEquals(table.lines.map((l) => [l.cores, l.serverCpus, l.clientCores, l.clientCpus, l.shared]), [
    [1, "0", 1, "1", false],
    [2, "0,1", 2, "0,1", true],
  ]);
  assertEquals(table.lines[0].cells.map((c) => [c?.rate, c?.coresUsed, c?.perUsedCore, c?.cpuUsPerUnit]), [
    [21_324, 0.38, 63_339, 15.79],
    [7_657, 0.5, 13_655, 73.23],
  ]);
  const text = formatTable(both);
  const row = text.split("\n").find((l) => /^ +1 {2}0 /.test(l))!;
  assertMatch(row, /^ +1 {2}0 +1 {2}1 {2}/);
  assert(!row.includes("shares"), row);
  assertStringIncludes(row, "7,657/s on 0.50 cores · 13,655/s per used core · 73.2 µs CPU/request");
});

// A warning raised by every run (a slow server measured again in each) is one badge in the overview's cell, in the
// section table's notes and on the progress line, while each run's own message stays in the section's notes.
Deno.test("a warning every run raised is one badge per cell, each run's message still in the notes", async () => {
  const head = await loadFixture(HEAD_PATH);
  const record = head.records[0];
  const extended = [1, 2, 3].map((run) => ({ code: "window-extended", message: `run ${run}: measured again` }));
  const result: BenchResult = {
    ...head,
    records: head.records.map((r) => r === record ? { ...r, warnings: [...r.warnings, ...extended] } : r),
  };
  const text = formatTable(result);
  const overviewRow = text.split("\n").find((l) => l.startsWith(`${record.workload} (${record.variant})`))!;
  assertEquals(overviewRow.match(/⚠ window-extended/g)?.length, 1, overviewRow);
  const sectionRow = text.split("\n").filter((l) => l.includes("⚠ window-extended") && l !== overviewRow);
  for (const line of sectionRow) assertEquals(line.match(/⚠ window-extended/g)?.length, 1, line);
  for (const run of [1, 2, 3]) assertStringIncludes(text, `run ${run}: measured again`);
  let screen = "";
  const progress = createProgress({ write: (s) => screen += s, now: () => 0, live: false });
  progress.update({ type: "suite-start", records: 1, estimatedSec: 1 });
  progress.update({ type: "record-end", record: { ...record, warnings: extended } });
  progress.stop();
  assertEquals(screen.match(/window-extended/g)?.length, 1, screen);
});

// docs/guide.md "Runtimes": "The overview's header names each runtime's release line and its support; under the table,
// a warning says when a runtime is past its end of life".
Deno.test("the overview's header names each runtime's release line and support; release warnings sit under it", async () => {
  const base = await loadFixture(BASE_PATH);
  const asOf = "2026-11-28";
  const releases: Record<string, BenchRecord["runtime"]["release"]> = {
    deno: { line: "2.9", status: "latest", since: null, lineReleased: "2026-06-25", asOf, source: "npm registry" },
    node: {
      line: "20",
      status: "end-of-life",
      since: "2026-04-30",
      lineReleased: "2023-04-18",
      asOf,
      source: "node-releases 2.0.66",
    },
    bun: { line: "1.4", status: "latest", since: null, lineReleased: "2026-08-20", asOf, source: "npm registry" },
  };
  const eol = {
    code: "end-of-life",
    message: "node 20.20.2 is past its end of life (line 20, end of life since 2026-04-30, node-releases 2.0.66)",
  };
  const result: BenchResult = {
    ...base,
    warnings: [...base.warnings, eol],
    records: base.records.map((r) => ({
      ...r,
      runtime: { ...r.runtime, selection: "latest", release: releases[r.runtime.name] },
    })),
  };
  validateResult(result);
  const overview = overviewOf(buildView(result));
  assertEquals(overview.labels.map((l) => l.replace(/ \d+\.\d+\.\d+/, "")), [
    "deno (line 2.9, latest)",
    "node (line 20, end of life since 2026-04-30)",
    "bun (line 1.4, latest)",
  ]);
  assertEquals(overview.releases, [eol]);
  const text = formatTable(result);
  const table = text.indexOf("At a glance");
  const warning = text.indexOf(`• ⚠ ${eol.message}`);
  assert(table >= 0 && warning > table && warning < text.indexOf("Each cell:"), text.slice(0, 1200));
  assertEquals(text.split(eol.message).length, 2, "said once, under the overview");
  const md = formatMarkdown(result);
  assertStringIncludes(md, `- ⚠ ${eol.message}`);
  assertEquals(md.split(eol.message).length, 2, "said once, under the overview");
  assertStringIncludes(formatHtml(result), `<ul class="releases"><li>⚠ ${eol.message}</li></ul>`);
});
