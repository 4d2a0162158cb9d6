/**
 * The per-user cache directory rtbench keeps provisioned runtimes, server
 * dependencies and the ledgers of its children reapers in.
 *
 * @module
 */

/**
 * The cache directory: `$RTBENCH_CACHE_DIR`, else `$XDG_CACHE_HOME/rtbench`,
 * else `~/.cache/rtbench`.
 *
 * @returns The directory provisioned runtimes, server dependencies and reapers' ledgers are kept in.
 *
 * @example Where provisioned runtimes go
 * ```ts
 * import { assert } from "@std/assert";
 * import { cacheDir } from "@rtbench/rtbench/adapters";
 *
 * assert(cacheDir().endsWith("rtbench") || Deno.env.has("RTBENCH_CACHE_DIR"));
 * ```
 */
export function cacheDir(): string {
  const explicit = Deno.env.get("RTBENCH_CACHE_DIR");
  if (explicit) return explicit;
  const xdg = Deno.env.get("XDG_CACHE_HOME");
  if (xdg) return `${xdg}/rtbench`;
  const home = Deno.env.get("HOME") ?? Deno.env.get("USERPROFILE");
  if (!home) throw new TypeError("Cannot find a cache directory: set RTBENCH_CACHE_DIR or HOME");
  return `${home}/.cache/rtbench`;
}
