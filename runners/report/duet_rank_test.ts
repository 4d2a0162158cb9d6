// The overview ranks CPU per request at the fixed rate on duet ratios where a record has them (--pairing duet), on the
// rounds' elsewhere.
import { assert, assertAlmostEquals, assertEquals, assertStringIncludes } from "@std/assert";
import type { BenchRecord } from "../schema/mod.ts";
import { readResultFile } from "../schema/read.ts";
import { duetText, rankBy, timesBetter } from "./_groups.ts";
import { buildView } from "./_view.ts";
import { findingsOf } from "./_findings.ts";

const FIGURE = "serverCpuUsPerRequestAtRate";

Deno.test("timesBetter takes the duet ratio of CPU per request where the record has one", async () => {
  const [deno, node] = (await readResultFile("fixtures/results/base.json")).records;
  // Rounds say node costs 1.5× deno per request, in runs measured one after another.
  const withFigure = (r: BenchRecord, v: number): BenchRecord => ({
    ...r,
    runs: r.runs.map((run, i) => ({ ...run, figures: { ...run.figures, [FIGURE]: v * (1 + 0.01 * i) } })),
  });
  const windows = [0.49, 0.51, 0.5, 0.5].map((ratio, i) => ({ round: i, placement: (i % 2) as 0 | 1, ratio }));
  const duetOf = (against: string, ws: typeof windows) => ({
    pairing: "duet" as const,
    against,
    figure: FIGURE,
    ratePerSecond: 20_000,
    windowMs: 500,
    ratio: 0.5,
    ci95: null,
    halfWidthPercent: null,
    windows: ws,
  });
  const d = withFigure(deno, 6);
  const n = withFigure(node, 9);
  const rounds = timesBetter(d, n, FIGURE, false)!;
  assertAlmostEquals(rounds.ratio, 1.5, 0.01);
  // Duet says node costs 2× deno: deno's record holds deno/node = 0.5, node's node/deno = 2.
  const dDuet = { ...d, duet: [duetOf(n.id, windows)] };
  const nDuet = {
    ...n,
    duet: [duetOf(d.id, windows.map((w) => ({ ...w, placement: (1 - w.placement) as 0 | 1, ratio: 1 / w.ratio })))],
  };
  const duet = timesBetter(dDuet, nDuet, FIGURE, false)!;
  assertAlmostEquals(duet.ratio, 2, 0.01);
  assertEquals(duet.method, "duet");
  assertEquals(duet.n, 4);
  assert(duet.ci95 !== null && duet.ci95.low > 1.9);
  // Another figure still comes from the runs.
  assertAlmostEquals(
    timesBetter(dDuet, nDuet, "requestsPerSecond", true)!.ratio,
    timesBetter(d, n, "requestsPerSecond", true)!.ratio,
    1e-9,
  );
});

Deno.test("in duet the ratios order the row: the lower median is not best where the duet finds the other leaner", async () => {
  const [deno, node, bun] = (await readResultFile("fixtures/results/head.json")).records;
  // Medians from the rounds: bun 12.45 µs, deno 12.54, node 27; the duet, in the same seconds: deno/bun 0.85, deno/node
  // 0.45, bun/node 0.52.
  const at = (r: BenchRecord, v: number, duet: [BenchRecord, number][]): BenchRecord => ({
    ...r,
    status: "completed",
    summary: { ...r.summary, [FIGURE]: { ...r.summary.requestsPerSecond, median: v } },
    duet: duet.map(([other, ratio]) => ({
      pairing: "duet" as const,
      against: other.id,
      figure: FIGURE,
      ratePerSecond: 20_000,
      windowMs: 500,
      ratio,
      ci95: null,
      halfWidthPercent: null,
      windows: [0.99, 1.01, 1, 1].map((x, i) => ({ round: i, placement: (i % 2) as 0 | 1, ratio: ratio * x })),
    })),
  });
  const records = [
    at(deno, 12.54, [[node, 0.45], [bun, 0.85]]),
    at(node, 27, [[deno, 1 / 0.45], [bun, 1 / 0.52]]),
    at(bun, 12.45, [[deno, 1 / 0.85], [node, 0.52]]),
  ];
  const group = rankBy(records, FIGURE, false);
  assertEquals(group.ranked.map((r) => r.record.runtime.name), ["deno", "bun", "node"]);
  assertAlmostEquals(group.ranked[1].vsBest!.ratio, 1 / 0.85, 0.01);
  // A finding says which pairing its interval comes from.
  const [finding] = findingsOf([group]).filter((f) => f.worse.startsWith("bun"));
  assertStringIncludes(finding.sentence, "leaner than bun");
  assertStringIncludes(finding.sentence, "in duet over 4 rounds: 95% CI");
  // Without duet ratios the medians order it, as before.
  const plain = rankBy(records.map((r) => ({ ...r, duet: undefined })), FIGURE, false);
  assertEquals(plain.ranked[0].record.runtime.name, "bun");
  // Under the table, every pair once, the leaner side first, with the rate where a pair's was lowered.
  const lowered = records.map((r) =>
    r === records[1]
      ? r
      : { ...r, duet: r.duet!.map((d) => d.against === node.id ? { ...d, ratePerSecond: 12_500 } : d) }
  );
  const text = duetText(rankBy(lowered, FIGURE, false))!;
  assertStringIncludes(text, "CPU per request in duet at 20,000/s (both servers measured in the same seconds): ");
  assertStringIncludes(text, "deno 2.9.6 2.22× leaner than node ");
  assertStringIncludes(text, "deno 2.9.6 1.18× leaner than bun 1.4.5 (");
  assertStringIncludes(text, "bun 1.4.5 1.92× leaner than node ");
  assertStringIncludes(text, ", 4 rounds at 12,500/s); deno 2.9.6 1.18×");
  assertEquals(text.split("; ").length, 3);
  const result = await readResultFile("fixtures/results/head.json");
  const [section] = buildView({ ...result, records }).sections;
  assert(section.notes.some((n) => n.startsWith("CPU per request in duet")));
});
