// Watching a directory while a request runs, to see what a server really did
// to the files in it. inotifywait (Debian: inotify-tools) reports every create,
// write, read and delete. Without it, Deno.watchFs is the fallback, and it can
// only say which files appeared: it reports events for a file that is already
// gone as "remove" (denoland/deno#27559), and it has no read events at all.

import { spawnGroup, which } from "../runners/platform/mod.ts";

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

/** Creations and deletions in a directory over time, from a watch that spans a whole run. */
export interface FileEventLog {
  /** Stops watching; every event with the time (epoch ms) its line arrived. */
  stop(): Promise<readonly { readonly atMs: number; readonly kind: "create" | "delete" }[]>;
}

/**
 * Starts counting file creations and deletions in `dir` with inotifywait (only those two events, to keep its cost
 * and the kernel's queue small); resolves once the watch is in place. Null without inotifywait.
 */
export async function logFileEvents(dir: string, signal?: AbortSignal): Promise<FileEventLog | null> {
  const binary = which("inotifywait");
  if (!binary) return null;
  const events: { atMs: number; kind: "create" | "delete" }[] = [];
  const decoder = new TextDecoder();
  let partial = "";
  // Each event's time is when its line arrives: inotifywait's output must be line-buffered (stdbuf), or a block of
  // lines from before the window would arrive inside it.
  const stdbuf = which("stdbuf");
  const argv = [binary, "-m", "-e", "create,delete", "--format", "%e", dir];
  const group = spawnGroup(stdbuf ? [stdbuf, "-oL", ...argv] : argv, {
    signal,
    keepBytes: 4096,
    onStdout(chunk) {
      const atMs = Date.now();
      const lines = (partial + decoder.decode(chunk, { stream: true })).split("\n");
      partial = lines.pop()!;
      for (const line of lines) {
        const kind = INOTIFY_KINDS[line.split(",")[0]];
        if (kind === "create" || kind === "delete") events.push({ atMs, kind });
      }
    },
  });
  const watching = await until(() => group.stderr().includes("Watches established") || !!group.status, 10_000);
  if (!watching || group.status) {
    await group.stop();
    throw new Error(`Cannot watch ${dir}: inotifywait did not start within 10 s`);
  }
  return {
    async stop() {
      await group.stop();
      return events;
    },
  };
}
