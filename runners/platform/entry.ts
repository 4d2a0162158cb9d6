/**
 * The life of an rtbench command (`bench`, `report`, `compare`, `calibrate`,
 * `vs-wrk`, `compare-startup`, `ws-ceiling`): however it ends — normally, by
 * an error, SIGINT, SIGTERM, SIGHUP, an uncaught exception or an unhandled
 * rejection — every process group it started is stopped and every temporary
 * path it made is removed before it exits, and an error is one line (the
 * stack only with `--debug`).
 *
 * Killed outright (SIGKILL), it cannot clean up itself: the children reaper
 * (`reaper.ts`, started here) does it once the harness has exited.
 *
 * `deno task` (Deno 2.9) forwards SIGINT, SIGTERM and SIGHUP to the command it
 * runs, but when `deno task` itself is killed with SIGKILL the harness is
 * orphaned and would run on; so under `deno task` the harness also stops when
 * its parent process is gone.
 *
 * @module
 */

import { killAllGroups, stopAllGroups } from "./process.ts";
import { startReaper } from "./reaper.ts";
import { readProcText } from "./procfs.ts";
import { removeAllTempsSync } from "./temp.ts";
import { UsageError } from "../base/mod.ts";

/** Exit codes for the signals a command stops on: 128 + the signal number. */
const SIGNAL_EXIT: Readonly<Record<string, number>> = { SIGHUP: 129, SIGINT: 130, SIGTERM: 143 };

/** Milliseconds a command gets to wind down after a signal before its children are killed and it exits. */
const WIND_DOWN_MS = 4000;

/** Milliseconds between checks that the parent `deno task` is still there. */
const PARENT_CHECK_MS = 1000;

/** What an entry point's body gets. */
export interface EntryContext {
  /** Aborted on SIGINT, SIGTERM or SIGHUP, or when the parent `deno task` is gone; the reason names the cause. */
  readonly signal: AbortSignal;
  /** Whether `--debug` was given: errors then show their stack. */
  readonly debug: boolean;
}

/** Options of {@linkcode runEntry}. */
export interface EntryOptions {
  /** Whether the command starts processes (and so needs the reaper and `--allow-run`). @default {true} */
  readonly spawns?: boolean;
}

/** One line for an error: its message only, without the stack. */
export function errorLine(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.split("\n")[0] || (error instanceof Error ? error.name : "unknown error");
}

/**
 * Runs `body` as a command named `name` (the prefix of its messages) and
 * exits with its code. A {@linkcode UsageError} or RangeError thrown by
 * `body` exits 2, any other error 1, a signal 128 + its number.
 *
 * @example
 * ```ts ignore
 * import { runEntry } from "./entry.ts";
 * await runEntry("rtbench report", Deno.args, async ({ signal }) => {
 *   signal.throwIfAborted();
 *   return 0;
 * });
 * ```
 */
export async function runEntry(
  name: string,
  args: readonly string[],
  body: (ctx: EntryContext) => Promise<number>,
  options: EntryOptions = {},
): Promise<never> {
  const debug = args.includes("--debug");
  const controller = new AbortController();
  let exitCode: number | undefined;
  let leaving = false;

  // Last resort: children killed, temporary paths removed, now.
  const leaveNow = (code: number): never => {
    leaving = true;
    killAllGroups();
    removeAllTempsSync();
    Deno.exit(code);
  };
  const interrupt = (cause: string, code: number) => {
    if (controller.signal.aborted) {
      // A second interrupt: leave at once.
      leaveNow(exitCode ?? code);
    }
    exitCode = code;
    controller.abort(new DOMException(`interrupted by ${cause}`, "AbortError"));
    // A body that does not wind down in time (a hook ignoring the signal) must not keep children alive.
    const timer = setTimeout(() => leaveNow(code), WIND_DOWN_MS);
    Deno.unrefTimer(timer);
  };
  const signals = (["SIGINT", "SIGTERM", "SIGHUP"] as const).filter(() => Deno.build.os !== "windows");
  const listeners = signals.map((s) => [s, () => interrupt(s, SIGNAL_EXIT[s])] as const);
  for (const [s, listener] of listeners) Deno.addSignalListener(s, listener);

  const fatal = (error: unknown) => {
    if (leaving) return;
    console.error(`${name}: internal error: ${errorLine(error)}${debug ? "" : " (--debug shows the stack)"}`);
    if (debug && error instanceof Error && error.stack) console.error(error.stack);
    leaving = true;
    // Children get a short grace to finish cleanly, then whatever is left is killed.
    const timer = setTimeout(() => leaveNow(1), 1000);
    stopAllGroups().finally(() => {
      clearTimeout(timer);
      leaveNow(1);
    });
  };
  globalThis.addEventListener("error", (event) => {
    event.preventDefault();
    fatal(event.error);
  });
  globalThis.addEventListener("unhandledrejection", (event) => {
    event.preventDefault();
    fatal(event.reason);
  });

  if (options.spawns !== false) await startReaper();
  watchParent(() => interrupt("the exit of its parent deno task", SIGNAL_EXIT.SIGHUP));

  let code: number;
  try {
    code = await body({ signal: controller.signal, debug });
  } catch (error) {
    if (controller.signal.aborted) {
      code = exitCode!;
    } else if (error instanceof UsageError || error instanceof RangeError) {
      console.error(`${name}: ${errorLine(error)}`);
      if (debug && error.stack) console.error(error.stack);
      code = 2;
    } else {
      console.error(`${name}: ${errorLine(error)}${debug ? "" : " (--debug shows the stack)"}`);
      if (debug && error instanceof Error && error.stack) console.error(error.stack);
      code = 1;
    }
  }
  if (controller.signal.aborted) code = exitCode!;
  await stopAllGroups();
  return leaveNow(code);
}

/**
 * Under `deno task`, calls `onGone` once the parent process has exited: the
 * harness was orphaned. Elsewhere a parent may exit on purpose (`nohup`), so
 * nothing is watched.
 */
function watchParent(onGone: () => void): void {
  // Read before anything awaits: a parent gone by then still counts.
  const parent = Deno.ppid;
  void underDenoTask(parent).then((yes) => {
    if (yes) pollParent(parent, onGone);
  });
}

/**
 * Whether the parent is `deno task`: its command line where /proc shows it
 * (`npx -y deno@2 task` keeps npm's user agent in the environment, so that
 * alone is not enough), else the `npm_config_user_agent` deno task sets.
 */
async function underDenoTask(parent: number): Promise<boolean> {
  const cmdline = await readProcText(`/proc/${parent}/cmdline`).catch(() => null);
  if (cmdline) {
    const argv = cmdline.split("\0");
    return /(^|\/)deno$/.test(argv[0] ?? "") && argv[1] === "task";
  }
  try {
    return Deno.env.get("npm_config_user_agent")?.startsWith("deno/") ?? false;
  } catch {
    // No --allow-env (report, compare): such a command starts no process and ends on its own.
    return false;
  }
}

function pollParent(parent: number, onGone: () => void): void {
  const timer = setInterval(() => {
    if (Deno.ppid === parent) return;
    clearInterval(timer);
    onGone();
  }, PARENT_CHECK_MS);
  Deno.unrefTimer(timer);
}
