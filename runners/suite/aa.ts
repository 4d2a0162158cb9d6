/**
 * A/A runs (`--aa`): the one runtime asked for becomes two arms, `A` and `B`, measured exactly as two runtimes would
 * be — each with its records, its fresh servers, interleaved round by round — so that their per-round ratios show
 * the machine's noise and the report can publish the smallest difference this run count detects here.
 *
 * @module
 */

import type { RuntimeSpec } from "../../adapters/mod.ts";
import { RequestError } from "../platform/mod.ts";

/** A runtime spec of one arm of an A/A run. */
export type ArmSpec = RuntimeSpec & { readonly arm: "A" | "B" };

/**
 * The two arms of an A/A run of the one runtime in `specs`: `deno#A` and `deno#B` as requested (record ids differ),
 * the same runtime and version. Throws a {@linkcode RequestError} naming the field `aa` unless exactly one runtime is given.
 *
 * @param specs The runtimes asked for.
 * @returns Arm A, then arm B.
 *
 * @example
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { armSpecs } from "./aa.ts";
 *
 * assertEquals(armSpecs([{ name: "deno", requested: "deno" }]).map((s) => s.requested), ["deno#A", "deno#B"]);
 * ```
 */
export function armSpecs(specs: readonly RuntimeSpec[]): ArmSpec[] {
  if (specs.length !== 1) {
    throw new RequestError(
      "aa",
      `measures one runtime as two arms: give exactly one {runtimes}, got ${specs.length} (${
        specs.map((s) => s.requested).join(", ")
      })`,
    );
  }
  const [spec] = specs;
  return (["A", "B"] as const).map((arm) => ({ ...spec, requested: `${spec.requested}#${arm}`, arm }));
}

/** The arm of a spec made by {@linkcode armSpecs}, or undefined for any other. */
export function armOf(spec: RuntimeSpec): "A" | "B" | undefined {
  return (spec as Partial<ArmSpec>).arm;
}
