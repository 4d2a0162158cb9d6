/**
 * What the terminal table shows for each workload kind: the section heading
 * (what was run and how) and the columns after the headline figure. HTTP
 * shows connections and latency; process workloads show spread, CPU time and
 * peak memory with the timer's own cost; micro-benchmarks show tinybench's
 * per-call latency and margin of error.
 *
 * @module
 */

import { runPlan } from "../stats/adaptive.ts";
import { formatFigure, formatUs } from "./format.ts";
import type { BenchRecord } from "../schema/result.ts";

/** Extra columns of one kind: headers and the cells of one completed record. */
export interface KindColumns {
  /** Column headers. */
  readonly headers: readonly string[];
  /** Which of the columns hold numbers (right-aligned). */
  readonly numeric: readonly boolean[];
  /** The cells of one completed record. */
  cells(record: BenchRecord): string[];
}

function pinning(first: BenchRecord): string {
  if (first.cpus.server === null) return "not pinned";
  return first.cpus.client === null
    ? `pinned to cpu ${first.cpus.server}`
    : `server cpu ${first.cpus.server}, client cpu ${first.cpus.client}`;
}

function fact(records: readonly BenchRecord[], name: string): unknown {
  return records.find((r) => r.facts[name] !== undefined && r.facts[name] !== null)?.facts[name];
}

/** How many runs a section measured: fixed, or adaptive until the CI is narrow enough. */
function runsText(s: BenchRecord["settings"]): string {
  const plan = runPlan(s);
  return plan.adaptive
    ? `${plan.min}–${plan.max} runs (until the 95% CI is ±${plan.ciTargetPercent}%)`
    : `${s.runs} runs`;
}

/** The section heading for records of one workload and variant. */
export function sectionHead(records: readonly BenchRecord[]): string {
  const first = records[0];
  const s = first.settings;
  const title = `${first.workload} (${first.variant})`;
  if (first.kind === "process") {
    const timer = fact(records, "timer");
    const warmups = fact(records, "warmupRuns") ?? 0;
    const minMs = Number(fact(records, "minDurationMs") ?? 0);
    return `${title} · ${timer ? `timer ${timer} · ` : ""}≥${fact(records, "minRuns") ?? s.runs} runs` +
      (minMs > 0 ? ` and ≥${minMs / 1000} s` : "") + ` after ${warmups} warm-up${warmups === 1 ? "" : "s"}` +
      ` · ${pinning(first)}`;
  }
  if (first.kind === "micro") {
    return `${title} · tinybench · ${s.durationSec} s per run after ${s.warmupSec} s warm-up × ${s.runs} runs` +
      ` · ${pinning(first)}`;
  }
  const gen = records.find((r) => r.loadGenerator)?.loadGenerator;
  const auto = gen?.selectedBy?.startsWith("auto") ? " (auto)" : "";
  const generator = gen ? ` · ${gen.name} ${gen.version}${auto}${gen.client ? ` (${gen.client})` : ""}` : "";
  if (first.kind === "websocket") {
    const length = typeof first.options.messages === "number"
      ? `${first.options.messages} messages × ${s.runs} runs`
      : `${s.durationSec} s × ${runsText(s)}`;
    return `${title}${generator} · ${s.connections} connections × ${first.options["in-flight"] ?? 1} in flight` +
      ` · ${first.options["message-size"] ?? "?"} B messages · ${length} · ${pinning(first)}`;
  }
  return title + generator +
    ` · ${s.connections} connections · ${s.durationSec} s × ${runsText(s)} · ${pinning(first)}`;
}

const HTTP: KindColumns = {
  headers: ["p50", "p99"],
  numeric: [true, true],
  cells: (r) => [r.latencyUs ? formatUs(r.latencyUs.p50) : "", r.latencyUs ? formatUs(r.latencyUs.p99) : ""],
};

const PROCESS: KindColumns = {
  headers: ["mean ± σ", "min … max", "user", "system", "peak RSS", "runs"],
  numeric: [true, true, true, true, true, true],
  cells(r) {
    const f = r.headline.figure;
    const s = r.summary[f];
    const median = (name: string) => r.summary[name] ? formatFigure(name, r.summary[name].median) : "n/a";
    return [
      `${formatFigure(f, s.mean)} ± ${formatFigure(f, s.stdev)}`,
      `${formatFigure(f, s.min)} … ${formatFigure(f, s.max)}`,
      median("userMs"),
      median("systemMs"),
      median("maxRssBytes"),
      String(s.n),
    ];
  },
};

const MICRO: KindColumns = {
  headers: ["call p50", "call p99", "± rme", "timer"],
  numeric: [true, true, true, false],
  cells(r) {
    const ns = (name: string) => r.summary[name] ? formatUs(r.summary[name].median / 1000) : "";
    const rme = r.summary.throughputRmePercent;
    return [
      ns("callLatencyP50Ns"),
      ns("callLatencyP99Ns"),
      rme ? `${rme.median.toFixed(2)} %` : "",
      String(r.facts.timer ?? ""),
    ];
  },
};

/** The columns after the headline figure, relative speed and CI, for a kind. */
export function kindColumns(kind: string): KindColumns {
  return kind === "process" ? PROCESS : kind === "micro" ? MICRO : HTTP;
}

/** Lines under a section: the timer's own cost per spawn, for process workloads. */
export function sectionNotes(records: readonly BenchRecord[]): string[] {
  if (records[0].kind !== "process") return [];
  const costs = records.filter((r) => typeof r.facts.spawnOverheadMs === "number")
    .map((r) => `${r.runtime.name} ${(r.facts.spawnOverheadMs as number).toFixed(2)} ms`);
  if (costs.length === 0) return [];
  return [`  timer overhead per spawn (median of \`true\`, included in every figure): ${costs.join(", ")}`];
}
