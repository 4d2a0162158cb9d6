// Each workload kind's report view, by the kind's name: what each adds to its section of a report: how it ran (the
// settings line, with the number of runs said the way the kind counts them),
// the columns after the headline figure, the latency percentiles it shows, and
// notes under the tables. HTTP and WebSocket show their load generator,
// connections and latency (WebSocket's per message, tail first); process
// workloads show spread, CPU time and peak memory with the timer's own cost;
// micro-benchmarks show tinybench's per-call latency and margin of error.

import {
  approximateLatencyNote,
  DEFAULT_SLO_P99_MS,
  DEFAULT_SWEEP_STEPS,
  formatFigure,
  formatLatency,
  formatUs,
  runPlan,
} from "../stats/mod.ts";
import type { BenchRecord, LatencyPercentiles } from "../schema/mod.ts";
import type { ViewColumn } from "./_view_table.ts";

/** What one workload kind adds to its section of a report. */
export interface KindView {
  /** How the records ran, as parts of the settings line (pinning, options and direction follow). */
  settings(records: readonly BenchRecord[]): string[];
  /** Options that {@linkcode KindView.settings} already says in words. */
  readonly described: readonly string[];
  /** The columns after the headline figure, its CI and relative speed. */
  readonly columns: readonly ViewColumn[];
  /** The cells of one completed record under {@linkcode KindView.columns}. */
  cells(record: BenchRecord): string[];
  /** Latency percentiles to show (key and header), for kinds whose records carry them. */
  readonly latency: readonly (readonly [keyof LatencyPercentiles, string])[];
  /** Lines under the section's tables. */
  notes(records: readonly BenchRecord[]): string[];
}

