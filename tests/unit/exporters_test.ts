// README walk: shows claims of README "What you get" and docs/guide.md "Reports and comparisons": table, md, csv, json and html carry the JSON's medians, CIs, relative speed, latency and warnings.
// Every exporter against the stored results: the numbers each one prints are
// the numbers in the JSON, warnings and failures appear next to them, and
// records of kinds other than HTTP render from their headline figure.
import { assert, assertEquals, assertMatch, assertStringIncludes } from "@std/assert";
import { CSV_COLUMNS, EXPORTERS, exportResult, formatHtml, formatMarkdown } from "../../runners/report/mod.ts";
import { formatCsv } from "../../runners/report/csv.ts";
import type { BenchRecord, BenchResult, RunRecord } from "../../runners/schema/result.ts";
import type { RoleSeries } from "../../runners/schema/resources.ts";
import { parseResult, validateResult } from "../../runners/schema/mod.ts";
import { summarize } from "../../runners/stats/summary.ts";
import { BASE_PATH, HEAD_PATH, loadFixture, markdownRow, parseCsv, readNumber, shows } from "../_report_helpers.ts";

const head = await loadFixture(HEAD_PATH);
const completed = head.records.filter((r) => r.status === "completed");

/** exp(mean of the logs) of a record's per-run requests/s. */
function geometricMean(r: BenchRecord): number {
  const logs = r.runs.map((run) => Math.log(run.figures.requestsPerSecond));
  return Math.exp(logs.reduce((a, b) => a + b, 0) / logs.length);
}
const label = (r: BenchRecord) => r.runtime.version ? `${r.runtime.name} ${r.runtime.version}` : r.runtime.requested;

Deno.test("the stored head result has what the exporter tests rely on", () => {
  assertEquals(completed.length, 3);
  assert(head.records.some((r) => r.status === "errored"));
  assert(head.records.some((r) => r.warnings.some((w) => w.code === "client-bound")));
});

// docs/guide.md (Formats): "`json` — the result document itself, byte for byte the result file".
Deno.test("json exporter writes the result document itself, valid against the schema", async () => {
  const text = EXPORTERS.json.render(head);
  assertEquals(validateResult(JSON.parse(text)), []);
  assertEquals(parseResult(text), head);
  assertEquals(text, await Deno.readTextFile(HEAD_PATH), "the same bytes rtbench writes as the result file");
});

// docs/guide.md (Formats): "`md` — … runtimes side by side, best first, median, 95% CI, relative speed, p50/p99".
Deno.test("markdown shows every runtime's median, CI, relative speed and latency exactly as in the JSON", () => {
  const md = formatMarkdown(head);
  const slowest = Math.min(...completed.map((r) => r.summary.requestsPerSecond.median));
  for (const r of completed) {
    const s = r.summary.requestsPerSecond;
    const [, median, ci, relative, p50, p99, notes] = markdownRow(md, label(r));
    assert(shows(median, s.median), `${label(r)} median ${median} vs ${s.median}`);
    const [low, high] = ci.split(" – ");
    assert(shows(low, s.ci95!.low) && shows(high, s.ci95!.high), `${label(r)} CI ${ci} vs ${JSON.stringify(s.ci95)}`);
    if (s.median === slowest) assertEquals(relative, "1.0× (slowest)");
    else {
      // README (What the numbers mean): a ratio whose side had its load generator at its limit is a bound, ≥ or ≤.
      const bound = r.warnings.some((w) => w.code === "client-bound" || w.code === "client-saturated") ? "≥ " : "";
      // head.json's runtimes ran one after another (no rounds): the ratio of the runs' geometric means.
      const reference = completed.find((x) => x.summary.requestsPerSecond.median === slowest)!;
      const ratio = geometricMean(r) / geometricMean(reference);
      assertMatch(relative, new RegExp(`^${bound}${ratio.toFixed(2)}× node \\(\\d\\.\\d\\d–\\d\\.\\d\\d\\)$`));
    }
    assert(shows(p50, r.latencyUs!.p50) && shows(p99, r.latencyUs!.p99), `${label(r)} latency ${p50} ${p99}`);
    for (const w of r.warnings) assertStringIncludes(notes, `⚠ ${w.code}: ${w.message}`);
    // The latency table, every percentile.
    const latencyStart = md.indexOf("| latency |");
    const cells = markdownRow(md, label(r), latencyStart).slice(1);
    const l = r.latencyUs!;
    [l.min, l.p2_5, l.p50, l.p90, l.p97_5, l.p99, l.p99_9, l.max, l.mean, l.stdev].forEach((v, i) =>
      assert(shows(cells[i], v), `${label(r)} latency column ${i}: ${cells[i]} vs ${v}`)
    );
  }
  // Best first.
  const order = completed.toSorted((a, b) => b.summary.requestsPerSecond.median - a.summary.requestsPerSecond.median);
  const positions = order.map((r) => md.indexOf(`\n| ${label(r)} |`));
  assertEquals(positions, positions.toSorted((a, b) => a - b));
  const errored = head.records.find((r) => r.status === "errored")!;
  const row = markdownRow(md, errored.runtime.requested);
  assertEquals(row[1], "**errored**");
  assertStringIncludes(row.at(-1)!, `${errored.error!.phase}: ${errored.error!.message}`);
  for (const fact of [head.environment.cpuModel!, head.environment.gitCommit!, head.environment.kernel]) {
    assertStringIncludes(md, fact);
  }
});

