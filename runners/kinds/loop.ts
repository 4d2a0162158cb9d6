/**
 * The one run loop every workload kind shares. A {@linkcode RecordRun} is one
 * record being measured: opened once, then stepped one run at a time (the
 * suite's scheduler decides the order of runs across runtimes), then closed.
 * Each step is: the session's `beforeRun` → the kind's run (start, verify,
 * measure) → the session's `afterRun` → the kind's judgement over the runs so
 * far. The record wants another run until its plan is met: `--runs`, or with
 * `--min-runs/--max-runs` until the headline's 95% CI is within `--ci-target`.
 *
 * @module
 */

import type { RecordError, RecordStatus, RunRecord } from "../schema/mod.ts";
import type { Workload } from "../../workloads/mod.ts";
import { ciWarning, needsAnotherRun, type RunPlan, runPlan, singleRunWarning } from "../stats/mod.ts";
import { describeFailures, InvalidError, PhaseError, SkipRecord } from "./errors.ts";
import type { Kind, RunOutput } from "./kind.ts";
import type { RecordContext, RecordOutcome } from "./record.ts";
import { hookTimeouts, withinTime } from "./timeouts.ts";
import { withChildEnv } from "../platform/mod.ts";
import { SpawnedProcesses } from "./spawned.ts";

/** How a record ended. */
export interface Ending {
  /** `completed`, `errored`, `invalid` or `skipped`. */
  readonly status: RecordStatus;
  /** Why it errored or is invalid; null otherwise. */
  readonly error: RecordError | null;
  /** Why it was skipped; null otherwise. */
  readonly skipReason: string | null;
}

/** Where a run stands in the suite's schedule. */
export interface Slot {
  /** Round: run i of every runtime of a variant is measured in round i. */
  readonly round: number;
  /** Position within the round, 0 first. */
  readonly slot: number;
}

function isAbort(error: unknown): boolean {
  return error instanceof DOMException && error.name === "AbortError";
}

/**
 * The ending a failure gives a record: skipped, invalid or errored in its phase.
 *
 * @param error What a kind or hook threw.
 * @returns The record's status, error and skip reason.
 *
 * @example An invalid server
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { InvalidError } from "./errors.ts";
 * import { endingOf } from "./loop.ts";
 *
 * const ending = endingOf(new InvalidError("verify", "GET / body: got \"{}\""));
 * assertEquals([ending.status, ending.error?.phase], ["invalid", "verify"]);
 * ```
 */
export function endingOf(error: unknown): Ending {
  if (error instanceof SkipRecord) return { status: "skipped", error: null, skipReason: error.message };
  const phaseError = error instanceof PhaseError
    ? error
    : new PhaseError("measure", error instanceof Error ? error.message : String(error), { cause: error });
  return {
    status: error instanceof InvalidError ? "invalid" : "errored",
    error: {
      phase: phaseError.phase,
      name: phaseError.cause instanceof Error ? phaseError.cause.name : phaseError.name,
      message: phaseError.message,
    },
    skipReason: null,
  };
}

/** One record being measured by its kind; see the module documentation. */
export class RecordRun<W extends Workload = Workload, S = unknown> {
  /** What the record holds so far; the suite turns it into a `BenchRecord`. */
  readonly outcome: RecordOutcome;
  readonly #kind: Kind<W, S>;
  readonly #ctx: RecordContext<W>;
  #state: S | undefined;
  #opened = false;
  #plan: RunPlan;
  #ending: Ending | null = null;
  /** Runs measured before this session (a resumed record's): the kind numbers its own runs after them. */
  readonly #kept: number;
  #pairedNeed: boolean | undefined;
  readonly #spawned = new SpawnedProcesses();

