/**
 * The one template of the served kinds (HTTP, WebSocket): a server staged once per record, a fresh one started for
 * each run, load against it, and the record judged over the runs' resource samples. Each kind supplies only what
 * differs: its headline, the rest of its opening (traffic, load generator), one run, and the names its judging uses.
 *
 * @module
 */

import { isSkip, type ServerSource, type Skip, type WorkloadBase } from "../../workloads/mod.ts";
import type { MeasuredPhase, ResourceReport } from "../drivers/mod.ts";
import type { Headline, RunSettings, Warning } from "../schema/mod.ts";
import { judgeSaturation, type Saturation, saturation } from "../stats/mod.ts";
import { combineSummaries } from "../samples/mod.ts";
import { engineOnDeno } from "./engine_fallback.ts";
import { inPhase, SkipRecord } from "./errors.ts";
import { servedEstimateSec } from "./estimate.ts";
import type { Kind, RunOutput } from "./kind.ts";
import { rateNotHeld } from "./open_figures.ts";
import type { RecordOutcome, ServedRecordContext, VariantContext, VariantVerdict } from "./record.ts";
import { type StagedServer, stageServerFor } from "./server.ts";

/** A workload whose records start a server: it names the server each runtime and variant runs. */
export type ServedWorkload = WorkloadBase & { server(runtime: string, variant: string): ServerSource | Skip };

/** What every served kind's state holds: its record's context and outcome, and the resources each run sampled. */
export interface ServedState<C> {
  readonly ctx: C;
  readonly outcome: RecordOutcome;
  /** Resources sampled in each finished run. */
  readonly sampled: ResourceReport[];
}

/** What a served kind supplies to {@linkcode servedKind}: only what differs between kinds. */
export interface ServedSpec<W extends ServedWorkload, S extends ServedState<C>, C extends ServedRecordContext<W>> {
  /** The `kind` field of its workloads. */
  readonly name: W["kind"];
  /** The figure its records are ranked by with `settings`. */
  headline(settings: RunSettings): Headline;
  /** The rest of the record's opening, once the server is staged and the outcome's common fields are set. */
  open(ctx: C, outcome: RecordOutcome, staged: StagedServer): Promise<S>;
  /** One run on a fresh server. */
  run(state: S, run: number): Promise<RunOutput>;
  /** The load's name in the client-bound warnings. */
  client(state: S): string;
  /** What to do when the client is the limit; the default names a faster load generator. */
  readonly remedy?: string;
  /** How close the client was to its limit in each run, when not read off the samples (an HTTP sweep's knees). */
  saturations?(state: S): (Saturation | null)[] | undefined;
  /** The client's CPU-per-unit figure and its unit, for the warning when the engine ran on Deno. */
  readonly clientCost: readonly [figure: string, unit: string];
  /** Checks that need every runtime of a variant before any record opens. */
  checkVariant?(ctx: VariantContext<W>): Promise<Map<string, VariantVerdict>>;
}

/**
 * A served kind from what it supplies: `open` stages the server (a skip when the runtime cannot serve the variant)
 * and fills the facts, headline and CPU sets before the kind's own opening; `judge` combines the runs' samples and
 * judges the client's saturation and the engine's fallback, the same for every served kind.
 *
 * @example A kind that supplies its differences
 * ```ts ignore
 * import { servedKind } from "./served.ts";
 * export const echoKind = servedKind({ name: "websocket", headline, open, run, client: () => "driver", clientCost });
 * ```
 */
export function servedKind<W extends ServedWorkload, S extends ServedState<C>, C extends ServedRecordContext<W>>(
  spec: ServedSpec<W, S, C>,
): Kind<W, S, C> {
  return {
    name: spec.name,
    requires: ["server", "traffic"],
    headline: (_workload, settings) => spec.headline(settings),
    estimateSec: servedEstimateSec,
    open: async (ctx, outcome) => {
      const source = ctx.workload.server(ctx.runtime.name, ctx.variant);
      if (isSkip(source)) throw new SkipRecord(source.skip);
      Object.assign(outcome.facts, source.facts);
      const staged = await inPhase(
        "setup",
        () => stageServerFor(ctx.runtime, source, ctx.workDir, ctx.nodeModules, ctx.signal),
      );
      Object.assign(outcome.facts, staged.facts);
      outcome.headline = spec.headline(ctx.settings);
      outcome.cpus = ctx.cpus;
      return await spec.open(ctx, outcome, staged);
    },
    run: (state, run) => spec.run(state, run),
    judge(state, outcome) {
      outcome.resources = combineSummaries(state.sampled.map((r) => r.summary));
      outcome.warnings = judgeSaturation(
        outcome.warnings,
        spec.saturations?.(state) ?? state.sampled.map((r) => saturation(r.summary, state.ctx.cpus)),
        spec.client(state),
        state.ctx.cpus,
        ...(spec.remedy ? [spec.remedy] : []),
      );
      const fallback = engineOnDeno(outcome, ...spec.clientCost);
      if (fallback) outcome.warnings.push(fallback);
    },
    ...(spec.checkVariant ? { checkVariant: spec.checkVariant } : {}),
  };
}

/**
 * What every served run that stood leaves on its record: how the load treated coordinated omission, and (open model)
 * a warning once when the arrival rate was not held.
 */
export function servedRunStood(
  outcome: RecordOutcome,
  m: {
    readonly coordinatedOmission?: "uncorrected" | "corrected" | "avoided";
    readonly phases?: readonly MeasuredPhase[];
  },
  connections: number,
): void {
  outcome.loadGenerator = { ...outcome.loadGenerator!, coordinatedOmission: m.coordinatedOmission ?? "uncorrected" };
  const late: Warning | null = m.phases ? rateNotHeld(m.phases, connections) : null;
  if (late && !outcome.warnings.some((w) => w.code === "rate-not-held")) outcome.warnings.push(late);
}
