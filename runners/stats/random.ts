/**
 * A small seeded generator (mulberry32): the same seed gives the same numbers
 * on every machine and runtime, so "random" traffic and shuffled run orders
 * can be repeated from the seed a result records.
 *
 * @module
 */

/**
 * Returns a function yielding numbers in [0, 1) from `seed`.
 *
 * @param seed Any number; its low 32 bits are used.
 * @returns The generator.
 *
 * @example The same seed, the same numbers
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { seededRandom } from "./random.ts";
 *
 * const a = seededRandom(7);
 * const b = seededRandom(7);
 * assertEquals([a(), a()], [b(), b()]);
 * ```
 */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * A copy of `xs` in a random order drawn from `random` (Fisher–Yates), so a seeded generator repeats it.
 *
 * @param xs The items.
 * @param random Numbers in [0, 1), for example from {@linkcode seededRandom}.
 * @returns A new array.
 *
 * @example The same seed, the same order
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { seededRandom, shuffled } from "./random.ts";
 *
 * assertEquals(shuffled([1, 2, 3, 4], seededRandom(7)), shuffled([1, 2, 3, 4], seededRandom(7)));
 * ```
 */
export function shuffled<T>(xs: readonly T[], random: () => number): T[] {
  const out = [...xs];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}