  /**
   * A record of `kind` for `ctx`, filling `outcome`. Runs already in
   * `outcome.runs` (a resumed record's) count towards the plan; the kind
   * measures the rest as a fresh record, its warm-ups and full verification
   * first.
   *
   * @param kind The workload's kind.
   * @param ctx Everything the record is measured with.
   * @param outcome The part of the record the kind and the loop fill in.
   */
  constructor(kind: Kind<W, S>, ctx: RecordContext<W>, outcome: RecordOutcome) {
    this.#kind = kind;
    this.#ctx = ctx;
    this.outcome = outcome;
    this.#plan = runPlan(ctx.settings);
    this.#kept = outcome.runs.length;
  }

  /** Runs measured so far. */
  get runs(): number {
    return this.outcome.runs.length;
  }

  /** The plan this record follows (known once opened). */
  get plan(): RunPlan {
    return this.#plan;
  }

  /** Whether the record has ended early (skipped, errored or invalid). */
  get ended(): boolean {
    return this.#ending !== null;
  }

  /** How the record ended early (`skipped`, `errored` or `invalid`), or null while it has not. */
  get endedAs(): RecordStatus | null {
    return this.#ending?.status ?? null;
  }

  /** Whether the record wants another run: opened, not ended, and its plan not met. */
  get wantsRun(): boolean {
    if (!this.#opened || this.#ending) return false;
    // Counted in runs, not headline values: a run without the headline figure still counts towards the plan.
    if (this.runs < this.#plan.min) return true;
    if (this.runs >= this.#plan.max) return false;
    const adaptive = this.#plan.adaptive &&
      (this.#pairedNeed ?? needsAnotherRun(this.#plan, this.#headlines()));
    return adaptive || (this.#kind.wantsMore?.(this.#state!) ?? false);
  }

  /**
   * With adaptive runs, whether another round is due judged on the paired intervals of the record's ratios to the
   * others measured in its rounds (the suite sets it after each round); undefined: judged on its own interval.
   */
  set pairedNeed(need: boolean | undefined) {
    this.#pairedNeed = need;
  }

  #headlines(): number[] {
    const figure = this.outcome.headline.figure;
    return this.outcome.runs.map((r) => r.figures[figure]).filter((v) => Number.isFinite(v));
  }

  /** Every process the record's work starts (however deep) is listed on the record with what it got. */
  #listed<T>(fn: () => Promise<T>): Promise<T> {
    return withChildEnv({ notice: this.#spawned.add }, fn).finally(() => {
      const processes = this.#spawned.list();
      if (processes.length > 0) this.outcome.processes = processes;
    });
  }

  /** Opens the record: the kind stages what it needs. A failure ends the record; an interruption is thrown. */
  open(): Promise<void> {
    return this.#listed(() => this.#open());
  }

  async #open(): Promise<void> {
    try {
      this.#state = await this.#kind.open(this.#ctx, this.outcome);
      this.#opened = true;
      if (this.#kind.plan) this.#plan = this.#kind.plan(this.#state, this.#plan);
    } catch (error) {
      this.#fail(error);
    }
  }

  /**
   * Measures the record's next run at `slot` of the schedule. A failure ends
   * the record (its finished runs stay); an interruption is thrown.
   *
   * @param slot Where this run stands in the suite's schedule.
   */
  step(slot: Slot): Promise<void> {
    return this.#listed(() => this.#step(slot));
  }

  async #step(slot: Slot): Promise<void> {
    const ctx = this.#ctx;
    const run = this.runs;
    try {
      ctx.onPhase?.("start", run);
      if (ctx.session.beforeRun) {
        await withinTime(
          "start",
          "beforeRun",
          hookTimeouts(ctx.hookTimeoutsSec).beforeRun,
          () => ctx.session.beforeRun!({ runtime: ctx.runtime.name, run }),
        );
      }
      const output = await this.#kind.run(this.#state!, run - this.#kept);
      this.outcome.runs.push({ ...output.run, index: run, ...slot } as RunRecord);
      if (output.invalid) throw new InvalidError("measure", output.invalid);
      await this.#afterRun(run, output.responses ?? { valid: 1, total: 1 });
      this.#kind.judge?.(this.#state!, this.outcome);
    } catch (error) {
      // Interrupted before the run's own checks were done: the run is not kept, it was never verified.
      if (this.#interrupted(error)) this.outcome.runs.length = Math.min(this.outcome.runs.length, run);
      this.#fail(error);
    }
  }

  async #afterRun(run: number, responses: NonNullable<RunOutput["responses"]>): Promise<void> {
    const ctx = this.#ctx;
    if (!ctx.session.afterRun) return;
    ctx.onPhase?.("cleanup", run);
    const checks = await withinTime(
      "cleanup",
      "afterRun",
      hookTimeouts(ctx.hookTimeoutsSec).afterRun,
      () =>
        ctx.session.afterRun!({
          runtime: ctx.runtime.name,
          run,
          validResponses: responses.valid,
          totalResponses: responses.total,
          ...(responses.sent !== undefined ? { sentRequests: responses.sent } : {}),
          ...(responses.unsent ? { unsent: responses.unsent } : {}),
          ...(responses.endpoints ? { endpoints: responses.endpoints } : {}),
          ...(responses.window ? { window: responses.window } : {}),
          addFigures: (figures) => this.#addFigures(figures),
        }),
    );
    this.outcome.checks.push(...checks);
    if (checks.some((c) => !c.passed)) throw new InvalidError("cleanup", describeFailures(checks));
  }

  /** Adds figures to the run just measured, never replacing one it has. */
  #addFigures(figures: Readonly<Record<string, number>>): void {
    const last = this.outcome.runs.length - 1;
    const run = this.outcome.runs[last];
    this.outcome.runs[last] = { ...run, figures: { ...figures, ...run.figures } };
  }

  #interrupted(error: unknown): boolean {
    return this.#ctx.signal.aborted || isAbort(error);
  }

