/**
 * Runs a runtime binary to read what it reports about itself.
 *
 * @module
 */

import { runCommand } from "../runners/platform/mod.ts";

/** Runs `argv` and returns its trimmed stdout, or throws with the reason. */
export async function probe(argv: string[]): Promise<string> {
  // What a binary is, not a process a record measures: not listed among any record's processes.
  const out = await runCommand(argv, { timeoutMs: 30_000, listed: false });
  if (!out.success) {
    const why = out.timedOut ? "timed out" : out.stderr.trim().split("\n").at(-1) || `exit code ${out.code}`;
    throw new Error(`Cannot run ${argv[0]}: ${why}`);
  }
  return out.stdout.trim();
}
