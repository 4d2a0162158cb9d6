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

import { parseCpuList } from "../platform/mod.ts";
import type { BenchRecord } from "../schema/mod.ts";
import { alignTable, formatCount } from "./format.ts";

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
  /** The server's and the client's CPU lists. */
  readonly serverCpus: string | null;
  readonly clientCpus: string | null;
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

function cores(list: string | null): number {
  return list ? parseCpuList(list).length : navigator.hardwareConcurrency;
}

function sharing(server: string | null, client: string | null): boolean {
  if (!server || !client) return false;
  const s = new Set(parseCpuList(server));
  return parseCpuList(client).some((c) => s.has(c));
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
export function fairShare(records: readonly BenchRecord[]): FairShareTable[] {
  const multi = records.filter((r) => r.facts.serverForm !== undefined);
  const groups = new Map<string, BenchRecord[]>();
  for (const r of multi) {
    groups.set(`${r.workload} (${r.variant})`, [...groups.get(`${r.workload} (${r.variant})`) ?? [], r]);
  }
  return [...groups].map(([title, group]) => {
    const runtimes = [...new Set(group.map((r) => `${r.runtime.name} ${r.runtime.version}`))];
    const budgets = [...new Set(group.map((r) => cores(r.cpus.server)))].sort((a, b) => a - b);
    const figure = RATES.find((f) => group.some((r) => r.summary[f] !== undefined)) ?? "requestsPerSecond";
    return {
      title,
      figure,
      runtimes,
      lines: budgets.map((budget) => {
        const at = group.filter((r) => cores(r.cpus.server) === budget);
        const { server, client } = at[0].cpus;
        return {
          cores: budget,
          serverCpus: server,
          clientCpus: client,
          shared: at.some((r) => sharing(r.cpus.server, r.cpus.client)),
          cells: runtimes.map((label) => {
            const r = at.find((x) => `${x.runtime.name} ${x.runtime.version}` === label);
            return r ? cellOf(r) : null;
          }),
        };
      }),
    };
  });
}

function cellText(cell: FairShareCell | null, unit: string): string {
  if (!cell) return "";
  if (cell.rate === null) return cell.status;
  const used = cell.coresUsed === null ? "" : ` on ${cell.coresUsed.toFixed(2)} cores`;
  const per = cell.perUsedCore === null ? "" : ` · ${formatCount(cell.perUsedCore)}/s per used core`;
  const cpu = cell.cpuUsPerUnit === null ? "" : ` · ${cell.cpuUsPerUnit.toFixed(1)} µs CPU/${unit}`;
  return `${formatCount(cell.rate)}/s${used}${per}${cpu}`;
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
 *   lines: [{ cores: 2, serverCpus: "0,1", clientCpus: "0,1", shared: true, cells: [
 *     { status: "completed", rate: 100_000, coresUsed: 1.6, perUsedCore: 62_500, cpuUsPerUnit: 16 },
 *   ] }],
 * }]);
 * assertStringIncludes(text, "100,000/s on 1.60 cores · 62,500/s per used core · 16.0 µs CPU/request");
 * assertStringIncludes(text, "0,1 (shares the server's)");
 * ```
 */
export function formatFairShare(tables: readonly FairShareTable[]): string {
  return tables.map((t) => {
    const unit = t.figure === "messagesPerSecond" ? "message" : "request";
    const rows = [["server cores", "server cpu", "client cpu", ...t.runtimes]];
    for (const line of t.lines) {
      rows.push([
        `${line.cores}`,
        line.serverCpus ?? "any",
        `${line.clientCpus ?? "any"}${line.shared ? " (shares the server's)" : ""}`,
        ...line.cells.map((c) => cellText(c, unit)),
      ]);
    }
    const shared = t.lines.some((l) => l.shared)
      ? "\n⚠ a line whose client shares the server's CPUs measures both competing for them: compare within it only"
      : "";
    return `Fair share · ${t.title} · ${t.figure} at each core budget, the CPU the server used, per used core\n` +
      `${alignTable(rows, [0])}${shared}`;
  }).join("\n\n");
}
