/**
 * The progress display: on a terminal, one line, redrawn in place, saying
 * which workload, variant, runtime, run and phase is going on, with elapsed
 * time and an estimate of the time left for the whole suite; plus one line
 * kept per finished record. Elsewhere (a log, a pipe) plain lines, each
 * after the time elapsed: one as each workload variant starts, with the
 * estimate of the time left (a variant's records can take minutes before the
 * first finishes), and the finished records' lines.
 *
 * The estimate starts from each workload kind's estimate of a record with its
 * settings (`runners/kinds/estimate.ts`) and is corrected by the pace of the
 * records finished so far.
 *
 * @module
 */

import { formatFigure, formatLatency, oneByCode } from "../report/mod.ts";
import type { BenchRecord, Phase } from "../schema/mod.ts";

/**
 * Progress of a suite, for displays; nothing is printed by `run()` itself.
 *
 * @example Log each finished record
 * ```ts
 * import type { ProgressEvent } from "@rtbench/rtbench/runners";
 *
 * function onProgress(event: ProgressEvent): void {
 *   if (event.type === "record-end") console.error(event.record.id, event.record.status);
 * }
 * ```
 */
export type ProgressEvent =
  | { readonly type: "suite-start"; readonly records: number; readonly estimatedSec: number }
  | {
    readonly type: "record-start";
    readonly index: number;
    readonly total: number;
    readonly id: string;
    readonly estimatedSec: number;
  }
  | { readonly type: "phase"; readonly id: string; readonly phase: Phase; readonly run: number; readonly runs: number }
  | { readonly type: "record-end"; readonly record: BenchRecord };

/**
 * Where and how a {@linkcode ProgressDisplay} draws.
 *
 * @example Draw to stderr
 * ```ts
 * import type { ProgressOptions } from "@rtbench/rtbench/runners";
 *
 * const encoder = new TextEncoder();
 * const options: ProgressOptions = {
 *   write: (text) => Deno.stderr.writeSync(encoder.encode(text)),
 *   columns: () => 100,
 * };
 * ```
 */
export interface ProgressOptions {
  /** Writes raw text (with `\r` and ANSI erase codes) to the terminal. */
  write(text: string): void;
  /** Milliseconds from a monotonic clock. @default {performance.now} */
  now?(): number;
  /** Terminal width in columns; lines are cut to fit so they redraw in place. @default {80} */
  columns?(): number;
  /**
   * Redraw a live line in place (a terminal); false writes plain lines after the elapsed time, one as each workload
   * variant starts and one per finished record, and nothing else (a log or a pipe, where `\r` redraws would pile up).
   * @default {true}
   */
  live?: boolean;
}

/**
 * A live progress line fed with {@linkcode ProgressEvent}s.
 *
 * @example Show progress while a suite runs
 * ```ts
 * import { assert } from "@std/assert";
 * import { createProgress, run } from "@rtbench/rtbench/runners";
 * import { startup } from "@rtbench/rtbench/workloads";
 *
 * let screen = "";
 * const progress = createProgress({ write: (text) => screen += text });
 * const ticker = setInterval(() => progress.tick(), 1000);
 * try {
 *   await run({
 *     workloads: [startup],
 *     runtimes: ["deno"],
 *     variants: ["hello"],
 *     settings: { runs: 3, durationSec: 0.1 },
 *     options: { "warmup-runs": 0 },
 *     onProgress: progress.update,
 *   });
 * } finally {
 *   clearInterval(ticker);
 *   progress.stop();
 * }
 * assert(screen.includes("startup (hello)"));
 * ```
 */
export interface ProgressDisplay {
  /** Takes the next event from `run()`. */
  update(event: ProgressEvent): void;
  /** Redraws the line (elapsed and remaining time move on between events). */
  tick(): void;
  /** Erases the line; call before printing anything else. */
  stop(): void;
}

const CLEAR = "\r\x1b[2K";

/** `m:ss`, or `h:mm:ss` from an hour on. */
export function clock(sec: number): string {
  const s = Math.max(0, Math.round(sec));
  const h = Math.floor(s / 3600);
  const mm = Math.floor((s % 3600) / 60);
  const ss = String(s % 60).padStart(2, "0");
  return h > 0 ? `${h}:${String(mm).padStart(2, "0")}:${ss}` : `${mm}:${ss}`;
}

function bar(fraction: number, width = 12): string {
  const filled = Math.round(Math.min(1, Math.max(0, fraction)) * width);
  return "█".repeat(filled) + "░".repeat(width - filled);
}

function describeId(id: string): { what: string; runtime: string } {
  const [workload, variant, ...rest] = id.split("/");
  return { what: `${workload} (${variant})`, runtime: rest.join("/") };
}

function cut(text: string, columns: number): string {
  const chars = [...text];
  return chars.length < columns ? text : chars.slice(0, Math.max(1, columns - 2)).join("") + "…";
}

/** The line kept for a finished record: its headline median, or why it was skipped or failed, then its warnings. */
function finishedLine(r: BenchRecord): string {
  const { what } = describeId(r.id);
  const label = r.runtime.version ? `${r.runtime.name} ${r.runtime.version}` : r.runtime.requested;
  const s = r.summary[r.headline.figure];
  let line: string;
  if (r.status === "completed" && s) {
    line = `✓ ${what} · ${label}: ${formatFigure(r.headline.figure, s.median)} ${r.headline.figure}` +
      (r.latencyUs ? ` · p99 ${formatLatency(r, r.latencyUs.p99)}` : "");
  } else if (r.status === "skipped") {
    line = `– ${what} · ${label}: skipped: ${r.skipReason ?? ""}`;
  } else {
    line = `✗ ${what} · ${label}: ${r.status}${r.error ? ` in ${r.error.phase}: ${r.error.message}` : ""}`;
  }
  if (r.warnings.length > 0) line += ` ⚠ ${oneByCode(r.warnings).map((w) => w.code).join(", ")}`;
  return line;
}