  #fail(error: unknown): void {
    if (this.#interrupted(error)) throw this.#ctx.signal.reason ?? error;
    this.#ending ??= endingOf(error);
  }

  /**
   * How the record stands when the suite stops before closing it (`reason`
   * says why): ended as it ended, completed when its plan was met, else
   * `interrupted` with its finished runs kept. The kind is not closed: the
   * suite's processes are stopped as a whole.
   *
   * @param reason Why the suite stopped, in words (`interrupted by SIGINT`).
   * @returns The record's ending, or null when it has no run to keep.
   */
  stopped(reason: string): Ending | null {
    if (this.#ending) return this.#ending;
    if (this.runs === 0) return null;
    if (this.#opened && !this.wantsRun) {
      this.#warnWideInterval();
      return { status: "completed", error: null, skipReason: null };
    }
    const planned = this.#plan.adaptive ? `at least ${this.#plan.min}` : String(this.#plan.min);
    return {
      status: "interrupted",
      error: { phase: "measure", name: "Interrupted", message: `${reason} after ${this.runs} of ${planned} runs` },
      skipReason: null,
    };
  }

  /** The warnings of a record's runs as a whole: an interval too wide to rank by, or a single run. */
  #warnWideInterval(): void {
    const wide = ciWarning(this.#plan, this.#headlines(), this.outcome.headline.figure);
    if (wide) this.outcome.warnings.push(wide);
    const once = singleRunWarning(this.runs);
    if (once) this.outcome.warnings.push(once);
  }

  /** Closes the record: the kind releases what it holds; returns how the record ended. */
  close(): Promise<Ending> {
    return this.#listed(() => this.#close());
  }

  async #close(): Promise<Ending> {
    if (this.#opened) {
      if (!this.#ending) this.#warnWideInterval();
      try {
        await this.#kind.close?.(this.#state!);
      } catch (error) {
        this.#fail(error);
      }
    }
    if (!this.#ending && this.runs === 0) this.#ending = endingOf(new PhaseError("measure", "No measured run"));
    return this.#ending ?? { status: "completed", error: null, skipReason: null };
  }
}
