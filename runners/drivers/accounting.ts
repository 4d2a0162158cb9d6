/**
 * How a load accounts for every request, one policy for HTTP and WebSocket
 * in both models: the bound past which a connection counts as hung, and the
 * accounting of a run as the harness records it (see `runners/kinds/accounting.ts`
 * for the limits that decide a record's status).
 *
 * @module
 */

import type { AccountingCounts } from "../engine/mod.ts";
import type { RunAccounting } from "../schema/mod.ts";

export type { AccountingCounts };

/**
 * The least time a request in flight at the window's end is given before its connection counts as hung.
 *
 * @example A short window still gives its last requests a second
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { HUNG_FLOOR_MS, hungAfterMs } from "./accounting.ts";
 *
 * assertEquals(hungAfterMs(2000, 10_000), HUNG_FLOOR_MS);
 * ```
 */
export const HUNG_FLOOR_MS = 1000;

/**
 * How long a request may stay outstanding at the end of a closed-model window before its connection counts as hung:
 * the larger of {@linkcode HUNG_FLOOR_MS} and a quarter of the window, and never more than the request timeout.
 *
 * @param windowMs Length of the measured window.
 * @param timeoutMs The request timeout (`--timeout`).
 * @returns The bound, milliseconds.
 *
 * @example A 10 s window gives requests 2.5 s; a 2 s window, 1 s
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { hungAfterMs } from "./accounting.ts";
 *
 * assertEquals([hungAfterMs(10_000, 10_000), hungAfterMs(2000, 10_000), hungAfterMs(2000, 500)], [2500, 1000, 500]);
 * ```
 */
export function hungAfterMs(windowMs: number, timeoutMs: number): number {
  return Math.min(timeoutMs, Math.max(HUNG_FLOOR_MS, Number.isFinite(windowMs) ? windowMs / 4 : 0));
}

// The engine's program applies it in its own processes, whose files may import nothing outside the engine's list.
export { HUNG_LATENCY_FACTOR, observedHungAfterMs } from "../engine/mod.ts";

/**
 * How every request of a run's window ended beyond its answers, with the bounds it was judged by.
 *
 * @example Whether a run left anything unaccounted
 * ```ts
 * import type { LoadAccounting } from "./accounting.ts";
 *
 * const clean = (a: LoadAccounting) => a.unanswered + a.unasked + a.hungConnections + a.droppedConnections === 0;
 * ```
 */
export type LoadAccounting = RunAccounting;

/**
 * The accounting of several engine processes, summed, with the run's bounds.
 *
 * @param parts Each process's counts.
 * @param answered Answers in the window, valid or not, over every process.
 * @param hungMs The planned hung bound (a process that raised it from its answers' latency reports the bound it used).
 * @param timeoutMs The request timeout.
 * @returns The run's accounting.
 *
 * @example
 * ```ts ignore
 * const accounting = mergeAccounting(parts.map((p) => p.accounting), m.responses, 1000, 10_000);
 * ```
 */
export function mergeAccounting(
  parts: readonly AccountingCounts[],
  answered: number,
  hungMs: number,
  timeoutMs: number,
): LoadAccounting {
  const sum = (key: Exclude<keyof AccountingCounts, "hungAfterMs">) => parts.reduce((a, p) => a + (p[key] ?? 0), 0);
  const unanswered = sum("unanswered");
  const hungNeverAnswered = sum("hungNeverAnswered");
  const announced = sum("announcedCloses");
  const requests = answered + unanswered;
  return {
    unanswered,
    notSent: sum("notSent"),
    unasked: sum("unasked"),
    hungConnections: sum("hungConnections"),
    ...(hungNeverAnswered > 0 ? { hungNeverAnswered } : {}),
    connections: sum("connections"),
    neverAnsweredConnections: sum("neverAnsweredConnections"),
    droppedConnections: sum("droppedConnections"),
    idleCloses: sum("idleCloses"),
    ...(announced > 0 ? { announcedCloses: announced } : {}),
    reconnects: sum("reconnects"),
    reconnectMs: sum("reconnectMs"),
    outstandingAtEnd: sum("outstandingAtEnd"),
    requests,
    unansweredPercent: requests > 0 ? Math.round(unanswered / requests * 100_000) / 1000 : 0,
    hungAfterMs: Math.max(hungMs, ...parts.map((p) => p.hungAfterMs ?? 0)),
    timeoutMs,
  };
}
