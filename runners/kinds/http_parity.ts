/**
 * The HTTP parity pass: before any runtime of a variant is measured, each
 * runtime's server is started once (pinned like a measured one), answers the
 * every distinct request of the traffic, and is stopped; then {@linkcode judgeParity}
 * compares the answers. A runtime whose server cannot be started here is left
 * out; its own record reports why when it is measured.
 *
 * @module
 */

import { checkExchange, distinctRequests, type HttpExchange, type HttpWorkload, isSkip } from "../../workloads/mod.ts";
import { exchange } from "../drivers/mod.ts";
import { judgeParity, type ParityObservation } from "./parity.ts";
import type { VariantContext, VariantVerdict } from "./record.ts";
import { serverOptions, stageServerFor, startServer } from "./server.ts";

/**
 * Runs the parity pass for one HTTP workload × variant; a verdict per runtime
 * that answered (none when fewer than two did).
 */
export async function checkHttpParity(ctx: VariantContext<HttpWorkload>): Promise<Map<string, VariantVerdict>> {
  if (ctx.runtimes.size < 2) return new Map();
  const traffic = ctx.workload.traffic(ctx);
  // Every distinct request, as the first run's verification sends: a runtime may differ on any of them.
  const requests = distinctRequests(traffic.requests).slice(0, traffic.verified);
  if (requests.length === 0) return new Map();
  const timeoutMs = ctx.settings.requestTimeoutSec * 1000;
  const observations: ParityObservation[] = [];
  const ownChecksPassed = new Set<string>();
  let n = 0;
  for (const [requested, runtime] of ctx.runtimes) {
    ctx.signal.throwIfAborted();
    const source = ctx.workload.server(runtime.name, ctx.variant);
    if (isSkip(source)) continue;
    try {
      const dir = `${ctx.workDir}/${n++}`;
      const staged = await stageServerFor(runtime, source, dir, ctx.nodeModules, ctx.signal);
      await Deno.mkdir(dir, { recursive: true });
      const server = await startServer(serverOptions(ctx, runtime, staged.file, staged.args, dir));
      const exchanges: HttpExchange[] = [];
      try {
        for (const request of requests) exchanges.push(await exchange(server.baseUrl, request, timeoutMs, ctx.signal));
      } finally {
        await server.stop();
      }
      observations.push({ runtime: requested, exchanges });
      if (exchanges.flatMap(checkExchange).every((c) => c.passed)) ownChecksPassed.add(requested);
    } catch {
      // Not comparable; the record's own start or verification says why.
      ctx.signal.throwIfAborted();
    }
  }
  return judgeParity(observations, (runtime) => ownChecksPassed.has(runtime));
}
