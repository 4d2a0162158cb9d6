// A directory that starts every run from the same state, for workloads whose servers create and delete many files.
//
// A new directory alone does not give a run a fresh start on ext4: it does not reuse an inode number for 60 s after
// its file was deleted (360 s while the inode's block is unwritten), and finds each new file's inode by stepping over
// every such number in the block group of the file's directory (`recently_deleted` in the kernel's fs/ext4/ialloc.c).
// A run that deletes tens of thousands of files makes every file created shortly after it in that group dearer, for
// whichever runtime comes next: uuid-file's figures fell run after run for every runtime (deno 3,700 → 3,526 → 2,126
// requests/s) while the server's CPU time per request rose (242 → 450 µs), and a loop of 100 writers spent 300–1,600 µs
// of system time per file in a reused directory against 110–220 µs in directories spread as below, as on tmpfs.

import { runCommand } from "../runners/platform/mod.ts";

/** How a workload's directory is reset before each run, for its record's facts. */
export const RESET_SPREAD =
  "made anew, in a block group of its own (chattr +T on its parent), and its filesystem synced before every run";
/** The same where the filesystem cannot spread directories (tmpfs, or no chattr). */
export const RESET_PLAIN = "made anew and its filesystem synced before every run";

/**
 * Makes `parent` and has ext4 place each directory made in it in a block group of its own (`chattr +T`, the flag that
 * makes ext4 spread a directory's subdirectories as it spreads top-level ones); returns the reset's description for
 * the record: {@linkcode RESET_SPREAD} where that took, else {@linkcode RESET_PLAIN}.
 */
export async function spreadingParent(parent: string): Promise<string> {
  await Deno.mkdir(parent, { recursive: true });
  const out = await runCommand(["chattr", "+T", parent], { timeoutMs: 10_000 }).catch(() => null);
  return out?.success ? RESET_SPREAD : RESET_PLAIN;
}

/**
 * Removes `dir` and makes it anew, then syncs its filesystem so that no run pays for the journal of the one before.
 * The new directory is made under a name of its own and renamed: ext4 picks a spread directory's block group from a
 * hash of its name, so the same name would land in the same group run after run.
 */
export async function freshDir(dir: string): Promise<void> {
  await Deno.remove(dir, { recursive: true }).catch(() => {});
  const fresh = `${dir}-${crypto.randomUUID()}`;
  await Deno.mkdir(fresh, { recursive: true });
  await Deno.rename(fresh, dir);
  await runCommand(["sync", "-f", dir], { timeoutMs: 60_000 }).catch(() => {});
}
