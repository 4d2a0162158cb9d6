// Watching a directory while a request runs, to see what a server really did
// to the files in it. inotifywait (Debian: inotify-tools) reports every create,
// write, read and delete. Without it, Deno.watchFs is the fallback, and it can
// only say which files appeared: it reports events for a file that is already
// gone as "remove" (denoland/deno#27559), and it has no read events at all.

import { makeTempDir, removeTemp, spawnGroup, which } from "../runners/platform/mod.ts";

/** What happened to a file. */
export type FileEventKind = "create" | "write" | "read" | "delete";

/** Every event seen for one file name, in order. */
export interface FileHistory {
  /** File name inside the watched directory. */
  readonly name: string;
  /** Events in the order they came. */
  readonly kinds: readonly FileEventKind[];
}

/** What a watch saw. */
export interface WatchResult<T> {
  /** What `action` returned. */
  readonly result: T;
  /** Every file something happened to, in order of first event. */
  readonly files: readonly FileHistory[];
}

/** A way of watching a directory. */
export interface DirectoryWatcher {
  /** Name recorded with the results, for example `inotifywait`. */
  readonly name: string;
  /** Kinds of event this watcher reports reliably. */
  readonly observes: readonly FileEventKind[];
  /** Runs `action` with `dir` watched; waits up to `settleMs` for a delete after it. `signal` stops the watch. */
  watch<T>(dir: string, action: () => Promise<T>, settleMs: number, signal?: AbortSignal): Promise<WatchResult<T>>;
}

const INOTIFY_KINDS: Record<string, FileEventKind> = {
  CREATE: "create",
  MODIFY: "write",
  ACCESS: "read",
  DELETE: "delete",
};

async function until(ready: () => boolean, ms: number): Promise<boolean> {
  const end = Date.now() + ms;
  while (!ready()) {
    if (Date.now() > end) return false;
    await new Promise((r) => setTimeout(r, 5));
  }
  return true;
}

function collect(events: readonly [string, FileEventKind][]): FileHistory[] {
  const files = new Map<string, FileEventKind[]>();
  for (const [name, kind] of events) files.set(name, [...(files.get(name) ?? []), kind]);
  return [...files].map(([name, kinds]) => ({ name, kinds }));
}

function inotifyWatcher(binary: string): DirectoryWatcher {
  return {
    name: "inotifywait",
    observes: ["create", "write", "read", "delete"],
    async watch(dir, action, settleMs, signal) {
      const group = spawnGroup([binary, "-m", "-e", "create,modify,access,delete", "--format", "%e|%f", dir], {
        signal,
      });
      try {
        // inotifywait says so on stderr once the watch is in place.
        if (!await until(() => group.stderr().includes("Watches established") || !!group.status, 10_000)) {
          throw new Error(`Cannot watch ${dir}: inotifywait did not start within 10 s`);
        }
        if (group.status) throw new Error(`Cannot watch ${dir}: ${group.stderr().trim().split("\n").at(-1)}`);
        const parse = () =>
          group.stdout().split("\n").filter(Boolean).flatMap((line) => {
            const [flags, name] = line.split("|");
            const kind = INOTIFY_KINDS[flags.split(",")[0]];
            return kind && name ? [[name, kind] as [string, FileEventKind]] : [];
          });
        const result = await action();
        await until(() => parse().some(([, kind]) => kind === "delete"), settleMs);
        return { result, files: collect(parse()) };
      } finally {
        await group.stop();
      }
    },
  };
}

const denoWatcher: DirectoryWatcher = {
  name: "Deno.watchFs",
  observes: ["create"],
  async watch(dir, action, settleMs) {
    const watcher = Deno.watchFs(dir, { recursive: false });
    const events: [string, FileEventKind][] = [];
    const pumping = (async () => {
      // Any event names a file that existed; its kind cannot be trusted (see above).
      for await (const event of watcher) {
        for (const path of event.paths) events.push([path.slice(path.lastIndexOf("/") + 1), "create"]);
      }
    })();
    try {
      const result = await action();
      await until(() => events.length > 0, settleMs);
      return { result, files: collect(events) };
    } finally {
      watcher.close();
      await pumping;
    }
  },
};

/** inotifywait when it is on `PATH` (and `inotify` is not false), else Deno.watchFs. */
export function directoryWatcher(inotify = true): DirectoryWatcher {
  const binary = inotify ? which("inotifywait") : null;
  return binary ? inotifyWatcher(binary) : denoWatcher;
}

/** One creation or deletion a whole-run watch saw, and when it happened at the earliest and at the latest. */
export interface DatedFileEvent {
  readonly kind: "create" | "delete";
  /** It happened after this moment (epoch ms)... */
  readonly afterMs: number;
  /** ...and before this one. */
  readonly beforeMs: number;
}

/** Creations and deletions in a directory over time, from a watch that spans a whole run. */
export interface FileEventLog {
  /** Stops watching; every event, dated between the ticks around it (see {@linkcode logFileEvents}). */
  stop(): Promise<readonly DatedFileEvent[]>;
}

