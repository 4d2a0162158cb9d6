/**
 * Where the load engine could not have its own Bun and ran on Deno, the record
 * says so, with the ceiling it measured for itself: what one client CPU can
 * drive at the client CPU time each response (or echo) cost in this record.
 *
 * @module
 */

import type { Warning } from "../schema/mod.ts";
import type { RecordOutcome } from "./record.ts";
import { median } from "../stats/mod.ts";
import { ENGINE_BUN_VERSION } from "../drivers/mod.ts";

/**
 * An `engine-on-deno` warning when the engine ran on Deno, with its measured
 * ceiling per client CPU; null otherwise.
 *
 * @param outcome The record so far: its load generator and runs.
 * @param costFigure The run figure of client CPU µs per unit (`clientCpuUsPerResponse`, `clientCpuUsPerMessage`).
 * @param unit What the ceiling counts (`responses`, `messages`).
 * @returns The warning, or null.
 *
 * @example
 * ```ts ignore
 * import { engineOnDeno } from "./engine_fallback.ts";
 * const warning = engineOnDeno(outcome, "clientCpuUsPerResponse", "responses");
 * ```
 */
export function engineOnDeno(outcome: RecordOutcome, costFigure: string, unit: string): Warning | null {
  const client = outcome.loadGenerator?.client;
  // The engine's client says why its Bun could not be had (HTTP: "deno …", WebSocket: "rtbench engine, … on deno …").
  if (!client?.includes(`(Bun ${ENGINE_BUN_VERSION} could not be had`)) return null;
  const costs = outcome.runs.map((r) => r.figures[costFigure]).filter((c) => c > 0);
  const ceiling = costs.length > 0
    ? `: ${median(costs).toFixed(2)} µs of client CPU per ${unit.replace(/s$/, "")}, a ceiling of ` +
      `${Math.round(1e6 / median(costs)).toLocaleString("en-US")} ${unit}/s per client CPU`
    : "";
  return {
    code: "engine-on-deno",
    message: `the load engine ran on ${client}${ceiling}`,
  };
}
