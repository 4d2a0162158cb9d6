/**
 * The order of runs across the runtimes of one variant. Run i of every
 * runtime is measured in round i, before run i+1 of any, so drift on a
 * shared machine lands inside every runtime's interval rather than between
 * runtimes. Within a round the order rotates by one each round (`rotate`,
 * the default) or is drawn from a seeded generator (`shuffle`); `blocked`
 * measures every run of one runtime before the next, as suites used to.
 *
 * @module
 */

import type { RecordRun } from "../kinds/mod.ts";
import type { RunOrder } from "../schema/mod.ts";
import { RequestError } from "../platform/mod.ts";
import { seededRandom, shuffled } from "../stats/mod.ts";

/** How the suite orders runs; recorded in the result's settings. */
export interface Schedule {
  /** The order within each round. */
  readonly order: RunOrder;
  /** The seed of `shuffle`; null for the other orders. */
  readonly seed: number | null;
}

/**
 * The order of `items` in round `round`: rotated left by `round` places, or a
 * Fisher–Yates shuffle seeded by `seed` and `round`, or unchanged (`blocked`).
 *
 * @param items The records of one variant, in suite order.
 * @param round The round, from 0.
 * @param schedule The order and its seed.
 * @returns A new array, the round's order.
 *
 * @example Three runtimes over three rounds
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { roundOrder } from "./schedule.ts";
 *
 * const rounds = [0, 1, 2].map((r) => roundOrder(["deno", "node", "bun"], r, { order: "rotate", seed: null }));
 * assertEquals(rounds, [["deno", "node", "bun"], ["node", "bun", "deno"], ["bun", "deno", "node"]]);
 * ```
 */
export function roundOrder<T>(items: readonly T[], round: number, schedule: Schedule): T[] {
  if (schedule.order === "blocked" || items.length === 0) return [...items];
  if (schedule.order === "rotate") {
    const k = round % items.length;
    return [...items.slice(k), ...items.slice(0, k)];
  }
  return shuffled(items, seededRandom((schedule.seed ?? 0) * 1_000_003 + round));
}

/**
 * Steps `records` (already opened) until none wants another run, in rounds
 * ordered by `schedule` (a record holding runs already, resumed, joins at
 * the round of its next run); `finished` is called for each record as soon as it
 * wants no more runs (and before the next round), in the order they finish.
 *
 * @param records The records of one variant.
 * @param schedule The order within rounds.
 * @param finished Called once per record when it is done.
 * @param afterRound Called (and awaited) after each round, before the records that want no more runs are finished
 *   (the suite judges adaptive runs on paired intervals there, and runs the duet rounds due).
 *
 * @example
 * ```ts ignore
 * import { interleave } from "./schedule.ts";
 * await interleave(records, { order: "rotate", seed: null }, (record) => record.close());
 * ```
 */
export async function interleave(
  records: readonly RecordRun[],
  schedule: Schedule,
  finished: (record: RecordRun) => Promise<void>,
  afterRound?: (records: readonly RecordRun[]) => void | Promise<void>,
): Promise<void> {
  const done = new Set<RecordRun>();
  const settle = async () => {
    for (const record of records) {
      if (!done.has(record) && !record.wantsRun) {
        done.add(record);
        await finished(record);
      }
    }
  };
  await settle();
  if (schedule.order === "blocked") {
    for (const [slot, record] of records.entries()) {
      while (record.wantsRun) await record.step({ round: record.runs, slot });
      await settle();
    }
    return;
  }
  // A resumed record may hold runs already: round i is its run i, so it waits for the others to catch up.
  const wanting = records.filter((r) => r.wantsRun);
  for (let round = Math.min(...wanting.map((r) => r.runs)); done.size < records.length; round++) {
    let slot = 0;
    for (const record of roundOrder(records, round, schedule)) {
      if (record.wantsRun && record.runs <= round) await record.step({ round, slot: slot++ });
    }
    await afterRound?.(records);
    await settle();
  }
}

/**
 * The schedule asked for: `order` (default `rotate`), `seed` for `shuffle`
 * (drawn at random and recorded when absent; a seed alone means `shuffle`).
 * Throws a {@linkcode RequestError} naming the field on bad input.
 *
 * @param order `rotate`, `shuffle` or `blocked`.
 * @param seed A whole number from 0 to 2³²−1.
 * @returns The schedule, with its seed when shuffled.
 *
 * @example A seed alone shuffles
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { scheduleOf } from "./schedule.ts";
 *
 * assertEquals(scheduleOf(undefined, 7), { order: "shuffle", seed: 7 });
 * assertEquals(scheduleOf(), { order: "rotate", seed: null });
 * ```
 */
export function scheduleOf(order?: string, seed?: number): Schedule {
  if (order !== undefined && !RUN_ORDERS.includes(order as RunOrder)) {
    throw new RequestError("order", `must be one of ${RUN_ORDERS.join(", ")}, got "${order}"`);
  }
  if (seed !== undefined && (!Number.isInteger(seed) || seed < 0 || seed > 0xffffffff)) {
    throw new RequestError("seed", `must be a whole number from 0 to ${0xffffffff}, got ${seed}`);
  }
  const chosen = (order ?? (seed === undefined ? "rotate" : "shuffle")) as RunOrder;
  if (chosen !== "shuffle") {
    if (seed !== undefined) throw new RequestError("seed", `orders runs only with {order} shuffle, not ${chosen}`);
    return { order: chosen, seed: null };
  }
  return { order: chosen, seed: seed ?? Math.floor(Math.random() * 0x100000000) };
}

/** Every `--order`, the default first. */
export const RUN_ORDERS: readonly RunOrder[] = ["rotate", "shuffle", "blocked"];
