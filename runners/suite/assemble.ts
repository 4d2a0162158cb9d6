/**
 * A record as the result file holds it, assembled from what the run loop
 * measured (`RecordOutcome`) and how the record ended.
 *
 * @module
 */

import { summarize } from "../stats/mod.ts";
import { combineSummaries, endpointSummaries, mergeLatency } from "../samples/mod.ts";
import type { ResolvedRuntime, RuntimeSpec } from "../../adapters/mod.ts";
import type { Fact, OptionValues, Workload } from "../../workloads/mod.ts";
import type { Ending, RecordOutcome } from "../kinds/mod.ts";
import type {
  BenchRecord,
  CpuSets,
  Headline,
  Pairing,
  ResourceSummary,
  RunRecord,
  RuntimeInfo,
  Summary,
} from "../schema/mod.ts";
import type { Planned } from "./plan.ts";
import { armOf } from "./aa.ts";

/** The runtime as recorded; its version and binary are null when it could not be had. */
export function runtimeInfo(spec: RuntimeSpec, rt?: ResolvedRuntime): RuntimeInfo {
  return {
    name: spec.name,
    requested: spec.requested,
    version: rt?.version ?? null,
    engine: rt?.engine ?? null,
    engineVersion: rt?.engineVersion ?? null,
    binary: rt?.binary ?? null,
    source: rt?.source ?? null,
    ...(armOf(spec) ? { arm: armOf(spec) } : {}),
    ...(rt?.selection ? { selection: rt.selection } : {}),
    ...(rt?.release !== undefined ? { release: rt.release } : {}),
  };
}

/** Statistics of every figure over the runs that have it. */
export function summaries(runs: readonly RunRecord[]): Record<string, Summary> {
  const keys = [...new Set(runs.flatMap((r) => Object.keys(r.figures)))];
  const out: Record<string, Summary> = {};
  for (const key of keys) {
    const values = runs.map((r) => r.figures[key]).filter((v) => typeof v === "number");
    if (values.length > 0) out[key] = summarize(values);
  }
  return out;
}

/** Option values as recorded; a secret (a password in a URL) is never written to a result. */
export function recordedOptions(workload: Workload, values: OptionValues): Record<string, Fact> {
  return Object.fromEntries(
    Object.entries(values).map(([name, value]) => {
      const secret = value !== undefined && workload.options?.find((o) => o.name === name)?.secret;
      return [name, secret ? "<secret>" : value ?? null];
    }),
  );
}

/** An outcome with nothing measured yet: the workload's headline, the session's facts. */
export function emptyOutcome(
  cpus: CpuSets,
  headline: Headline,
  facts: Readonly<Record<string, Fact>> = {},
): RecordOutcome {
  return {
    command: null,
    loadGenerator: null,
    cpus,
    checks: [],
    facts: { ...facts },
    headline,
    runs: [],
    warnings: [],
  };
}

/** Everything a finished record is assembled from. */
export interface RecordParts {
  /** The record's id. */
  readonly id: string;
  /** Its workload × variant. */
  readonly planned: Planned;
  /** The runtime as requested. */
  readonly spec: RuntimeSpec;
  /** The runtime as found, or undefined when it could not be had. */
  readonly runtime: ResolvedRuntime | undefined;
  /** When the record opened (ISO 8601). */
  readonly startedAt: string;
  /** What the run loop measured. */
  readonly outcome: RecordOutcome;
  /** How it ended. */
  readonly ending: Ending;
  /** The interrupted record of a resumed file it went on from, whose runs `outcome` holds first. */
  readonly earlier?: BenchRecord;
  /** The records it was measured round by round with, when it was. */
  readonly pairing?: Pairing;
}

/** The record as the result file holds it. */
export function assembleRecord(parts: RecordParts): BenchRecord {
  const { planned, outcome, ending } = parts;
  return {
    id: parts.id,
    workload: planned.workload.name,
    variant: planned.variant,
    kind: planned.workload.kind,
    runtime: runtimeInfo(parts.spec, parts.runtime),
    status: ending.status,
    error: ending.error,
    skipReason: ending.skipReason,
    startedAt: parts.startedAt,
    finishedAt: new Date().toISOString(),
    settings: planned.settings,
    options: recordedOptions(planned.workload, planned.options),
    command: outcome.command,
    loadGenerator: outcome.loadGenerator,
    cpus: outcome.cpus,
    verification: { passed: outcome.checks.every((c) => c.passed), checks: outcome.checks },
    facts: outcome.facts,
    headline: outcome.headline,
    runs: outcome.runs,
    summary: summaries(outcome.runs),
    latencyUs: mergeLatency(outcome.runs.map((r) => r.latencyHistogram)),
    ...latencyQuantilesOf(outcome.runs),
    ...(outcome.runs.some((r) => r.connectHistogram !== undefined)
      ? {
        connectUs: mergeLatency(outcome.runs.map((r) => r.connectHistogram ?? null)),
        totalLatencyUs: mergeLatency(outcome.runs.map((r) => r.totalLatencyHistogram ?? null)),
      }
      : {}),
    resources: resourcesOf(parts),
    warnings: outcome.warnings,
    ...withEndpoints(outcome.runs),
    ...(parts.pairing && outcome.runs.length > 0 ? { pairing: parts.pairing } : {}),
    ...(outcome.processes ? { processes: outcome.processes } : {}),
  };
}

/**
 * Resources over every run. A record gone on from an earlier one holds that
 * one's summary (over its runs) and the kind's (over the new runs): the means
 * are weighted by runs, the peaks are the larger, the samples add up.
 */
// A record whose runs were rebuilt from quantiles says so beside its merged latency, which is then approximate too.
function latencyQuantilesOf(runs: readonly RunRecord[]): Pick<BenchRecord, "latencyQuantiles"> {
  const counts = runs.flatMap((r) => r.latencyQuantiles ?? []);
  return counts.length > 0 ? { latencyQuantiles: Math.max(...counts) } : {};
}

function resourcesOf(parts: RecordParts): ResourceSummary | null {
  const now = parts.outcome.resources ?? null;
  const before = parts.earlier?.resources ?? null;
  if (!before || !now) return now ?? before;
  const kept = parts.earlier!.runs.length;
  const weighted = [...Array(kept).fill(before), ...Array(parts.outcome.runs.length - kept).fill(now)];
  const combined = combineSummaries(weighted)!;
  return { ...combined, samples: before.samples + now.samples };
}

/** The record's figures per endpoint, when its runs have any. */
function withEndpoints(runs: BenchRecord["runs"]): Pick<BenchRecord, "endpoints"> {
  const endpoints = endpointSummaries(runs);
  return endpoints ? { endpoints } : {};
}
