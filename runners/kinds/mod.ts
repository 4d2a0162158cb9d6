/**
 * Which runner drives which workload kind: the one place a new kind is wired in.
 *
 * @module
 */

import type { HttpWorkload, MicroWorkload, ProcessWorkload, WebSocketWorkload } from "../../workloads/types.ts";
import { runHttpRecord } from "./http.ts";
import { runMicroRecord } from "./micro.ts";
import { runProcessRecord } from "./process.ts";
import { checkHttpParity } from "./http_parity.ts";
import type { RecordContext, RecordOutcome, VariantContext, VariantVerdict } from "./record.ts";
import { runWebSocketRecord } from "./websocket.ts";

/** Measures one record with the runner for its workload's kind. */
export function runRecord(ctx: RecordContext, outcome: RecordOutcome): Promise<void> {
  const kind = ctx.workload.kind;
  switch (kind) {
    case "http":
      return runHttpRecord(ctx as RecordContext<HttpWorkload>, outcome);
    case "process":
      return runProcessRecord(ctx as RecordContext<ProcessWorkload>, outcome);
    case "micro":
      return runMicroRecord(ctx as RecordContext<MicroWorkload>, outcome);
    case "websocket":
      return runWebSocketRecord(ctx as RecordContext<WebSocketWorkload>, outcome);
    default:
      throw new TypeError(`No runner for workload kind "${kind}"`);
  }
}

/**
 * Checks that need every runtime of a variant before any is measured (HTTP:
 * parity across runtimes); a verdict per runtime, none for kinds without such a check.
 */
export function checkVariant(ctx: VariantContext): Promise<Map<string, VariantVerdict>> {
  switch (ctx.workload.kind) {
    case "http":
      return checkHttpParity(ctx as VariantContext<HttpWorkload>);
    default:
      return Promise.resolve(new Map());
  }
}
