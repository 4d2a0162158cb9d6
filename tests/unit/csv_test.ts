// The CSV of a stored default run on three runtimes: every CPU, latency, rate and memory figure says which way is
// better, from the same table of directions the overview ranks by, and no cell shows binary float noise.
import { assert, assertEquals } from "@std/assert";
import { formatCsv } from "../../runners/report/csv.ts";
import { higherIsBetter } from "../../runners/stats/mod.ts";
import { overviewOf } from "../../runners/report/_overview.ts";
import { buildView } from "../../runners/report/_view.ts";
import { loadFixture, parseCsv } from "../_report_helpers.ts";
import { ROOT } from "../_helpers.ts";

const result = await loadFixture(`${ROOT}fixtures/results/default-deno-node-bun.json`);
const [header, ...rows] = parseCsv(formatCsv(result));
const col = (name: string) => header.indexOf(name);
const measured = rows.filter((r) => r[col("figure")] !== "");

/** Figures of CPU, latency, rate or throughput, and memory, told by name apart from the table under test. */
const DIRECTED =
  /Cpu|Cores|^latency|Latency|PerSecond|Rss|Bytes$|^(wallMs|writeReadMs|writeMs|readMs|userMs|systemMs)$/;

Deno.test("the stored default run has three runtimes and the figures the CSV test relies on", () => {
  assertEquals([...new Set(result.records.map((r) => r.runtime.name))].sort(), ["bun", "deno", "node"]);
  const figures = new Set(measured.map((r) => r[col("figure")]));
  for (const f of ["serverCpuUsPerRequestAtRate", "clientCpuPercent", "latencyUs.p99", "maxRssBytes", "wallMs"]) {
    assert(figures.has(f), f);
  }
});

Deno.test("csv: every CPU, latency, rate and memory figure has higher_is_better; only settings and counts are blank", () => {
  const blank = new Set<string>();
  for (const row of measured) {
    const figure = row[col("figure")];
    const direction = row[col("higher_is_better")];
    if (DIRECTED.test(figure)) assert(direction === "true" || direction === "false", `${figure}: "${direction}"`);
    if (direction === "") blank.add(figure);
  }
  assertEquals([...blank].sort(), ["countedSpanMs", "durationMs", "idleConnections", "packagesInstalled", "samples"]);
  const cpuAtRate = measured.filter((r) => r[col("figure")] === "serverCpuUsPerRequestAtRate");
  assertEquals(new Set(cpuAtRate.map((r) => r[col("higher_is_better")])), new Set(["false"]));
});

Deno.test("csv and overview read one table of directions: the row at the fixed rate is lower-is-better in both", () => {
  const overview = overviewOf(buildView(result));
  const atRate = overview.rows.filter((row) => row.client !== undefined);
  assert(atRate.length > 0, "a row of CPU per request at the fixed rate");
  for (const row of atRate) {
    assertEquals(row.group.higherIsBetter, higherIsBetter(row.group.figure));
    const csv = measured.find((r) => r[col("figure")] === row.group.figure)!;
    assertEquals(csv[col("higher_is_better")], String(row.group.higherIsBetter));
  }
});

Deno.test("csv: no cell shows binary float noise", () => {
  const noise = /\d\.\d*0000000\d|\.\d*9999999\d/;
  const noisy = rows.flat().filter((cell) => noise.test(cell));
  assertEquals(noisy, []);
  // The raw figures do carry it: the formatter, not the data, keeps it out.
  assert(
    result.records.some((r) => r.runs.some((run) => Object.values(run.figures).some((v) => noise.test(String(v))))),
  );
});
