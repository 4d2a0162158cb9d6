/**
 * Number formatting shared by the exporters: units in every cell. It lives in the stats layer, where the kinds' report
 * views (`runners/kinds/`) reach it too.
 *
 * @module
 */

import type { Warning } from "../schema/mod.ts";

export {
  alignTable,
  approximateLatencyNote,
  formatBytesPerSecond,
  formatCount,
  formatFigure,
  formatLatency,
  formatUs,
} from "../stats/mod.ts";

/**
 * One warning per code, in first-seen order, its messages joined: a cell shows each kind of warning once however many
 * runs raised it (each run's own message stays in the section's notes).
 *
 * @example
 * ```ts
 * import { oneByCode } from "./format.ts";
 * const w = (message: string) => ({ code: "window-extended", message });
 * console.log(oneByCode([w("run 1"), w("run 2")]).map((x) => x.message)); // ["run 1; run 2"]
 * ```
 */
export function oneByCode(warnings: readonly Warning[]): Warning[] {
  const byCode = new Map<string, Warning>();
  for (const w of warnings) {
    const seen = byCode.get(w.code);
    byCode.set(w.code, seen ? { ...seen, message: `${seen.message}; ${w.message}` } : w);
  }
  return [...byCode.values()];
}
