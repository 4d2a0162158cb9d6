/**
 * Reads Linux `/proc` and `/sys` files. Deno allows those only with
 * `--allow-all` (denoland/deno#27564); rtbench runs with narrower permissions,
 * so a refused read falls back to `cat`, which `--allow-run` permits.
 *
 * @module
 */

import { runCommand } from "./process.ts";

/** The file's text, or null when it does not exist or cannot be read. */
export async function readProcText(path: string): Promise<string | null> {
  try {
    return await Deno.readTextFile(path);
  } catch (error) {
    if (!(error instanceof Deno.errors.NotCapable) && !(error instanceof Deno.errors.PermissionDenied)) return null;
  }
  const out = await runCommand(["cat", path], { timeoutMs: 5000 });
  return out.success ? out.stdout : null;
}