/** One line of a whole-run watch: a file event of the watched directory, or tick `tick` in the ticks' directory. */
export type WatchLine = { readonly kind: "create" | "delete" } | { readonly tick: number };

/** When tick `n` was made: before its file's creation began and after it returned (epoch ms, as `Date.now()`). */
export interface Tick {
  readonly beforeMs: number;
  readonly afterMs: number;
}

/**
 * Dates each event of `lines` (in the order the kernel queued them) by the ticks around it: after the tick before it
 * began, before the tick after it returned, each a millisecond wider (`Date.now()` drops the fraction); before the
 * first tick, after `startMs` (the watch did not exist before); after the last, before `stopMs`.
 *
 * @example An event between two ticks
 * ```ts
 * import { dateEvents } from "./_file_events.ts";
 * const ticks = new Map([[0, { beforeMs: 100, afterMs: 101 }], [1, { beforeMs: 110, afterMs: 110 }]]);
 * const lines = [{ tick: 0 }, { kind: "create" as const }, { tick: 1 }];
 * console.log(dateEvents(lines, ticks, 90, 200)); // [{ kind: "create", afterMs: 99, beforeMs: 111 }]
 * ```
 */
export function dateEvents(
  lines: readonly WatchLine[],
  ticks: ReadonlyMap<number, Tick>,
  startMs: number,
  stopMs: number,
): DatedFileEvent[] {
  const dated: DatedFileEvent[] = [];
  let afterMs = startMs;
  let waiting: ("create" | "delete")[] = [];
  const settle = (beforeMs: number) => {
    for (const kind of waiting) dated.push({ kind, afterMs, beforeMs });
    waiting = [];
  };
  for (const line of lines) {
    if ("kind" in line) {
      waiting.push(line.kind);
      continue;
    }
    const tick = ticks.get(line.tick);
    if (!tick) continue;
    settle(tick.afterMs + 1);
    afterMs = tick.beforeMs - 1;
  }
  settle(stopMs);
  return dated;
}

/** How often a whole-run watch makes a tick: each event is dated to within about this, unless rtbench is held up. */
const TICK_MS = 5;

/**
 * Starts counting file creations and deletions in `dir` with inotifywait (only those two events, to keep its cost
 * and the kernel's queue small); resolves once the watch is in place. Null without inotifywait.
 *
 * An event's line reaches rtbench late, and later still when the machine is busy: dated by its arrival, events of
 * the warm-up were counted in a 1 s window (7,764 files created there for 5,752 responses). So the same watch also
 * sees a directory of ticks, a file made every few milliseconds with the time before and after its creation noted:
 * the kernel queues the events of both directories in the order they happened, and each event is dated between the
 * ticks around it, however late its line arrives.
 */
export async function logFileEvents(dir: string, signal?: AbortSignal): Promise<FileEventLog | null> {
  const binary = which("inotifywait");
  if (!binary) return null;
  const startMs = Date.now();
  const tickDir = await makeTempDir({ prefix: "rtbench-ticks-" });
  const lines: WatchLine[] = [];
  const ticks = new Map<number, Tick>();
  const decoder = new TextDecoder();
  let partial = "";
  // Line-buffered (stdbuf), so that lines do not wait for a block to fill before rtbench can read them.
  const stdbuf = which("stdbuf");
  const argv = [binary, "-m", "-e", "create,delete", "--format", "%w|%e|%f", dir, tickDir];
  const group = spawnGroup(stdbuf ? [stdbuf, "-oL", ...argv] : argv, {
    signal,
    keepBytes: 4096,
    onStdout(chunk) {
      const text = (partial + decoder.decode(chunk, { stream: true })).split("\n");
      partial = text.pop()!;
      for (const line of text) {
        const [where, flags, name] = line.split("|");
        const kind = INOTIFY_KINDS[flags?.split(",")[0] ?? ""];
        if (where === `${tickDir}/`) {
          if (kind === "create") lines.push({ tick: Number(name) });
        } else if (kind === "create" || kind === "delete") lines.push({ kind });
      }
    },
  });
  let n = 0;
  const tick = () => {
    const i = n++;
    const path = `${tickDir}/${i}`;
    const beforeMs = Date.now();
    try {
      Deno.openSync(path, { write: true, createNew: true }).close();
      ticks.set(i, { beforeMs, afterMs: Date.now() });
      Deno.removeSync(path);
    } catch {
      // A tick missed dates the events around it more loosely, not wrongly.
    }
  };
  const unwatch = async () => {
    await group.stop();
    await removeTemp(tickDir);
  };
  const watching = await until(() => group.stderr().includes("Watches established") || !!group.status, 10_000);
  if (!watching || group.status) {
    await unwatch();
    throw new Error(`Cannot watch ${dir}: inotifywait did not start within 10 s`);
  }
  const ticking = setInterval(tick, TICK_MS);
  return {
    async stop() {
      clearInterval(ticking);
      await unwatch();
      return dateEvents(lines, ticks, startMs, Date.now());
    },
  };
}
