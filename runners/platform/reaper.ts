/**
 * The children reaper: whatever ends a process that runs suites — SIGKILL,
 * SIGTERM without a handler (a program built on `run()`), a crash — the
 * process groups it started are stopped and its temporary paths removed
 * within seconds. {@linkcode startReaper} (every command, and the first
 * `run()`) starts one reaper per process, `_reaper_child.ts`: a small Deno
 * process of its own session, no child of this one (a shell starts it and
 * exits), so this process holds no handle, pipe or pending operation of it and
 * a test's sanitizers see nothing. It reads the process's ledger (`ledger.ts`) once the
 * process has exited, looking every half second. Ledgers live in the cache (`<cache>/owned/`); one whose
 * process is gone and whose reaper did not finish (both killed at once, a
 * machine that stopped) has its paths removed by the next start.
 *
 * @module
 */

import process from "node:process";
import { owned } from "./_ledger_lines.ts";
import { cacheDir } from "./cache_dir.ts";
import { processLedger } from "./ledger.ts";
import { launchReaper, runCommand } from "./process.ts";
import { removeTree } from "./remove_tree.ts";

/** A ledger's file name: its process's pid and a token (a later process may get the same pid). */
const LEDGER_NAME = /^(\d+)-[0-9a-f]+(\.next)?$/;

function token(): string {
  return [...crypto.getRandomValues(new Uint8Array(4))].map((b) => b.toString(16).padStart(2, "0")).join("");
}

/** Whether process `pid` exists (a process of another user too); where it cannot be told, it is taken to. */
function exists(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as { code?: string }).code !== "ESRCH";
  }
}

/**
 * Removes the temporary paths in the ledgers of `dir` whose processes are gone, and those ledgers; a ledger whose
 * process still runs is left alone, whoever it belongs to, as is one of another user, and one whose reaper still
 * runs. Groups are not stopped: the pids of a process gone may name others now.
 *
 * @param dir The ledgers' folder.
 * @returns The paths removed.
 *
 * @example
 * ```ts ignore
 * import { sweepLedgers } from "./reaper.ts";
 * console.log(await sweepLedgers(`${cacheDir()}/owned`));
 * ```
 */
export async function sweepLedgers(dir: string): Promise<string[]> {
  const removed: string[] = [];
  const names: string[] = [];
  try {
    for await (const e of Deno.readDir(dir)) if (e.isFile) names.push(e.name);
  } catch {
    return removed;
  }
  let commands: string | undefined;
  for (const name of names) {
    const pid = Number(LEDGER_NAME.exec(name)?.[1]);
    if (!pid || pid === Deno.pid || exists(pid)) continue;
    // Its reaper may not have read it yet (it looks every half second, then gives the groups 2 s): while a process
    // named with the ledger's path runs, the ledger is its reaper's, whose groups are still to be stopped.
    commands ??= await processCommands();
    if (commands.includes(`/owned/${name}`)) continue;
    const file = `${dir}/${name}`;
    const info = await Deno.lstat(file).catch(() => null);
    if (!info || (info.uid !== null && info.uid !== Deno.uid())) continue;
    const { paths } = owned(await Deno.readTextFile(file).catch(() => ""));
    await Promise.all(paths.map((p) => removeTree(p)));
    removed.push(...paths);
    await Deno.remove(file).catch(() => {/* swept by another start */});
  }
  return removed;
}

/** Every process's command line, one a line; empty where `ps` cannot tell. */
async function processCommands(): Promise<string> {
  const out = await runCommand(["ps", "-A", "-ww", "-o", "args="], { timeoutMs: 5000 }).catch(() => null);
  return out?.success ? out.stdout : "";
}

let started: Promise<number | null> | undefined;

/**
 * Starts this process's children reaper, once: removes what killed runs left (see {@linkcode sweepLedgers}), writes
 * the process's ledger from now on to `<cache>/owned/`, and starts the reaper watching it. What was owned before is
 * written too. A process that exits by itself (its event loop done, or `Deno.exit()`) owning nothing dismisses its
 * reaper as it goes. Resolves with the reaper's pid, or null where there is none (Windows, no cache directory).
 *
 * @param cache The cache directory. @default {cacheDir()}
 * @returns The reaper's pid, or null.
 *
 * @example
 * ```ts ignore
 * import { spawnGroup, startReaper } from "./mod.ts";
 * await startReaper();
 * spawnGroup(["sleep", "60"]); // gone within seconds of this process, however it ends
 * ```
 */
export function startReaper(cache?: string): Promise<number | null> {
  started ??= (async () => {
    if (Deno.build.os === "windows") return null;
    const dir = `${cache ?? cacheDir()}/owned`;
    await Deno.mkdir(dir, { recursive: true });
    await sweepLedgers(dir);
    processLedger.writeTo(`${dir}/${Deno.pid}-${token()}`);
    const pid = await launchReaper(Deno.pid, processLedger.file!);
    if (pid !== null) globalThis.addEventListener("unload", () => processLedger.size === 0 && dismiss(pid));
    return pid;
  })().catch(() => null);
  return started;
}

/** Ends a reaper that has nothing to do (it has no handler: SIGTERM ends it at once). */
function dismiss(pid: number): void {
  try {
    Deno.kill(pid, "SIGTERM");
  } catch {
    // Gone already.
  }
}
