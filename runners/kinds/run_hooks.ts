/**
 * The workload session's hooks around each run of a server, shared by the
 * kind runners that start servers: each within its time limit, and a failed
 * side-effect check making the record `invalid`.
 *
 * @module
 */

import type { Workload } from "../../workloads/types.ts";
import type { RecordContext, RecordOutcome } from "./record.ts";
import { describeFailures, InvalidError } from "./errors.ts";
import { hookTimeouts, withinTime } from "./timeouts.ts";

/** Calls the session's `beforeRun`, if any, in the `start` phase. */
export async function beforeServerRun(ctx: RecordContext<Workload>, run: number): Promise<void> {
  if (!ctx.session.beforeRun) return;
  await withinTime(
    "start",
    "beforeRun",
    hookTimeouts(ctx.hookTimeoutsSec).beforeRun,
    () => ctx.session.beforeRun!({ runtime: ctx.runtime.name, run }),
  );
}

/**
 * Calls the session's `afterRun`, if any, in the `cleanup` phase with the
 * server stopped; its checks join the record, and a failed one throws
 * {@linkcode InvalidError}.
 */
export async function afterServerRun(
  ctx: RecordContext<Workload>,
  outcome: RecordOutcome,
  run: number,
  responses: { readonly validResponses: number; readonly totalResponses: number },
): Promise<void> {
  if (!ctx.session.afterRun) return;
  ctx.onPhase?.("cleanup", run);
  const checks = await withinTime(
    "cleanup",
    "afterRun",
    hookTimeouts(ctx.hookTimeoutsSec).afterRun,
    () => ctx.session.afterRun!({ runtime: ctx.runtime.name, run, ...responses }),
  );
  outcome.checks.push(...checks);
  if (checks.some((c) => !c.passed)) throw new InvalidError("cleanup", describeFailures(checks));
}
