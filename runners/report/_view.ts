// What every human-readable exporter shows, computed once: records grouped by
// workload and variant, ranked by their headline figure, with relative speed,
// plus the environment and settings as label/value pairs. Nothing here
// assumes a workload kind: figures come from `record.headline` and `summary`.

import { formatFigure } from "./format.ts";
import type { BenchRecord, BenchResult, Summary } from "../schema/result.ts";

/** One completed record with its headline figure and relative speed. */
export interface RankedRecord {
  readonly record: BenchRecord;
  readonly headline: Summary;
  /** How many times better than the group's worst completed record (1 for the worst). */
  readonly relative: number;
  readonly isBaseline: boolean;
}

/** Records of one workload × variant. */
export interface RecordGroup {
  readonly workload: string;
  readonly variant: string;
  readonly kind: string;
  /** The headline figure of the group (the first record's). */
  readonly figure: string;
  readonly higherIsBetter: boolean;
  /** Completed records with the headline figure, best first. */
  readonly ranked: readonly RankedRecord[];
  /** Every other record (errored, invalid, skipped, or without the figure), in run order. */
  readonly others: readonly BenchRecord[];
  readonly records: readonly BenchRecord[];
}

/** `deno 2.9.6`, or what was asked for when the runtime could not be had. */
export function recordLabel(r: BenchRecord): string {
  return r.runtime.version ? `${r.runtime.name} ${r.runtime.version}` : r.runtime.requested;
}

/** Groups records by workload × variant (in first-seen order) and ranks each group. */
export function groupRecords(result: BenchResult): RecordGroup[] {
  const byKey = new Map<string, BenchRecord[]>();
  for (const r of result.records) {
    const key = `${r.workload}\u0000${r.variant}`;
    byKey.set(key, [...(byKey.get(key) ?? []), r]);
  }
  return [...byKey.values()].map((records) => {
    const measured = records.find((r) => r.status === "completed") ?? records[0];
    const { figure, higherIsBetter } = measured.headline;
    const done = records.filter((r) => r.status === "completed" && r.summary[figure] !== undefined);
    const sign = higherIsBetter ? -1 : 1;
    done.sort((a, b) => sign * (a.summary[figure].median - b.summary[figure].median));
    const worst = done.at(-1)?.summary[figure].median;
    const ranked = done.map((record, i): RankedRecord => {
      const median = record.summary[figure].median;
      const relative = worst === undefined || worst === 0 || median === 0
        ? 1
        : higherIsBetter
        ? median / worst
        : worst / median;
      return { record, headline: record.summary[figure], relative, isBaseline: i === done.length - 1 };
    });
    return {
      workload: measured.workload,
      variant: measured.variant,
      kind: measured.kind,
      figure,
      higherIsBetter,
      ranked,
      others: records.filter((r) => !done.includes(r)),
      records,
    };
  });
}

/** `1.18× deno` (better than the worst by), or `1.0× (slowest)` for the worst itself. */
export function relativeText(group: RecordGroup, r: RankedRecord): string {
  if (r.isBaseline) return group.ranked.length > 1 ? "1.0× (slowest)" : "1.0×";
  return `${r.relative.toFixed(2)}× ${group.ranked.at(-1)!.record.runtime.name}`;
}

/** `44,505/s – 75,909/s`, or a note when there was one run. */
export function ciText(figure: string, s: Summary): string {
  return s.ci95 ? `${formatFigure(figure, s.ci95.low)} – ${formatFigure(figure, s.ci95.high)}` : "n/a (1 run)";
}

/** Why a record has no figure: the skip reason or the phase and error. */
export function whyText(r: BenchRecord): string {
  if (r.status === "skipped") return r.skipReason ?? "";
  if (r.error) return `${r.error.phase}: ${r.error.message}`;
  if (r.status === "completed") return `no ${r.headline.figure} figure`;
  return "";
}

/** The settings that shaped a group, as one line: only what applies to its kind. */
export function settingsText(group: RecordGroup): string {
  const first = group.records.find((r) => r.status === "completed") ?? group.records[0];
  const s = first.settings;
  const gen = group.records.find((r) => r.loadGenerator)?.loadGenerator;
  const parts = [`${group.kind} workload`];
  if (gen) {
    parts.push(`${gen.name} ${gen.version}`, `${s.connections} connections`, `pipelining ${s.pipelining}`);
  }
  parts.push(`${s.durationSec} s × ${s.runs} runs`, `warm-up ${s.warmupSec} s`);
  parts.push(
    first.cpus.server !== null ? `server cpu ${first.cpus.server}, client cpu ${first.cpus.client}` : "not pinned",
  );
  const options = Object.entries(first.options).filter(([, v]) => v !== null);
  if (options.length > 0) parts.push(options.map(([k, v]) => `--${k} ${v}`).join(" "));
  return parts.join(" · ");
}

/** Direction of a figure in words. */
export function directionText(higherIsBetter: boolean): string {
  return higherIsBetter ? "higher is better" : "lower is better";
}

function bytes(n: number | null): string {
  return n === null ? "unknown" : `${(n / 1024 ** 3).toFixed(1)} GiB`;
}

/** The machine and suite settings as label/value pairs, for environment tables. */
export function environmentRows(result: BenchResult): [string, string][] {
  const env = result.environment;
  const s = result.settings;
  const overrides = Object.entries(s.overrides).map(([k, v]) => `${k}=${v}`).join(", ");
  return [
    ["rtbench", `${result.suite.version} (result schema ${result.schemaVersion})`],
    ["started", result.startedAt],
    ["finished", result.finishedAt ?? "unfinished (interrupted or still running)"],
    ["profile", s.profile + (overrides ? ` with ${overrides}` : "")],
    ["workloads", s.workloads.join(", ")],
    ["runtimes", s.runtimes.join(", ")],
    ["load generator", s.loadGenerator],
    ["OS", `${env.osName ?? env.os} (${env.os}, kernel ${env.kernel}, ${env.arch})`],
    ["CPU", `${env.cpuModel ?? "unknown model"}, ${env.logicalCores} logical CPUs, allowed ${env.allowedCpus ?? "?"}`],
    [
      "CPU frequency",
      `governor ${env.cpuGovernor ?? "unknown"}, turbo ${
        env.cpuTurbo === null ? "unknown" : env.cpuTurbo ? "on" : "off"
      }`,
    ],
    ["memory", bytes(env.memoryBytes)],
    ["harness", `deno ${env.harness.deno}, V8 ${env.harness.v8}, TypeScript ${env.harness.typescript}`],
    ["git commit", env.gitCommit ?? "unknown"],
  ];
}

/** Runtimes of the result with version, engine and where the binary came from. */
export function runtimeRows(result: BenchResult): [string, string][] {
  const seen = new Map<string, string>();
  for (const r of result.records) {
    const rt = r.runtime;
    if (seen.has(rt.requested)) continue;
    seen.set(
      rt.requested,
      rt.version
        ? `${rt.name} ${rt.version} · ${rt.engine ?? "?"} ${rt.engineVersion ?? ""}`.trim() +
          ` · ${rt.source ?? "?"} · ${rt.binary ?? "?"}`
        : "not available",
    );
  }
  return [...seen.entries()];
}
