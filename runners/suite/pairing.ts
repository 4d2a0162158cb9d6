/**
 * The pairing of one variant's records: the records whose runs were interleaved round by round (run i of each in
 * round i) are named together in each record, and a paired record's `ci-wide` is judged on the paired intervals of
 * its ratios to the others, by which reports rank it, rather than on its own interval.
 *
 * @module
 */

import type { BenchRecord, Pairing, RunOrder, RunRecord } from "../schema/mod.ts";
import type { RecordRun } from "../kinds/mod.ts";
import { pairedCiWarning, ratioOf, runPlan } from "../stats/mod.ts";

/**
 * The pairing of the records `ids` of one workload × variant measured together from `startedAt`: none when the
 * runs were not interleaved (`blocked`) or only one record was measured.
 *
 * @param variant `<workload>/<variant>`.
 * @param ids The ids of the records stepped in rounds together.
 * @param order The suite's order of runs.
 * @param startedAt When their rounds began (ISO 8601): the same variant resumed later is another measurement.
 * @returns The pairing every one of the records carries, or undefined.
 *
 * @example
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { pairingOf } from "./pairing.ts";
 *
 * const ids = ["http-json/default/deno", "http-json/default/node"];
 * assertEquals(pairingOf("http-json/default", ids, "rotate", "2026-11-25T08:00:00.000Z")?.records, ids);
 * assertEquals(pairingOf("http-json/default", ids, "blocked", "2026-11-25T08:00:00.000Z"), undefined);
 * ```
 */
export function pairingOf(
  variant: string,
  ids: readonly string[],
  order: RunOrder,
  startedAt: string,
): Pairing | undefined {
  if (order === "blocked" || ids.length < 2) return undefined;
  return { id: `${variant} ${startedAt}`, records: [...ids] };
}

/** Another record of the same pairing, as far as it has run. */
export interface PairedRuns {
  /** How the warning names it (`node`). */
  readonly label: string;
  /** Its runs so far. */
  readonly runs: readonly RunRecord[];
}

/**
 * `record` with its `ci-wide` judged on the paired intervals of its headline's ratios to `others` (see
 * `pairedCiWarning`) instead of its own interval; unchanged when it is not paired, did not complete, or no pair has
 * an interval (then its own interval still says how sure it is).
 *
 * @param record A finished record of a pairing.
 * @param others The other records of its pairing, with their runs so far.
 * @returns The record with its `ci-wide` warning replaced (or dropped).
 *
 * @example Two runtimes that move together: their own intervals are wide, their ratio's is not
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { withPairedCi } from "./pairing.ts";
 * import type { BenchRecord } from "../schema/mod.ts";
 *
 * const runs = (values: number[]) => values.map((v, round) => ({ round, figures: { requestsPerSecond: v } }));
 * const deno = {
 *   status: "completed", headline: { figure: "requestsPerSecond", higherIsBetter: true },
 *   settings: { runs: 3 }, pairing: { id: "x", records: [] }, runs: runs([150_000, 180_000, 120_000]),
 *   warnings: [{ code: "ci-wide", message: "±25%" }],
 * } as unknown as BenchRecord;
 * const judged = withPairedCi(deno, [{ label: "node", runs: runs([79_000, 94_500, 63_000]) as never }]);
 * assertEquals(judged.warnings, []);
 * ```
 */
export function withPairedCi(record: BenchRecord, others: readonly PairedRuns[]): BenchRecord {
  if (!record.pairing || record.status !== "completed") return record;
  const { figure } = record.headline;
  const pairs = others.flatMap((o) => {
    const interval = ratioOf(record.runs, o.runs, figure, true);
    return interval && interval.halfWidthPercent !== null ? [{ against: o.label, interval }] : [];
  });
  if (pairs.length === 0) return record;
  const warning = pairedCiWarning(runPlan(record.settings), pairs, figure);
  const warnings = [...record.warnings.filter((w) => w.code !== "ci-wide"), ...(warning ? [warning] : [])];
  return { ...record, warnings };
}

/**
 * After a round of records measured together, decides for each adaptive one whether another round is due, on the
 * paired intervals of their ratios rather than each runtime's own: while the widest paired interval between any two of
 * them is wider than `--ci-target`, every one of them runs again (up to `--max-runs`), so that their rounds stay
 * paired. Records with a fixed number of runs, or with fewer than two rounds of partners, are left to their own rule.
 *
 * @param records The records of one variant, interleaved.
 *
 * @example
 * ```ts ignore
 * import { interleave } from "./schedule.ts";
 * import { judgeRounds } from "./pairing.ts";
 * await interleave(records, schedule, finish, judgeRounds);
 * ```
 */
export function judgeRounds(records: readonly RecordRun[]): void {
  const live = records.filter((r) => !r.ended && r.runs > 0 && r.plan.adaptive);
  let widest: number | undefined;
  for (const [i, a] of live.entries()) {
    for (const b of live.slice(i + 1)) {
      const half = ratioOf(a.outcome.runs, b.outcome.runs, a.outcome.headline.figure, true)?.halfWidthPercent;
      if (half !== null && half !== undefined) widest = Math.max(widest ?? 0, half);
    }
  }
  for (const r of live) r.pairedNeed = widest === undefined ? undefined : widest > r.plan.ciTargetPercent;
}