function fact(records: readonly BenchRecord[], name: string): unknown {
  return records.find((r) => r.facts[name] !== undefined && r.facts[name] !== null)?.facts[name];
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? "" : "s"}`;
}

/**
 * `3 s`: the seconds asked, or, when the runs' recorded figure (the median) differs from them by more than a tenth,
 * what ran: `1 s (asked 0.5 s)` (wrk runs whole seconds).
 */
function ranText(records: readonly BenchRecord[], figure: "durationMs" | "warmupMs", askedSec: number): string {
  const ran = records.flatMap((r) => r.runs.map((run) => run.figures[figure])).filter((v) => v !== undefined)
    .sort((a, b) => a - b);
  if (ran.length === 0) return `${askedSec} s`;
  const sec = ran[Math.floor(ran.length / 2)] / 1000;
  if (Math.abs(sec - askedSec) <= Math.max(askedSec, 0.1) / 10) return `${askedSec} s`;
  return `${Math.round(sec * 10) / 10} s (asked ${askedSec} s)`;
}

/** `5 runs`, or `3–10 runs (until the 95% CI is ±3%)` when runs are added until the interval is narrow. */
function planText(s: BenchRecord["settings"]): string {
  const plan = runPlan(s);
  return plan.adaptive
    ? `${plan.min}–${plan.max} runs (until the 95% CI is ±${plan.ciTargetPercent}%)`
    : `${s.runs} runs`;
}

function generatorText(records: readonly BenchRecord[]): string[] {
  const gen = records.find((r) => r.loadGenerator)?.loadGenerator;
  if (!gen) return [];
  const auto = gen.selectedBy?.startsWith("auto") ? " (auto)" : "";
  return [`${gen.name} ${gen.version}${auto}${gen.client ? ` (${gen.client})` : ""}`];
}

/** Every merged percentile, from the fastest request to the slowest. */
const HTTP_LATENCY: KindView["latency"] = [
  ["min", "min"],
  ["p2_5", "2.5%"],
  ["p50", "50%"],
  ["p90", "90%"],
  ["p97_5", "97.5%"],
  ["p99", "99%"],
  ["p99_9", "99.9%"],
  ["max", "max"],
  ["mean", "mean"],
  ["stdev", "stdev"],
];

/** WebSocket latencies are per message, where the tail (p99.9) is what users feel. */
const WEBSOCKET_LATENCY: KindView["latency"] = [
  ["p50", "50%"],
  ["p90", "90%"],
  ["p99", "99%"],
  ["p99_9", "99.9%"],
  ["max", "max"],
  ["mean", "mean"],
  ["stdev", "stdev"],
];

/**
 * How the load was offered, when not by N connections each waiting for its answer: a fixed rate or
 * phases (open model: up to N connections, latency from when each was due), or a sweep of rates.
 */
function openModelText(s: BenchRecord["settings"], unit: string): string | null {
  const arrival = s.arrival === "poisson" ? ", Poisson arrivals" : "";
  if (s.sweep) {
    return `sweep: closed-model peak, then ${s.sweepSteps ?? DEFAULT_SWEEP_STEPS} rates from 10% to 110% of it, ` +
      `knee at p99 ≤ ${s.sloP99Ms ?? DEFAULT_SLO_P99_MS} ms${arrival} · up to ${s.connections} connections`;
  }
  if (s.phases) return `open model: phases ${s.phases} ${unit}${arrival} · up to ${s.connections} connections`;
  if (s.rate !== undefined) {
    return `open model: ${s.rate.toLocaleString("en-US")} ${unit}${arrival} · up to ${s.connections} connections`;
  }
  return null;
}

/** CPU and memory columns of a kind that loads a server, by the figures' names for its unit. */
function efficiencyColumns(unit: "Request" | "Message"): Pick<KindView, "columns" | "cells"> {
  const client = unit === "Request" ? "clientCpuUsPerResponseAtRate" : "clientCpuUsPerMessageAtRate";
  const per = unit.toLowerCase();
  const figures: [string, string][] = [
    [`serverCpuUsPer${unit}`, `CPU/${per}`],
    [`serverCpuUsPer${unit}AtRate`, `CPU/${per} at rate`],
    [client, "client CPU at rate"],
    ["serverRssAtRateBytes", "RSS at rate"],
    ["serverRssPerConnectionBytes", "RSS/connection"],
  ];
  return {
    columns: figures.map(([, header]) => ({ header, numeric: true })),
    cells: (r) =>
      figures.map(([name]) => {
        const median = r.summary[name]?.median;
        if (median === undefined) return "";
        return name === "serverRssPerConnectionBytes"
          ? `${(median / 1024).toFixed(1)} KiB`
          : formatFigure(name, median);
      }),
  };
}

const REQUEST_EFFICIENCY = efficiencyColumns("Request");

const HTTP: KindView = {
  settings(records) {
    const s = records[0].settings;
    return [
      ...generatorText(records),
      openModelText(s, "requests/s") ?? `${s.connections} connections`,
      s.keepAlive === false ? "keep-alive off (a new connection per request)" : `pipelining ${s.pipelining}`,
      // Only HTTP records follow an adaptive plan; the other kinds run `runs` times.
      `${ranText(records, "durationMs", s.durationSec)} × ${planText(s)}`,
      `warm-up ${ranText(records, "warmupMs", s.warmupSec)}`,
    ];
  },
  described: [],
  columns: [
    { header: "p50", numeric: true },
    { header: "p99", numeric: true },
    // Keep-alive off: each new connection's connect, apart from the response's latency (medians over runs).
    { header: "connect p50", numeric: true },
    { header: "connect p99", numeric: true },
    ...REQUEST_EFFICIENCY.columns,
  ],
  cells: (r) => [
    ...(r.latencyUs ? [formatLatency(r, r.latencyUs.p50), formatLatency(r, r.latencyUs.p99)] : ["", ""]),
    ...["connectP50Us", "connectP99Us"].map((f) => {
      const us = median(r, f);
      return us === null ? "" : formatUs(us);
    }),
    ...REQUEST_EFFICIENCY.cells(r),
  ],
  latency: HTTP_LATENCY,
  // Where latency figures are approximate (≈ in their cells), the section says from what.
  notes: (records) => [approximateLatencyNote(records) ?? []].flat(),
};

const MESSAGE_EFFICIENCY = efficiencyColumns("Message");

// Connections and latency as HTTP; messages instead of requests, and no adaptive plan.
const WEBSOCKET: KindView = {
  ...HTTP,
  settings(records) {
    const { settings: s, options } = records[0];
    return [
      ...generatorText(records),
      openModelText(s, "messages/s") ?? `${s.connections} connections × ${options["in-flight"] ?? 1} in flight`,
      `${options["message-size"] ?? "?"} B messages`,
      typeof options.messages === "number"
        ? `${options.messages} messages × ${s.runs} runs`
        : `${s.durationSec} s × ${s.runs} runs`,
      `warm-up ${s.warmupSec} s`,
    ];
  },
  described: ["in-flight", "message-size", "messages"],
  columns: [{ header: "p50", numeric: true }, { header: "p99", numeric: true }, ...MESSAGE_EFFICIENCY.columns],
  cells: (r) => [
    ...(r.latencyUs ? [formatLatency(r, r.latencyUs.p50), formatLatency(r, r.latencyUs.p99)] : ["", ""]),
    ...MESSAGE_EFFICIENCY.cells(r),
  ],
  latency: WEBSOCKET_LATENCY,
};

function median(r: BenchRecord, figure: string): number | null {
  return r.summary[figure]?.median ?? null;
}

/** A rate held or not: the columns after the headline (p99 from when each was due) say what went out late. */
function openModel(view: KindView): KindView {
  return {
    ...view,
    columns: [...view.columns, { header: "missed", numeric: true }],
    cells(r) {
      const missed = median(r, "missedPercent");
      return [...view.cells(r), missed === null ? "" : `${missed.toFixed(2)} %`];
    },
  };
}

/**
 * Figures that add up to a process workload's headline and are shown as columns of their own before it: fs's write
 * and read phases (`writeReadMs` is their sum), which answer different questions (a runtime may write fast and read
 * slowly).
 */
const PARTS: readonly (readonly [string, string])[] = [["writeMs", "write"], ["readMs", "read"]];

/** The process view with a column per headline part the records carry (medians over the runs). */
function withParts(view: KindView, records: readonly BenchRecord[]): KindView {
  const parts = PARTS.filter(([figure]) => records.some((r) => r.summary[figure] !== undefined));
  if (parts.length === 0) return view;
  return {
    ...view,
    columns: [...parts.map(([, header]) => ({ header, numeric: true })), ...view.columns],
    cells(r) {
      const cells = parts.map(([figure]) => {
        const m = median(r, figure);
        return m === null ? "" : formatFigure(figure, m);
      });
      return [...cells, ...view.cells(r)];
    },
  };
}

/** A sweep ranks by the knee's rate; beside it, the knee's p99 and how many rates each run measured. */
function sweepOf(view: KindView): KindView {
  return {
    ...view,
    columns: [{ header: "knee p99", numeric: true }, { header: "rates", numeric: true }],
    cells(r) {
      const p99 = median(r, "kneeLatencyP99Us");
      const steps = r.runs.map((run) => run.steps?.length ?? 0);
      return [p99 === null ? "none held" : formatUs(p99), steps.length > 0 ? String(Math.min(...steps)) : ""];
    },
  };
}

const PROCESS: KindView = {
  settings(records) {
    const timer = fact(records, "timer");
    const warmups = Number(fact(records, "warmupRuns") ?? 0);
    const minMs = Number(fact(records, "minDurationMs") ?? 0);
    const runs = `≥${fact(records, "minRuns") ?? records[0].settings.runs} runs` +
      (minMs > 0 ? ` and ≥${minMs / 1000} s` : "") + ` after ${plural(warmups, "warm-up")}`;
    return [...(timer ? [`timer ${timer}`] : []), runs];
  },
  described: ["warmup-runs"],
  columns: [
    ...["mean ± σ", "net of spawn", "min … max", "user", "system", "peak RSS", "runs"].map((header) => ({
      header,
      numeric: true,
    })),
    { header: "TypeScript", numeric: false },
  ],
  cells(r) {
    const f = r.headline.figure;
    const s = r.summary[f];
    const median = (name: string) => r.summary[name] ? formatFigure(name, r.summary[name].median) : "n/a";
    // The timer's own cost per spawn is in every figure; net of it, a fast runtime's share is not understated.
    const overhead = r.facts.spawnOverheadMs;
    const net = typeof overhead === "number" && f === "wallMs" ? formatFigure(f, s.median - overhead) : "";
    const ts = String(r.facts.typeScript ?? "").split(":")[0];
    return [
      `${formatFigure(f, s.mean)} ± ${formatFigure(f, s.stdev)}`,
      net,
      `${formatFigure(f, s.min)} … ${formatFigure(f, s.max)}`,
      median("userMs"),
      median("systemMs"),
      median("maxRssBytes"),
      String(s.n),
      ts,
    ];
  },
  latency: [],
  notes(records) {
    const costs = records.filter((r) => typeof r.facts.spawnOverheadMs === "number")
      .map((r) => `${r.runtime.name} ${(r.facts.spawnOverheadMs as number).toFixed(2)} ms`);
    if (costs.length === 0) return [];
    const notes = [
      `timer overhead per spawn (median of \`true\`, included in every figure; "net of spawn" is the median less it): ${
        costs.join(", ")
      }`,
    ];
    const quiet = records.filter((r) => typeof r.facts.quietEnv === "string")
      .map((r) => `${r.runtime.name} ${r.facts.quietEnv}`);
    if (quiet.length > 0) notes.push(`set against update checks and telemetry: ${[...new Set(quiet)].join(", ")}`);
    return notes;
  },
};

