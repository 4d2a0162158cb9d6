/**
 * The result of a suite as it grows, record by record, and as it stops when
 * the suite is interrupted (a signal) or fails (an error of rtbench's own):
 * then the file says so, when, why, and which records are left to measure,
 * and {@linkcode InterruptedError} carries it to the caller.
 *
 * @module
 */

import type { BenchRecord, BenchResult, Interruption, Topology, Warning } from "../schema/mod.ts";

/** The part of a result fixed when the suite starts. */
export type ResultHead = Omit<BenchResult, "finishedAt" | "warnings" | "records" | "topology" | "interrupted">;

/**
 * `run()` stopped before its end: interrupted (`signal` set) or failed. The
 * finished runs are in {@linkcode InterruptedError.result}, a valid result
 * marked `interrupted`, already handed to `onPartial`.
 *
 * @example Keep what an interrupted suite measured
 * ```ts ignore
 * import { InterruptedError, run, writeResult } from "@rtbench/rtbench/runners";
 * try {
 *   await run({ signal: AbortSignal.timeout(60_000) });
 * } catch (error) {
 *   if (error instanceof InterruptedError) await writeResult("partial.json", error.result);
 * }
 * ```
 *
 * @example A suite stopped before its first run: nothing kept, everything left to do
 * ```ts
 * import { assertEquals, assertRejects } from "@std/assert";
 * import { InterruptedError, run } from "@rtbench/rtbench/runners";
 * import { startup } from "@rtbench/rtbench/workloads";
 *
 * const controller = new AbortController();
 * const error = await assertRejects(
 *   () =>
 *     run({
 *       workloads: [startup],
 *       runtimes: ["deno"],
 *       variants: ["hello"],
 *       signal: controller.signal,
 *       // The suite starts (the first partial result), then is interrupted.
 *       onPartial: (partial) => void (partial.records.length === 0 && controller.abort()),
 *     }),
 *   InterruptedError,
 * );
 * assertEquals([error.result.records.length, error.result.interrupted?.remaining], [0, ["startup/hello/deno"]]);
 * ```
 */
export class InterruptedError extends Error {
  /** The result as far as it got, marked `interrupted`. */
  readonly result: BenchResult;

  /**
   * Creates the error.
   *
   * @param result The partial result, marked `interrupted`.
   * @param cause The abort reason or the error that stopped the suite.
   */
  constructor(result: BenchResult, cause: unknown) {
    super(result.interrupted?.reason ?? "interrupted", { cause });
    this.name = "InterruptedError";
    this.result = result;
  }
}

/**
 * Why a suite stopped, in words and by signal: an abort's reason (`interrupted
 * by SIGINT`, as the command line's signal handler words it), or the error.
 *
 * @param error What ended the suite.
 * @param signal The suite's abort signal.
 * @returns The reason and the signal's name, if a signal stopped it.
 *
 * @example
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { stopOf } from "./suite_result.ts";
 *
 * const controller = new AbortController();
 * controller.abort(new DOMException("interrupted by SIGTERM", "AbortError"));
 * assertEquals(stopOf(controller.signal.reason, controller.signal), { reason: "interrupted by SIGTERM", signal: "SIGTERM" });
 * ```
 */
export function stopOf(error: unknown, signal: AbortSignal): { reason: string; signal: string | null } {
  const why = (e: unknown) => (e instanceof Error ? e.message : String(e)).split("\n")[0];
  if (signal.aborted) {
    const text = why(signal.reason);
    const reason = text.startsWith("interrupted") ? text : `interrupted (${text})`;
    return { reason, signal: /\b(SIG[A-Z]+)\b/.exec(reason)?.[1] ?? null };
  }
  return { reason: `stopped by an error: ${why(error)}`, signal: null };
}

/** The result as it grows: every finished record replaces its earlier self and is handed to `onPartial` at once. */
export class GrowingResult {
  /** Suite-wide warnings. */
  readonly warnings: Warning[] = [];
  /** The suite's machines, once connected. */
  topology: Topology | undefined;
  readonly #records: BenchRecord[];
  readonly #head: ResultHead;
  readonly #onRecord: (record: BenchRecord, partial: BenchResult) => void | Promise<void>;
  #interrupted: Interruption | undefined;

  /**
   * A result starting from `records` (a resumed file's, every one kept until a new one replaces it).
   *
   * @param head The fixed part of the result.
   * @param records Records it starts with.
   * @param onRecord Called with each finished record and the result as it then stands.
   */
  constructor(
    head: ResultHead,
    records: readonly BenchRecord[],
    onRecord: (record: BenchRecord, partial: BenchResult) => void | Promise<void>,
  ) {
    this.#head = head;
    this.#records = [...records];
    this.#onRecord = onRecord;
  }

  /** The result as it stands; `finishedAt` null while the suite runs. */
  current(finishedAt: string | null = null): BenchResult {
    return {
      ...this.#head,
      ...(this.topology ? { topology: this.topology } : {}),
      finishedAt,
      warnings: [...this.warnings],
      records: [...this.#records],
      ...(this.#interrupted ? { interrupted: this.#interrupted } : {}),
    };
  }

  /** Adds a finished record, replacing an earlier one of the same id. */
  async add(record: BenchRecord): Promise<void> {
    const earlier = this.#records.findIndex((r) => r.id === record.id);
    if (earlier >= 0) this.#records[earlier] = record;
    else this.#records.push(record);
    await this.#onRecord(record, this.current());
  }

  /** The finished result, records in suite order (workload × variant × runtime as planned). */
  finished(order: readonly string[]): BenchResult {
    this.#sort(order);
    return this.current(new Date().toISOString());
  }

  /**
   * The result of a suite that stopped early: records in suite order, marked
   * `interrupted` with when, why and the planned records not finished.
   *
   * @param order Every planned record's id, in suite order.
   * @param stop Why it stopped, and the signal if one did.
   * @returns The partial result.
   */
  stopped(order: readonly string[], stop: { reason: string; signal: string | null }): BenchResult {
    this.#sort(order);
    const at = new Date().toISOString();
    const finished = new Set(this.#records.filter((r) => r.status !== "interrupted").map((r) => r.id));
    this.#interrupted = { at, ...stop, remaining: order.filter((id) => !finished.has(id)) };
    return this.current(at);
  }

  #sort(order: readonly string[]): void {
    const rank = new Map(order.map((id, i) => [id, i]));
    this.#records.sort((a, b) => (rank.get(a.id) ?? rank.size) - (rank.get(b.id) ?? rank.size));
  }
}
