// Written by `deno run -A runners/dev/kinds.ts` from the kind registry (runners/kinds/registry.ts): edit the registry, not this
// file. The layers below the kinds read the kinds from here; tests/e2e/kinds_test.ts fails while it is stale.

/**
 * Every workload kind: the kind registry's names, each kind after those registered before it.
 *
 * @example The built-in kinds
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { WORKLOAD_KINDS } from "@rtbench/rtbench/schema";
 *
 * assertEquals(WORKLOAD_KINDS.slice(0, 4), ["http", "websocket", "process", "micro"]);
 * ```
 */
export const WORKLOAD_KINDS = ["http", "websocket", "process", "micro"] as const;

/**
 * What a workload of each kind must have beyond the common fields, as its kind's module says: functions by name
 * (`headline` is the one object, a figure's name and its direction).
 *
 * @example What an HTTP workload must have
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { KIND_REQUIREMENTS } from "@rtbench/rtbench/schema";
 *
 * assertEquals(KIND_REQUIREMENTS.http, ["server", "traffic"]);
 * ```
 */
export const KIND_REQUIREMENTS: Readonly<Record<(typeof WORKLOAD_KINDS)[number], readonly string[]>> = {
  http: ["server", "traffic"],
  websocket: ["server", "traffic"],
  process: ["prepare", "headline"],
  micro: ["script", "verify"],
};
