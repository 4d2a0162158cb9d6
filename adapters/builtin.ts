/**
 * The runtimes rtbench knows, in their default order.
 *
 * @module
 */

import { bun } from "./bun.ts";
import { deno } from "./deno.ts";
import { go } from "./go.ts";
import { node } from "./node.ts";
import { rust } from "./rust.ts";
import type { RuntimeAdapter } from "./types.ts";

/**
 * The runtimes rtbench knows, in their default order.
 *
 * @example List runtime names
 * ```ts
 * import { builtinAdapters } from "./mod.ts";
 * console.log(builtinAdapters.map((a) => a.name)); // ["deno", "node", "bun", "go", "rust"]
 * ```
 */
export const builtinAdapters: readonly RuntimeAdapter[] = [deno, node, bun, go, rust];
