/**
 * The fair-share overview of multi-core records (`--server-cpus`): every
 * runtime at the same core budget, one line per budget, each cell the rate,
 * the CPU the server actually used, the rate per used core and the CPU time
 * per request, with the client's own CPUs stated on each line. A runtime that
 * won by using more of the budget shows it here; a line whose client shared
 * the server's CPUs is marked, since its figures measure both sides competing.
 *
 * @module
 */

import { cpusShared, parseCpuList } from "../platform/mod.ts";
import type { BenchRecord, BenchResult } from "../schema/mod.ts";
import { alignTable, formatCount } from "./format.ts";
import type { ViewTable } from "./_view_table.ts";

/** One runtime at one budget. */
export interface FairShareCell {
  /** The record's status when it has no figures to show. */
  readonly status: BenchRecord["status"];
  /** The headline rate's median (requests or messages per second). */
  readonly rate: number | null;
  /** Median cores the server used over the measured windows. */
  readonly coresUsed: number | null;
  /** Median rate per used core. */
  readonly perUsedCore: number | null;
  /** Median CPU microseconds per request (or message). */
  readonly cpuUsPerUnit: number | null;
}

/** One budget of one workload × variant. */
export interface FairShareLine {
  /** Server CPUs in the budget. */
  readonly cores: number;
  /** The server's CPU list (null: not pinned). */
  readonly serverCpus: string | null;
  /** The client's CPU list (null: not pinned). */
  readonly clientCpus: string | null;
  /** How many CPUs the client had (null: not pinned). */
  readonly clientCores: number | null;
  /** Whether the client ran on any of the server's CPUs. */
  readonly shared: boolean;
  /** One cell per runtime (in {@linkcode FairShareTable.runtimes} order); null where it did not run. */
  readonly cells: readonly (FairShareCell | null)[];
}

/** The overview of one workload × variant. */
export interface FairShareTable {
  /** `http-json (default)`. */
  readonly title: string;
  /** The headline figure (`requestsPerSecond`). */
  readonly figure: string;
  /** Runtime labels (`deno 2.9.6`), one per column. */
  readonly runtimes: readonly string[];
  /** One line per budget, fewest cores first. */
  readonly lines: readonly FairShareLine[];
}

const RATES = ["requestsPerSecond", "messagesPerSecond"];

/** The server CPUs a record ran on: its pinned list, else `--server-cpus`, else every CPU of the machine. */
function budgetOf(record: BenchRecord, allCpus: number): number {
  if (record.cpus.server) return parseCpuList(record.cpus.server).length;
  const asked = record.settings.serverCpus;
  return typeof asked === "number" ? asked : allCpus;
}

function cellOf(record: BenchRecord): FairShareCell {
  const figure = RATES.find((f) => record.summary[f] !== undefined) ?? "requestsPerSecond";
  const unit = figure === "messagesPerSecond" ? "Message" : "Request";
  const median = (name: string) => record.summary[name]?.median ?? null;
  return {
    status: record.status,
    rate: record.status === "completed" ? median(figure) : null,
    coresUsed: median("serverCoresUsed"),
    perUsedCore: median(`${figure}PerUsedCore`),
    cpuUsPerUnit: median(`serverCpuUsPer${unit}`),
  };
}

/**
 * Groups multi-core records (those with `facts.serverForm`) from one or more results by workload × variant, then by
 * the number of server CPUs: each group a table, each budget a line, each runtime a column.
 *
 * @example Deno and Node at one core each
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { fairShare } from "./fair_share.ts";
 *
 * const record = (name: string, rate: number, used: number) => ({
 *   workload: "http-json", variant: "default", kind: "http", status: "completed",
 *   runtime: { name, version: "1" }, cpus: { server: "0", client: "1" }, facts: { serverForm: "x" },
 *   summary: { requestsPerSecond: { median: rate }, serverCoresUsed: { median: used } },
 * }) as never;
 * const [table] = fairShare([record("deno", 90_000, 1), record("node", 50_000, 0.9)]);
 * assertEquals(table.lines.map((l) => [l.cores, l.clientCpus, l.shared]), [[1, "1", false]]);
 * assertEquals(table.lines[0].cells.map((c) => c?.coresUsed), [1, 0.9]);
 * ```
 */
export function fairShare(
  records: readonly BenchRecord[],
  allCpus: number = navigator.hardwareConcurrency,
): FairShareTable[] {
  const cores = (r: BenchRecord) => budgetOf(r, allCpus);
  const multi = records.filter((r) => r.facts.serverForm !== undefined);
  const groups = new Map<string, BenchRecord[]>();
  for (const r of multi) {
    groups.set(`${r.workload} (${r.variant})`, [...groups.get(`${r.workload} (${r.variant})`) ?? [], r]);
  }
  return [...groups].map(([title, group]) => {
    const runtimes = [...new Set(group.map((r) => `${r.runtime.name} ${r.runtime.version}`))];
    const budgets = [...new Set(group.map(cores))].sort((a, b) => a - b);
    const figure = RATES.find((f) => group.some((r) => r.summary[f] !== undefined)) ?? "requestsPerSecond";
    return {
      title,
      figure,
      runtimes,
      lines: budgets.map((budget) => {
        const at = group.filter((r) => cores(r) === budget);
        const { server, client } = at[0].cpus;
        return {
          cores: budget,
          serverCpus: server,
          clientCpus: client,
          clientCores: client ? parseCpuList(client).length : null,
          shared: at.some((r) => cpusShared(r.cpus)),
          cells: runtimes.map((label) => {
            const r = at.find((x) => `${x.runtime.name} ${x.runtime.version}` === label);
            return r ? cellOf(r) : null;
          }),
        };
      }),
    };
  });
}