// docs/method.md (Other load generators): "every report marks such latency ≈ where it is shown and says why".
Deno.test("latency rebuilt from a generator's own quantiles is marked ≈ where it is shown, and the section says why", () => {
  // node's record as wrk would leave it when its histogram was read as 1,000 quantiles (the others read whole).
  const marked: BenchResult = structuredClone(head);
  const node = marked.records.find((r) => r.id === "http-json/default/node")! as BenchRecord & {
    loadGenerator: { name: string };
    latencyQuantiles?: number;
    runs: (RunRecord & { latencyQuantiles?: number })[];
  };
  node.loadGenerator.name = "wrk";
  node.latencyQuantiles = 1000;
  node.runs[0].latencyQuantiles = 1000;
  assertEquals(validateResult(marked), [], "the fields are in the schema");
  const md = formatMarkdown(marked);
  for (const r of completed) {
    const [, , , , p50, p99] = markdownRow(md, label(r));
    const cells = markdownRow(md, label(r), md.indexOf("| latency |")).slice(1);
    const approximate = r.runtime.name === "node";
    for (const cell of [p50, p99, ...cells]) assertEquals(cell.startsWith("≈ "), approximate, `${label(r)}: ${cell}`);
    // The number after the mark is still the JSON's.
    assert(shows(p99.replace("≈ ", ""), r.latencyUs!.p99), `${label(r)} p99 ${p99}`);
  }
  const note =
    /≈ latency of node: rebuilt from 1,000 quantiles wrk reported of its own histogram \(wrk's, read in its done\(\) hook[^)]*\), not from every response's latency: an approximation/;
  assertMatch(md, note);
  assertMatch(exportResult(marked, "table"), note);
  const html = formatHtml(marked);
  assertStringIncludes(html, "≈ latency of node: rebuilt from 1,000 quantiles wrk");
  assertStringIncludes(html, `${label(node)} 99%: ≈ `);
  // Unmarked, no latency is said to be approximate.
  assert(!formatMarkdown(head).includes("≈ latency of"));
});

// docs/guide.md (Formats): "`csv` — long format, one row per record × figure … `unit` column … a record without figures
// still has a row".
Deno.test("csv has one row per record × figure with the JSON's numbers, units and raw samples", () => {
  const rows = parseCsv(formatCsv(head));
  assertEquals(rows[0], [...CSV_COLUMNS]);
  const col = (name: string) => CSV_COLUMNS.indexOf(name);
  const body = rows.slice(1);
  for (const row of body) assertEquals(row.length, CSV_COLUMNS.length);
  for (const r of completed) {
    const mine = body.filter((row) => row[col("runtime")] === r.runtime.name && row[col("status")] === "completed");
    const figures = Object.keys(r.summary).length + Object.keys(r.latencyUs!).length;
    assertEquals(mine.length, figures, `${r.runtime.name}: one row per figure`);
    for (const [figure, s] of Object.entries(r.summary)) {
      const row = mine.find((x) => x[col("figure")] === figure)!;
      assertEquals(Number(row[col("value")]), s.median);
      assertEquals(Number(row[col("mean")]), s.mean);
      assertEquals(Number(row[col("ci95_low")]), s.ci95!.low);
      assertEquals(Number(row[col("ci95_high")]), s.ci95!.high);
      assertEquals(row[col("samples")].split(" ").map(Number), r.runs.map((run) => run.figures[figure]));
      assertEquals(row[col("headline")], String(figure === r.headline.figure));
    }
    const rps = mine.find((x) => x[col("figure")] === "requestsPerSecond")!;
    assertEquals(rps[col("unit")], "1/s");
    assertEquals(rps[col("higher_is_better")], "true");
    const p99 = mine.find((x) => x[col("figure")] === "latencyUs.p99")!;
    assertEquals(Number(p99[col("value")]), r.latencyUs!.p99);
    assertEquals(p99[col("unit")], "us");
    assertEquals(rps[col("warnings")], r.warnings.map((w) => w.code).join(" "));
  }
  const errored = body.filter((row) => row[col("status")] === "errored");
  assertEquals(errored.length, 1, "a record without figures still has its row");
  assertMatch(errored[0][col("reason")], /^provision: Cannot provision node@99/);
});

Deno.test("csv quotes fields with commas, quotes and newlines", () => {
  const record = head.records.find((r) => r.status === "errored")!;
  const tricky: BenchResult = {
    ...head,
    records: [{ ...record, error: { ...record.error!, message: 'bad "x", then\na newline' } }],
  };
  const rows = parseCsv(formatCsv(tricky));
  assertEquals(rows.length, 2);
  assertEquals(rows[1][CSV_COLUMNS.indexOf("reason")], 'provision: bad "x", then\na newline');
});

Deno.test("terminal table exporter lists every runtime with its median and warnings", () => {
  const text = exportResult(head, "table");
  for (const r of completed) {
    const line = text.split("\n").find((l) => l.startsWith(label(r)))!;
    assertStringIncludes(line, Math.round(r.summary.requestsPerSecond.median).toLocaleString("en-US"));
  }
  assertStringIncludes(text, "⚠ client-bound");
  assertMatch(text, /node@99\s+ERRORED/);
});

// docs/method.md "Connections never answered": the count is in the reason of an invalid record and in the warning of a
// completed one, which every human-readable report shows.
Deno.test("reports show how many connections were never answered, in the reason or the warning", () => {
  const [first, second] = completed;
  const never =
    "967 of 1000 connections (96.7%) had no first answer within the larger of the planned hung bound and twice the " +
    "median answer after the window opened, over the 1% limit";
  const result: BenchResult = {
    ...head,
    records: head.records.map((r) =>
      r === first
        ? { ...r, status: "invalid", error: { phase: "measure", name: "InvalidError", message: never } }
        : r === second
        ? { ...r, warnings: [...r.warnings, { code: "never-answered", message: "run 1: 2 of 400 connections" }] }
        : r
    ),
  };
  for (const format of ["table", "md", "html"] as const) {
    const text = exportResult(result, format);
    assertStringIncludes(text, "967 of 1000 connections", format);
    assertStringIncludes(text, "2 of 400 connections", format);
  }
});

Deno.test("terminal table and markdown show one view: ranking, relative speed, run count and warnings agree", async () => {
  for (const result of [await loadFixture(BASE_PATH), head]) {
    const text = exportResult(result, "table");
    const md = formatMarkdown(result);
    const titles = [...new Set(result.records.map((r) => `${r.workload} (${r.variant})`))];
    assert(titles.length > 0);
    for (const title of titles) {
      const records = result.records.filter((r) => `${r.workload} (${r.variant})` === title);
      // The section: the terminal heading is the title and the line Markdown puts under it.
      const mdSection = md.slice(md.indexOf(`## ${title}\n`)).split(/\n## /)[0];
      const settings = mdSection.split("\n")[2];
      const termSection = text.slice(text.indexOf(`${title} · `)).split(/\n\n(?=\S+ \(\S+\) · )/)[0];
      assertEquals(termSection.split("\n")[0], `${title} · ${settings}`);
      for (const r of records.filter((r) => r.status === "completed")) {
        assertStringIncludes(settings, `${r.settings.durationSec} s × ${r.settings.runs} runs`, "the run count");
      }
      // The same rows in the same order, with the same median, CI and relative speed.
      const mdRows = mdSection.split("\n").filter((l) => l.startsWith("| ")).map((l) => l.slice(2, -2).split(" | "));
      const ranked = mdRows.filter((row) => row[3]?.includes("×"));
      assertEquals(ranked.length, records.filter((r) => r.status === "completed").length);
      const termLines = termSection.split("\n");
      const positions = ranked.map(([name, median, ci, relative]) => {
        const at = termLines.findIndex((l) => l.startsWith(`${name}  `));
        assert(at > 0, `${title}: a terminal row for ${name}`);
        for (const cell of [median, ci, relative]) assertStringIncludes(termLines[at], cell, `${name}: ${cell}`);
        return at;
      });
      assertEquals(positions, positions.toSorted((a, b) => a - b), `${title}: the same ranking`);
      assertEquals(ranked.filter((row) => row[3] === "1.0× (slowest)").length, ranked.length > 1 ? 1 : 0);
      // Every warning next to its record in both, with its message.
      for (const r of records) {
        const termRow = termLines.find((l) => l.startsWith(`${label(r)}  `))!;
        const notes = markdownRow(mdSection, label(r)).at(-1)!;
        for (const w of r.warnings) {
          assertStringIncludes(termRow, `⚠ ${w.code}`);
          assertStringIncludes(termSection, `⚠ ${r.runtime.name}: ${w.message}`);
          assertStringIncludes(notes, `⚠ ${w.code}: ${w.message}`);
        }
        if (r.warnings.length === 0) assert(!termRow.includes("⚠") && !notes.includes("⚠"), label(r));
      }
    }
  }
});

function bars(html: string): Map<string, { value: number; low: number; high: number }> {
  const out = new Map<string, { value: number; low: number; high: number }>();
  for (
    const m of html.matchAll(
      /<g class="bar" data-runtime="([^"]+)" data-value="([^"]+)"(?: data-ci-low="([^"]+)" data-ci-high="([^"]+)")?>/g,
    )
  ) {
    out.set(m[1], { value: Number(m[2]), low: Number(m[3]), high: Number(m[4]) });
  }
  return out;
}

// docs/guide.md (Formats): "`html` — one self-contained page (inline CSS and SVG; no script, no network)".
Deno.test("html is one self-contained page whose charts carry the JSON's numbers", () => {
  const html = formatHtml(head);
  assertMatch(html, /^<!doctype html>/);
  for (const outside of [/<script/i, /<link/i, /\ssrc=/i, /href="(?!#)/i, /url\(/i, /@import/i]) {
    assert(!outside.test(html), `nothing loaded from elsewhere (${outside})`);
  }
  const drawn = bars(html);
  assertEquals(drawn.size, completed.length, "one bar per completed runtime");
  for (const r of completed) {
    const s = r.summary.requestsPerSecond;
    assertEquals(drawn.get(r.runtime.requested), { value: s.median, low: s.ci95!.low, high: s.ci95!.high });
    const text = `${Math.round(s.median).toLocaleString("en-US")}/s`;
    assertStringIncludes(html, `>${text}</text>`, "the value is printed on the bar");
    const series = html.match(
      new RegExp(`<g class="series" data-runtime="${r.runtime.requested}" data-points="([^"]+)"`),
    );
    assert(series, `latency curve for ${r.runtime.name}`);
    const ys = series![1].split(" ").map((p) => Number(p.split(":")[1]));
    assertEquals(ys, [
      r.latencyUs!.p50,
      r.latencyUs!.p90,
      r.latencyUs!.p97_5,
      r.latencyUs!.p99,
      r.latencyUs!.p99_9,
      r.latencyUs!.max,
    ]);
  }
  assertStringIncludes(html, "no resource samples");
  assertStringIncludes(html, "client-bound");
  assertStringIncludes(html, "Cannot provision node@99");
  assertStringIncludes(html, head.environment.cpuModel!);
});

// docs/guide.md (Formats): "the server process tree's CPU % and RSS over time … (\"no resource samples\" otherwise)".
Deno.test("html draws CPU % and RSS over time when records carry resource samples", () => {
  const withSamples: BenchResult = {
    ...head,
    records: head.records.map((r) => ({
      ...r,
      runs: r.runs.map((run) =>
        ({
          ...run,
          // The shape resource sampling writes: columns of equal length.
          resources: {
            intervalMs: 250,
            tMs: [250, 500, 750],
            server: series([40, 50, 60], [50, 51, 52].map((m) => m * 1048576)),
            client: series([99, 99, 99], [1, 1, 1]),
          },
        }) as RunRecord
      ),
    })),
  };
  const html = formatHtml(withSamples);
  assert(!html.includes("no resource samples"));
  const cpu = html.slice(html.indexOf('class="chart cpu-chart"'));
  assert(cpu.length > 0 && html.includes('class="chart cpu-chart"'), "a CPU chart");
  // Each sample's value holds over its interval: the series spans the window, 0 to 0.75 s.
  assertStringIncludes(cpu, 'data-points="0:40 0.25:40 0.25:50 0.5:50 0.5:60 0.75:60"');
  const rss = html.slice(html.indexOf('class="chart rss-chart"'));
  assert(html.includes('class="chart rss-chart"'), "an RSS chart");
  assertStringIncludes(rss, 'data-points="0:50 0.25:50 0.25:51 0.5:51 0.5:52 0.75:52"');
  assert(!html.includes("0:99 0.25:99"), "the client's samples are not the server's");
});

/** A sampled process tree with the given CPU and RSS columns. */
function series(cpuPercent: number[], rssBytes: number[]): RoleSeries {
  const unknown = cpuPercent.map(() => null);
  return {
    cpuPercent,
    busiestThreadPercent: cpuPercent,
    demandPercent: unknown,
    busiestThreadDemandPercent: unknown,
    rssBytes,
    threads: cpuPercent.map(() => 7),
    openFiles: cpuPercent.map(() => 20),
    processes: cpuPercent.map(() => 1),
  };
}

/** A result of a process workload whose headline is a wall time in ms, lower is better. */
function processResult(): BenchResult {
  const walls: Record<string, number[]> = { deno: [40, 42, 41], node: [60, 61, 59], bun: [20, 22, 21] };
  const records = completed.map((r): BenchRecord => {
    const values = walls[r.runtime.name];
    return {
      ...r,
      id: `cold-start/default/${r.runtime.requested}`,
      workload: "cold-start",
      kind: "process",
      loadGenerator: null,
      headline: { figure: "wallMs", higherIsBetter: false },
      runs: values.map((v, index) => ({
        index,
        startedAt: r.startedAt,
        figures: { wallMs: v },
        counts: { errors: 0, timeouts: 0, non2xx: 0, mismatches: 0 },
        latencyUs: null,
        latencyHistogram: null,
      })),
      summary: { wallMs: summarize(values) },
      latencyUs: null,
      warnings: [],
    };
  });
  return { ...head, settings: { ...head.settings, workloads: ["cold-start"] }, records };
}

// docs/guide.md (Reports): "Reports render from each record's `headline` figure … so HTTP, WebSocket, process and
// micro-benchmark records render the same way".
Deno.test("exporters render other kinds from the headline: lower-is-better times rank fastest first", () => {
  const result = processResult();
  assertEquals(validateResult(result), [], "the synthetic result is real-shaped");
  const md = formatMarkdown(result);
  assertStringIncludes(md, "wallMs: lower is better");
  assert(!md.includes("| p50 |"), "no latency columns for a kind without latency");
  assert(!md.includes("connections"), "no load-generator settings for a process workload");
  const [bun, deno, node] = ["bun", "deno", "node"].map((n) => completed.find((r) => r.runtime.name === n)!);
  assert(md.indexOf(`\n| ${label(bun)} |`) < md.indexOf(`\n| ${label(deno)} |`));
  assert(md.indexOf(`\n| ${label(deno)} |`) < md.indexOf(`\n| ${label(node)} |`));
  assertEquals(markdownRow(md, label(bun))[1], "21.00 ms");
  assertMatch(markdownRow(md, label(bun))[3], new RegExp(`^${(60 / 21).toFixed(2)}× node \\(`));
  assertEquals(markdownRow(md, label(node))[3], "1.0× (slowest)");
  assertEquals(readNumber(markdownRow(md, label(deno))[1]).value, 41_000, "41 ms is 41,000 µs when read back");

  const html = formatHtml(result);
  assertStringIncludes(html, "wallMs by runtime");
  assertStringIncludes(html, "lower is better");
  assertStringIncludes(html, "no latency figures for this workload");
  assertEquals(bars(html).get("bun")?.value, 21);

  const rows = parseCsv(formatCsv(result));
  const unit = rows[0].indexOf("unit");
  assert(rows.slice(1).every((row) => row[unit] === "ms"));
  assertEquals(rows.length, 1 + 3);
});

Deno.test("every exporter renders an empty and an unfinished result without throwing", () => {
  const empty: BenchResult = { ...head, finishedAt: null, records: [] };
  for (const exporter of Object.values(EXPORTERS)) {
    const text = exporter.render(empty);
    assert(text.length > 0, exporter.format);
  }
  assertStringIncludes(formatMarkdown(empty), "**unfinished**");
});