/**
 * The suite's estimated work and how much of it is done. The runs of a variant's runtimes interleave, so work done
 * is counted per record in runs, not in whole records.
 */
class Work {
  total = 0;
  totalEstimate = 0;
  readonly records = new Map<string, { index: number; estimate: number; done: number }>();
  #doneEstimate = 0;
  #doneAt: number | null = null;
  #workStart: number | null = null;
  #pace = 1;

  constructor(readonly now: () => number) {}

  start(id: string, index: number, estimate: number): void {
    this.#workStart ??= this.now();
    this.records.set(id, { index, estimate, done: 0 });
  }

  progressTo(id: string, fraction: number): void {
    const r = this.records.get(id);
    if (!r || fraction <= r.done) return;
    this.#doneEstimate += r.estimate * (Math.min(1, fraction) - r.done);
    r.done = Math.min(1, fraction);
    this.#doneAt = this.now();
  }

  end(record: BenchRecord): void {
    const r = this.records.get(record.id);
    if (r && record.runs.length === 0) {
      // Ended before measuring (a runtime that could not be had): its work is gone, not done.
      this.totalEstimate -= r.estimate * (1 - r.done);
      r.done = 1;
    } else {
      this.progressTo(record.id, 1);
    }
    // The pace is learned from finished work: elapsed work time over the estimate of what is done.
    if (this.#workStart !== null && this.#doneEstimate > 0) {
      this.#pace = (this.now() - this.#workStart) / 1000 / this.#doneEstimate;
    }
  }

  /** Seconds of estimated work left at the pace learned from finished records, less the time since work was last done. */
  remainingSec(): number {
    const since = (this.now() - (this.#doneAt ?? this.#workStart ?? this.now())) / 1000;
    return Math.max(0, (this.totalEstimate - this.#doneEstimate) * this.#pace - since);
  }
}

/**
 * Creates a progress display that draws through `options.write`.
 *
 * @param options Where to write, the clock, and the terminal width.
 * @returns A display to feed with `run()`'s progress events.
 *
 * @example Draw into a string
 * ```ts
 * import { createProgress } from "./progress.ts";
 * let screen = "";
 * const progress = createProgress({ write: (t) => screen += t, now: () => 0 });
 * progress.update({ type: "suite-start", records: 3, estimatedSec: 30 });
 * progress.update({ type: "record-start", index: 0, total: 3, id: "http-json/default/deno", estimatedSec: 10 });
 * console.log(screen.includes("~0:30 left · 1/3 http-json (default) · deno")); // true
 * ```
 */
export function createProgress(options: ProgressOptions): ProgressDisplay {
  const now = options.now ?? (() => performance.now());
  const columns = options.columns ?? (() => 80);
  const started = now();
  const work = new Work(now);
  let current: string | null = null;
  let step = "";
  let drawn = false;
  let announced: string | null = null;

  const draw = () => {
    if (options.live === false) return;
    const elapsed = (now() - started) / 1000;
    const left = work.remainingSec();
    let text: string;
    const shown = current === null ? undefined : work.records.get(current);
    if (current === null || !shown) {
      text = `preparing ${work.total} records: resolving runtimes · ${clock(elapsed)} elapsed`;
    } else {
      const { what, runtime } = describeId(current);
      // Times first: a narrow terminal cuts the end of the line.
      text = `${bar(elapsed / (elapsed + left || 1))} ${clock(elapsed)} elapsed, ~${clock(left)} left · ` +
        `${shown.index + 1}/${work.total} ${what} · ${runtime}` + (step ? ` · ${step}` : "");
    }
    options.write(CLEAR + cut(text, columns()));
    drawn = true;
  };

  const finished = (record: BenchRecord) => {
    const line = finishedLine(record);
    if (options.live === false) {
      options.write(`[${clock((now() - started) / 1000)}] ${line}\n`);
      return;
    }
    options.write(CLEAR + cut(line, columns()) + "\n");
    drawn = false;
  };

  return {
    update(event) {
      switch (event.type) {
        case "suite-start":
          work.total = event.records;
          work.totalEstimate = event.estimatedSec;
          break;
        case "record-start":
          work.start(event.id, event.index, event.estimatedSec);
          current = event.id;
          step = "";
          // Off a terminal, a line as each variant starts: a log shows what runs, not only what has finished.
          if (options.live === false && describeId(event.id).what !== announced) {
            announced = describeId(event.id).what;
            options.write(
              `[${clock((now() - started) / 1000)}] → ${announced} · ~${clock(work.remainingSec())} left\n`,
            );
          }
          break;
        case "phase":
          current = event.id;
          work.progressTo(event.id, event.run / event.runs);
          step = `run ${event.run + 1}/${event.runs} ${event.phase}`;
          break;
        case "record-end":
          work.end(event.record);
          if (current === event.record.id) step = "done";
          finished(event.record);
          return;
      }
      draw();
    },
    tick() {
      if (work.total > 0) draw();
    },
    stop() {
      if (drawn) options.write(CLEAR);
      drawn = false;
    },
  };
}