/**
 * Whether a result's overview shows the fair share: it holds multi-core records (`--server-cpus`) on more than one
 * server CPU, or at more than one core budget. A single budget of one CPU is the ordinary single-core comparison.
 *
 * @example A result of `--server-cpus 2`
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { fairShare, showsFairShare } from "./fair_share.ts";
 *
 * const record = { workload: "http-json", variant: "default", status: "completed", runtime: { name: "deno", version: "2" },
 *   cpus: { server: "0,1", client: "0,1" }, facts: { serverForm: "reusePort" }, settings: {}, summary: {} } as never;
 * assertEquals(showsFairShare(fairShare([record])), true);
 * ```
 */
export function showsFairShare(tables: readonly FairShareTable[]): boolean {
  return tables.some((t) => t.lines.length > 1 || t.lines.some((l) => l.cores > 1));
}

/**
 * The fair share of a stored result, for its overview: {@linkcode fairShare} of its records (a CPU list absent taken as
 * the result's machine's CPU count), or nothing where {@linkcode showsFairShare} says it has none to show.
 */
export function resultFairShare(result: BenchResult): FairShareTable[] {
  const tables = fairShare(result.records, result.environment.logicalCores);
  return showsFairShare(tables) ? tables : [];
}

function cellText(cell: FairShareCell | null, unit: string): string {
  if (!cell) return "";
  if (cell.rate === null) return cell.status;
  const used = cell.coresUsed === null ? "" : ` on ${cell.coresUsed.toFixed(2)} cores`;
  const per = cell.perUsedCore === null ? "" : ` · ${formatCount(cell.perUsedCore)}/s per used core`;
  const cpu = cell.cpuUsPerUnit === null ? "" : ` · ${cell.cpuUsPerUnit.toFixed(1)} µs CPU/${unit}`;
  return `${formatCount(cell.rate)}/s${used}${per}${cpu}`;
}

/** The line over a table: what it compares. */
export function fairShareTitle(table: FairShareTable): string {
  return `Fair share · ${table.title} · ${table.figure} at each core budget, the CPU the server used, per used core`;
}

/** Said under a table with a line whose client shared the server's CPUs. */
export const FAIR_SHARE_SHARED_NOTE =
  "⚠ a line whose client shares the server's CPUs measures both competing for them: compare within it only";

/** What the cells say, under the fair share in the overview. */
export const FAIR_SHARE_LEGEND =
  "Each line: every runtime in its own multi-core form (--server-cpus) on the same server CPUs, the load generator on " +
  "the client's CPUs stated. Each cell: the headline median, the cores the server's process tree used over the " +
  "measured window (from the kernel's CPU time where counted, else the sampler's), the rate per used core and the " +
  "server's CPU µs per request (message); a runtime that won by using more of the budget shows it here.";

/**
 * One budget's table, a line per budget and a column per runtime, as every format renders it: `runners/dev/fair_share.ts`
 * prints it aligned, the overview of a multi-core result in its own syntax.
 *
 * @example The client's CPUs and their count, a shared layout marked
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { fairShareTable } from "./fair_share.ts";
 *
 * const view = fairShareTable({
 *   title: "http-json (default)", figure: "requestsPerSecond", runtimes: ["deno 2.9.6"],
 *   lines: [{ cores: 2, serverCpus: "0,1", clientCpus: "0,1", clientCores: 2, shared: true, cells: [null] }],
 * });
 * assertEquals(view.rows[0].slice(0, 4), ["2", "0,1", "2", "0,1 (shares the server's)"]);
 * ```
 */
export function fairShareTable(table: FairShareTable): ViewTable {
  const unit = table.figure === "messagesPerSecond" ? "message" : "request";
  return {
    columns: [
      { header: "server cores", numeric: true },
      { header: "server cpu", numeric: false },
      { header: "client cores", numeric: true },
      { header: "client cpu", numeric: false },
      ...table.runtimes.map((header) => ({ header, numeric: false })),
    ],
    rows: table.lines.map((line) => [
      `${line.cores}`,
      line.serverCpus ?? "any",
      line.clientCores === null ? "any" : `${line.clientCores}`,
      `${line.clientCpus ?? "any"}${line.shared ? " (shares the server's)" : ""}`,
      ...line.cells.map((c) => cellText(c, unit)),
    ]),
  };
}

/**
 * The overview as text: per workload × variant, a line per budget with the server's and the client's CPUs, a
 * column per runtime.
 *
 * @example
 * ```ts
 * import { assertStringIncludes } from "@std/assert";
 * import { formatFairShare } from "./fair_share.ts";
 *
 * const text = formatFairShare([{
 *   title: "http-json (default)", figure: "requestsPerSecond", runtimes: ["deno 2.9.6"],
 *   lines: [{ cores: 2, serverCpus: "0,1", clientCpus: "0,1", clientCores: 2, shared: true, cells: [
 *     { status: "completed", rate: 100_000, coresUsed: 1.6, perUsedCore: 62_500, cpuUsPerUnit: 16 },
 *   ] }],
 * }]);
 * assertStringIncludes(text, "100,000/s on 1.60 cores · 62,500/s per used core · 16.0 µs CPU/request");
 * assertStringIncludes(text, "0,1 (shares the server's)");
 * ```
 */
export function formatFairShare(tables: readonly FairShareTable[]): string {
  return tables.map((t) => {
    const view = fairShareTable(t);
    const rows = [view.columns.map((c) => c.header), ...view.rows.map((r) => r.map(String))];
    const shared = t.lines.some((l) => l.shared) ? `\n${FAIR_SHARE_SHARED_NOTE}` : "";
    const right = view.columns.flatMap((c, i) => c.numeric ? [i] : []);
    return `${fairShareTitle(t)}\n${alignTable(rows, right)}${shared}`;
  }).join("\n\n");
}
