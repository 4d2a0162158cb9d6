/**
 * Parsing of what the resource sampler's helper prints each tick: `/proc/uptime`,
 * every `/proc/<pid>/stat`, `/proc/uptime` again, then for each watched
 * process its own stat line followed by its threads' `task/<tid>/stat` and
 * `task/<tid>/schedstat` (nanoseconds on a CPU and waiting for one), then
 * `fd <pid> <count>` lines and `end`.
 *
 * @module
 */

/** The fields of one `/proc/<pid>/stat` line the sampler uses. */
export interface ProcStat {
  /** Process (or thread) id. */
  readonly pid: number;
  /** Parent process id. */
  readonly ppid: number;
  /** Session id; rtbench starts every child as a session leader, so it names the child's tree. */
  readonly session: number;
  /** CPU time in clock ticks, user plus system, all threads. */
  readonly ticks: number;
  /** CPU time of waited-for children in clock ticks. */
  readonly childTicks: number;
  /** Threads. */
  readonly threads: number;
  /** Resident set in pages. */
  readonly rssPages: number;
  /** When it started, in clock ticks since boot. */
  readonly startTicks: number;
}

/** One thread of a watched process. */
export interface ThreadStat {
  /** The process it belongs to. */
  readonly pid: number;
  /** CPU time in clock ticks. */
  readonly ticks: number;
  /** When it started, in clock ticks since boot. */
  readonly startTicks: number;
  /** Nanoseconds on a CPU (`schedstat`), null where the kernel does not keep it. */
  runNs: number | null;
  /** Nanoseconds runnable but waiting for a CPU (`schedstat`), null where not kept. */
  waitNs: number | null;
}

/** One tick's view of the machine. */
export interface Snapshot {
  /** Whether every process was read (else only the watched ones, the helper and the harness). */
  readonly full: boolean;
  /** Seconds since boot (mean of the readings before and after the stat files). */
  readonly uptimeSec: number;
  /** Every process, by pid. */
  readonly procs: ReadonlyMap<number, ProcStat>;
  /** The watched processes' threads by thread id. */
  readonly threads: ReadonlyMap<number, ThreadStat>;
  /** Open file descriptors of the watched processes. */
  readonly fds: ReadonlyMap<number, number>;
}

/** Parses one stat line; null when it is not one (a process that vanished mid-read leaves nothing). */
export function parseStatLine(line: string): ProcStat | null {
  const open = line.indexOf(" (");
  const close = line.lastIndexOf(")");
  if (open < 1 || close < open) return null;
  const pid = Number(line.slice(0, open));
  // Fields after the command name, from field 3 (state) of proc_pid_stat(5).
  const f = line.slice(close + 2).split(" ");
  if (!Number.isInteger(pid) || f.length < 22) return null;
  return {
    pid,
    ppid: Number(f[1]),
    session: Number(f[3]),
    ticks: Number(f[11]) + Number(f[12]),
    childTicks: Number(f[13]) + Number(f[14]),
    threads: Number(f[17]),
    rssPages: Number(f[21]),
    startTicks: Number(f[19]),
  };
}

const UPTIME = /^(\d+\.\d+) \d+\.\d+$/;
const SCHEDSTAT = /^(\d+) (\d+) \d+$/;

/** Parses one tick's block of text (without the closing `end`); `watched` are the pids whose threads were listed. */
export function parseSnapshot(text: string, watched: ReadonlySet<number>, full = true): Snapshot | null {
  const lines = text.split("\n");
  const procs = new Map<number, ProcStat>();
  const threads = new Map<number, ThreadStat>();
  let owner: number | null = null;
  let thread: ThreadStat | null = null;
  const fds = new Map<number, number>();
  const uptimes: number[] = [];
  let section: "procs" | "tasks" = "procs";
  for (const line of lines) {
    if (line === "") continue;
    const uptime = UPTIME.exec(line);
    if (uptime) {
      uptimes.push(Number(uptime[1]));
      if (uptimes.length === 2) section = "tasks";
      continue;
    }
    const sched = SCHEDSTAT.exec(line);
    if (sched) {
      if (thread) {
        thread.runNs = Number(sched[1]);
        thread.waitNs = Number(sched[2]);
      }
      thread = null;
      continue;
    }
    if (line.startsWith("fd ")) {
      const [, pid, count] = line.split(" ");
      fds.set(Number(pid), Number(count));
      continue;
    }
    const stat = parseStatLine(line);
    if (!stat) continue;
    if (section === "procs") {
      procs.set(stat.pid, stat);
    } else if (watched.has(stat.pid) && stat.pid !== owner) {
      // A watched process's own stat line heads its threads; its main thread repeats its pid.
      owner = stat.pid;
      thread = null;
    } else if (owner !== null) {
      thread = { pid: owner, ticks: stat.ticks, startTicks: stat.startTicks, runNs: null, waitNs: null };
      threads.set(stat.pid, thread);
    }
  }
  if (uptimes.length === 0) return null;
  const uptimeSec = uptimes.length === 2 ? (uptimes[0] + uptimes[1]) / 2 : uptimes[0];
  return { full, uptimeSec, procs, threads, fds };
}

/**
 * The processes of the trees rooted at `roots`: a root, anything in a root's
 * session (rtbench starts every child as a session leader), or a descendant by
 * parent id.
 */
export function members(snapshot: Snapshot, roots: ReadonlySet<number>): Set<number> {
  const out = new Set<number>();
  if (roots.size === 0) return out;
  const memo = new Map<number, boolean>();
  const inTree = (p: ProcStat | undefined, depth: number): boolean => {
    if (!p || depth > 64) return false;
    const known = memo.get(p.pid);
    if (known !== undefined) return known;
    const yes = roots.has(p.pid) || roots.has(p.session) ||
      (p.ppid > 1 && inTree(snapshot.procs.get(p.ppid), depth + 1));
    memo.set(p.pid, yes);
    return yes;
  };
  for (const p of snapshot.procs.values()) if (inTree(p, 0)) out.add(p.pid);
  return out;
}
