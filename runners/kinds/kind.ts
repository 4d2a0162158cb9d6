/**
 * The contract every workload kind implements for the one run loop
 * (`loop.ts`): open a record once, measure one run at a time, judge the runs
 * so far, close. The loop owns everything else: the session's hooks, the
 * adaptive stop, the order of runs across runtimes, and how a record ends.
 *
 * @module
 */

import type { Headline, RunRecord } from "../schema/mod.ts";
import type { AfterRunContext, RunSettings, WorkloadBase } from "../../workloads/mod.ts";
import type { RunPlan } from "../stats/mod.ts";
import type { RecordContext, RecordOutcome, VariantContext, VariantVerdict } from "./record.ts";

/** One finished run, as a kind measured it. */
export interface RunOutput {
  /** The run's figures and counts; the loop adds where it stood in the schedule. */
  readonly run: Omit<RunRecord, "round" | "slot">;
  /** What the server answered in this run, for the session's `afterRun`; absent for kinds without a server. */
  readonly responses?: {
    readonly valid: number;
    readonly total: number;
    /** Requests sent, verification included, answered or not; absent when the generator cannot tell. */
    readonly sent?: number;
    /** Without `sent`: the loads the run went through and the requests they gave up on (see `AfterRunContext`). */
    readonly unsent?: { readonly loads: number; readonly timeouts: number };
    /** Valid responses per endpoint, warm-up included, when the generator counted them. */
    readonly endpoints?: Readonly<Record<string, number>>;
    /** The measured window, epoch ms, with each load process's own where the generator reports them. */
    readonly window?: AfterRunContext["window"];
  };
  /** Set when the run was measured but broke the workload's rules (a wrong body under load): the record is invalid. */
  readonly invalid?: string;
}

/**
 * A workload kind, all rtbench knows of it in one object: its name, what a workload of it must have, how one record
 * of it is opened, run and closed, and how reports show its records. `registry.ts` lists every kind; validation, the
 * run loop's dispatch and the reports derive from that list. `S` is the kind's own state for one record (staged files,
 * chosen tools, runs so far); `C` is what of the record's context the kind sees (a server's host and port, HTTP's
 * load generators: see `record.ts`).
 */
export interface Kind<W extends WorkloadBase, S, C extends RecordContext<W> = RecordContext<W>> {
  /** The `kind` field of the workloads it drives. */
  readonly name: W["kind"];
  /**
   * What a workload of this kind must have beyond the common fields: functions by name (`headline` is the one
   * object, a figure's name and its direction).
   */
  readonly requires: readonly string[];
  /**
   * Once per record, before its first run: stage files, choose tools, and fill
   * the outcome's fixed fields (headline, CPU sets, load generator, facts).
   * Throws `SkipRecord` when the runtime cannot do the variant.
   */
  // A function-typed field, not a method: its context is then checked strictly (a kind cannot take more than C).
  readonly open: (ctx: C, outcome: RecordOutcome) => Promise<S>;
  /**
   * What the workload's records are ranked by with `settings`: known before any record opens, so a record that
   * ends before opening (a runtime that cannot be had) still names its workload's figure.
   */
  headline(workload: W, settings: RunSettings): Headline;
  /**
   * Seconds one record is expected to take with `settings`, for the progress display's first estimate of a suite (it
   * corrects the estimate by the pace of finished records): see `estimate.ts`. Without it, each run's warm-up and
   * window and 1.5 s around them.
   */
  estimateSec?(settings: RunSettings): number;
  /** Measures one run (`run` counts from 0 for this record); throws a `PhaseError` naming the phase. */
  run(state: S, run: number): Promise<RunOutput>;
  /** The run plan of this record, when the kind's own plan differs from the settings' (a process's ≥N runs). */
  plan?(state: S, fromSettings: RunPlan): RunPlan;
  /** Whether the kind wants another run beyond the plan's minimum for its own reason (a minimum measured time). */
  wantsMore?(state: S): boolean;
  /** After every run: warnings and summaries judged over the runs so far (client-bound, outliers). */
  judge?(state: S, outcome: RecordOutcome): void;
  /** Releases what `open` acquired; always called once `open` succeeded. */
  close?(state: S): Promise<void>;
  /** Checks that need every runtime of a variant before any record opens (HTTP parity); a verdict per runtime. */
  checkVariant?(ctx: VariantContext<W>): Promise<Map<string, VariantVerdict>>;
}
