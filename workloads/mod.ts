/**
 * The workloads that ship with rtbench, and lookup by name.
 *
 * @module
 */

import { UsageError } from "../runners/errors.ts";
import { httpJson } from "./http_json.ts";
import type { Workload } from "./types.ts";
import { wsEcho } from "./ws_echo.ts";

export * from "./types.ts";
export { HELLO_BODY, httpJson } from "./http_json.ts";
export { wsEcho } from "./ws_echo.ts";

/**
 * Every built-in workload, in suite order.
 *
 * @example List workload names
 * ```ts
 * import { builtinWorkloads } from "./mod.ts";
 * console.log(builtinWorkloads.map((w) => w.name).includes("http-json")); // true
 * ```
 */
export const builtinWorkloads: readonly Workload[] = [httpJson, wsEcho];

/**
 * Picks workloads by name from a comma-separated list; throws
 * {@linkcode UsageError} naming `--workload` and the allowed names.
 *
 * @example
 * ```ts
 * import { selectWorkloads } from "./mod.ts";
 * console.log(selectWorkloads("http-json")[0].kind); // "http"
 * ```
 */
export function selectWorkloads(list: string, from: readonly Workload[] = builtinWorkloads): Workload[] {
  const names = list.split(",").map((s) => s.trim()).filter(Boolean);
  if (names.length === 0) {
    throw new UsageError(`--workload: no workload given (allowed: ${from.map((w) => w.name).join(", ")})`);
  }
  const picked: Workload[] = [];
  for (const name of names) {
    const workload = from.find((w) => w.name === name);
    if (!workload) {
      throw new UsageError(`--workload: unknown workload "${name}" (allowed: ${from.map((w) => w.name).join(", ")})`);
    }
    if (!picked.includes(workload)) picked.push(workload);
  }
  return picked;
}
