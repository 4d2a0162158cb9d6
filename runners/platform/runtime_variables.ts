/**
 * What an environment variable known to change a runtime is ({@linkcode RuntimeVariable}), and which entry of a
 * list of them a variable of the user's environment falls under ({@linkcode knownVariable}). The lists themselves
 * are runtime knowledge and live with the runtimes' adapters (each adapter's `variables`, and the C library's in
 * `adapters/`); the suite hands their union down to `child_env.ts`, which says what became of each one set.
 *
 * @module
 */

/**
 * A variable (or a family, `BUN_JSC_*`) known to change a runtime: what it changes, and an example setting.
 *
 * @example libuv's thread pool
 * ```ts
 * import type { RuntimeVariable } from "./runtime_variables.ts";
 * const entry: RuntimeVariable = { name: "UV_THREADPOOL_SIZE", changes: "node", effect: "libuv's thread pool", example: "8" };
 * ```
 */
export interface RuntimeVariable {
  /** The name, or a prefix ending in `*`. */
  readonly name: string;
  /** The runtimes or programs it changes. */
  readonly changes: string;
  /** How, in a few words. */
  readonly effect: string;
  /** A value that takes effect (for a family, `NAME=value` of one member). */
  readonly example: string;
}

/**
 * The entry of `known` a variable falls under: its exact name, else the longest family. With each name once in
 * `known`, the order of `known` does not matter.
 *
 * @param name A variable's name.
 * @param known The variables known to change a runtime (the adapters' lists).
 * @returns The entry, or undefined for a variable not known to change a runtime.
 *
 * @example A family and a stranger
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { knownVariable, type RuntimeVariable } from "./runtime_variables.ts";
 * const known: RuntimeVariable[] = [
 *   { name: "MALLOC_*", changes: "every runtime (glibc)", effect: "malloc's arenas", example: "MALLOC_ARENA_MAX=1" },
 *   { name: "MALLOC_ARENA_MAX", changes: "every runtime (glibc)", effect: "malloc's arenas", example: "1" },
 * ];
 * assertEquals(knownVariable("MALLOC_ARENA_MAX", known)?.name, "MALLOC_ARENA_MAX");
 * assertEquals(knownVariable("MALLOC_TOP_PAD_", known)?.name, "MALLOC_*");
 * assertEquals(knownVariable("EDITOR", known), undefined);
 * ```
 */
export function knownVariable(name: string, known: readonly RuntimeVariable[]): RuntimeVariable | undefined {
  const exact = known.find((v) => v.name === name);
  if (exact) return exact;
  return known.filter((v) => v.name.endsWith("*") && name.startsWith(v.name.slice(0, -1)))
    .sort((a, b) => b.name.length - a.name.length)[0];
}