const MICRO: KindView = {
  settings(records) {
    const s = records[0].settings;
    return ["tinybench", `${s.durationSec} s per run after ${s.warmupSec} s warm-up × ${s.runs} runs`];
  },
  described: [],
  columns: [
    { header: "call p50", numeric: true },
    { header: "call p99", numeric: true },
    { header: "± rme", numeric: true },
    { header: "timer", numeric: false },
  ],
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
  latency: [],
  notes: () => [],
};

/** The process view, with a column for each part of the headline the records carry. */
export function processView(records: readonly BenchRecord[]): KindView {
  return withParts(PROCESS, records);
}

/** The micro-benchmark view. */
export function microView(): KindView {
  return MICRO;
}

/** The WebSocket view; a rate held (open model) adds what went out late. */
export function websocketView(records: readonly BenchRecord[]): KindView {
  return loaded(WEBSOCKET, records);
}

/** The HTTP view; a rate held adds what went out late, and a sweep shows the knee. */
export function httpView(records: readonly BenchRecord[]): KindView {
  // Only HTTP sweeps (the closed-model peak of WebSocket is its messages/s).
  return records[0]?.settings.sweep ? sweepOf(HTTP) : loaded(HTTP, records);
}

function loaded(view: KindView, records: readonly BenchRecord[]): KindView {
  const s = records[0]?.settings;
  return s?.rate !== undefined || s?.phases ? openModel(view) : view;
}

/** Each kind's view, by the kind's name: a kind added to runners/kinds/ adds its line here. */
const VIEWS: Readonly<Record<string, (records: readonly BenchRecord[]) => KindView>> = {
  http: httpView,
  websocket: websocketView,
  process: processView,
  micro: microView,
};

/**
 * What a kind adds to its section of a report, for the section's `records` (open-model and sweep records of HTTP show
 * what was late, or the knee). A kind without a view is an error, never shown as another kind.
 *
 * @example The columns of a process workload
 * ```ts
 * import { kindView } from "./_kind_views.ts";
 * console.log(kindView("process").columns.map((c) => c.header)[0]); // "mean ± σ"
 * ```
 */
export function kindView(kind: string, records: readonly BenchRecord[] = []): KindView {
  const view = VIEWS[kind];
  if (!view) throw new TypeError(`Cannot show records of workload kind "${kind}": no report view for it`);
  return view(records);
}
