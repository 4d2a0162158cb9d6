/**
 * The one line every report of a partial result starts with: a suite
 * interrupted (by a signal or an error), or one that never wrote its end
 * (killed outright), holds only part of what it planned.
 *
 * @module
 */

import type { BenchResult } from "../schema/mod.ts";

/**
 * Says that `result` is partial — when and why it stopped, how many records
 * it did not finish, and how to go on — or null when it is complete.
 *
 * @param result A result.
 * @param file The file it was read from, named in the command that goes on.
 * @returns One line, or null.
 *
 * @example A complete result has no notice
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { readResultFile } from "@rtbench/rtbench/runners";
 * import { partialNotice } from "./partial.ts";
 *
 * assertEquals(partialNotice(await readResultFile("fixtures/results/base.json")), null);
 * ```
 */
export function partialNotice(result: BenchResult, file = "<this file>"): string | null {
  const goOn = `deno task bench --resume ${file} goes on`;
  const stop = result.interrupted;
  if (stop) {
    const partly = result.records.filter((r) => r.status === "interrupted").length;
    const when = stop.at.slice(0, 19).replace("T", " ");
    const kept = partly > 0 ? ` (${partly} with some of their runs)` : "";
    return `Partial result: ${stop.reason} at ${when} UTC; ${stop.remaining.length} planned records not finished` +
      `${kept}; ${goOn}`;
  }
  if (result.finishedAt === null) {
    return `Partial result: the suite never finished (stopped without a chance to say why); ${goOn}`;
  }
  return null;
}
