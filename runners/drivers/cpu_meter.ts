/**
 * The CPU time a server's process tree and the load's processes spend in a measured window, from the kernel's own
 * counters rather than from samples of CPU percentages: each side is moved into a control group of its own, whose
 * counter the kernel keeps exactly (cgroups v1 `cpuacct.usage` in nanoseconds, or cgroups v2 `cpu.stat` `usage_usec`);
 * where no group can be made (not root, no delegated hierarchy, not Linux), the sum of `utime + stime` (and reaped
 * children's) of every process of the tree, in clock ticks. The counters are read every 20 ms by a helper that reads
 * files with shell builtins (no process per read); the CPU time over the window is the counter at its end less the
 * counter at its start, each read between the two readings around the instant (the load reports its window). Deno
 * refuses `/proc` and `/sys` to anything short of `--allow-all`, hence the helper.
 *
 * @module
 */

import {
  type CgroupCounter,
  cgroupPlaces,
  counterMicros,
  parseCgroupMounts,
  parseOwnCgroups,
  type ProcessGroup,
  runCommand,
  spawnGroup,
} from "../platform/mod.ts";

/** Where a window's CPU time came from: a control group's counter, or the processes' own times in `/proc`. */
export type CpuSource = CgroupCounter | "proc";

/** One side's CPU time over a window. */
export interface CpuWindow {
  /** CPU time of the side's processes over the window, in microseconds. */
  readonly cpuUs: number;
  /** Where it came from. */
  readonly source: CpuSource;
}

/** The server's and the load's CPU time over a window; null for a side that could not be measured. */
export interface CpuReport {
  /** The server's process tree. */
  readonly server: CpuWindow | null;
  /** The load generator's processes. */
  readonly client: CpuWindow | null;
}

/** Options of {@linkcode startCpuMeter}. */
export interface CpuMeterOptions {
  /** The server's process group (rtbench starts every server as a session leader: its session is its tree). */
  readonly server: number;
  /** CPUs the helper is pinned to (the load generator's), or null. */
  readonly cpus?: string | null;
  /** Milliseconds between readings. @default {20} */
  readonly intervalMs?: number;
  /**
   * Where to count: the best place this machine allows (`auto`), only that kind of control group, or each process's
   * own times even where a group could be made (to test each way on one machine). @default {"auto"}
   */
  readonly source?: "auto" | CpuSource;
}

/** Milliseconds between readings of the counters. */
export const CPU_READ_INTERVAL_MS = 20;

/** Milliseconds the helper gets to answer one command. */
const ASK_TIMEOUT_MS = 2000;

// One command a line in, one line out (a probe: several, then `end`). Only shell builtins run per reading.
const SCRIPT = `while read -r cmd a rest; do
  case "$cmd" in
    probe)
      while read -r l; do case "$l" in *" cgroup "*|*" cgroup2 "*) echo "m $l";; esac; done < /proc/self/mounts
      while read -r l; do echo "c $l"; done < /proc/self/cgroup
      echo "t $(getconf CLK_TCK 2>/dev/null)"
      echo end;;
    mkdir) if mkdir "$a" 2>/dev/null && [ -f "$a/$rest" ]; then echo ok; else rmdir "$a" 2>/dev/null; echo no; fi;;
    move) n=0; for p in $rest; do echo "$p" > "$a/cgroup.procs" 2>/dev/null && n=$((n+1)); done; echo "ok $n";;
    read) o=""; for f in $a $rest; do v=""; read -r v < "$f" 2>/dev/null; o="$o|$v"; done; echo "v$o";;
    stat) o=""; for p in $a $rest; do
        l=""; read -r l < "/proc/$p/stat" 2>/dev/null || continue
        r="\${l##*) }"; set -- $r
        o="$o $p:$(( \${12} + \${13} + \${14} + \${15} ))"
      done; echo "s$o";;
    rmdir) rmdir "$a" 2>/dev/null && echo ok || echo no;;
    sweep) for d in "$a"/rtbench-[0-9]*; do
        [ -d "$d" ] || continue; o="\${d##*/rtbench-}"; o="\${o%%-*}"
        [ -d "/proc/$o" ] || rmdir "$d" 2>/dev/null
      done; echo ok;;
    *) echo "?";;
  esac
done`;

/** What the helper found once per harness: where groups can go and the clock tick. */
interface Probe {
  readonly places: ReturnType<typeof cgroupPlaces>;
  readonly clockTicks: number;
}

/** One reading: when (the middle of the request's round trip) and each side's counter in microseconds. */
interface Reading {
  readonly atMs: number;
  readonly server: number | null;
  readonly client: number | null;
}

let meters = 0;
// One process can hold several harnesses in workers, each counting its own meters (rtbench's tests run files that way
// under deno test --parallel): a token per module instance keeps their groups apart. The pid stays first, for the sweep.
const INSTANCE = crypto.randomUUID().slice(0, 8);

/** The name every control group this module instance makes starts with (the pid, then a token of the instance). */
export const GROUP_PREFIX = `rtbench-${Deno.pid}-${INSTANCE}-`;
let probed: Probe | undefined;

/** Members of the session `sid` (the process tree of a server rtbench started), itself included. */
async function sessionMembers(sid: number): Promise<number[]> {
  try {
    // Through process.ts like every child (its own environment); a reading, not a process of the record.
    const out = await runCommand(["ps", "-eo", "pid=,sess="], { timeoutMs: 10_000, listed: false });
    return out.stdout.split("\n").flatMap((line) => {
      const [pid, sess] = line.trim().split(/\s+/).map(Number);
      return sess === sid && pid > 0 ? [pid] : [];
    });
  } catch {
    return [sid];
  }
}

/**
 * Linear interpolation of a counter at `atMs` between the readings around it; null outside the readings or where
 * a side has no counter.
 *
 * @example Halfway between two readings
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { counterAt } from "./cpu_meter.ts";
 *
 * const readings = [{ atMs: 0, server: 100, client: null }, { atMs: 20, server: 300, client: null }];
 * assertEquals(counterAt(readings, "server", 5), 150);
 * assertEquals(counterAt(readings, "server", 30), null);
 * ```
 */
export function counterAt(
  readings: readonly { readonly atMs: number; readonly server: number | null; readonly client: number | null }[],
  side: "server" | "client",
  atMs: number,
): number | null {
  for (let i = 1; i < readings.length; i++) {
    const [a, b] = [readings[i - 1], readings[i]];
    if (a.atMs > atMs || b.atMs < atMs) continue;
    const [va, vb] = [a[side], b[side]];
    if (va === null || vb === null) return null;
    if (b.atMs === a.atMs) return va;
    return va + (vb - va) * (atMs - a.atMs) / (b.atMs - a.atMs);
  }
  return null;
}

/** Reads the server's and the load's CPU counters until stopped; see the module documentation. */
export class CpuMeter {
  readonly #helper: ProcessGroup;
  readonly #server: number;
  readonly #readings: Reading[] = [];
  readonly #clients = new Set<number>();
  #members: number[] = [];
  #buffer = "";
  #waiting: ((line: string) => void)[] = [];
  #queue: Promise<unknown> = Promise.resolve();
  #timer: ReturnType<typeof setInterval> | undefined;
  #reading = false;
  #probe: Probe = { places: [], clockTicks: 100 };
  /** The groups made for each side, with how they count; null: each process's own times in /proc. */
  #groups: { counter: CgroupCounter; parent: string; file: string; server: string; client: string } | null = null;

  /** Use {@linkcode startCpuMeter}. */
  constructor(options: CpuMeterOptions) {
    this.#server = options.server;
    const decoder = new TextDecoder();
    this.#helper = spawnGroup(["sh", "-c", SCRIPT], {
      cpus: options.cpus ?? null,
      interactive: true,
      keepBytes: 1024,
      role: "cpu meter",
      onStdout: (chunk) => this.#receive(decoder.decode(chunk, { stream: true })),
    });
  }

  /** Where this meter counts: a control group's counter, or `/proc`. */
  get source(): CpuSource {
    return this.#groups?.counter ?? "proc";
  }

  #receive(text: string): void {
    this.#buffer += text;
    let newline: number;
    while ((newline = this.#buffer.indexOf("\n")) !== -1) {
      const line = this.#buffer.slice(0, newline);
      this.#buffer = this.#buffer.slice(newline + 1);
      this.#waiting.shift()?.(line);
    }
  }

  /** Sends one command and resolves with its first line of answer (or "" when the helper is gone). */
  #ask(command: string, lines = 1): Promise<string[]> {
    const next = this.#queue.then(async () => {
      if (this.#helper.status) return [];
      const answers: Promise<string>[] = [];
      for (let i = 0; i < lines; i++) answers.push(new Promise((resolve) => this.#waiting.push(resolve)));
      this.#helper.write(`${command}\n`);
      const gone = this.#helper.exited.then(() => [] as string[]);
      // A helper that stopped answering must not hold the run (nor its interruption): no answer is no reading.
      let timer: ReturnType<typeof setTimeout> | undefined;
      const late = new Promise<string[]>((resolve) => timer = setTimeout(() => resolve([]), ASK_TIMEOUT_MS));
      try {
        return await Promise.race([Promise.all(answers), gone, late]);
      } finally {
        clearTimeout(timer);
      }
    });
    this.#queue = next.catch(() => {});
    return next;
  }

  async #probeOnce(): Promise<Probe> {
    if (probed) return probed;
    // A probe's answer is several lines, ended by `end`: read lines until it.
    const lines: string[] = [];
    const done = new Promise<void>((resolve) => {
      const take = (line: string) => {
        if (line === "end") return resolve();
        lines.push(line);
        this.#waiting.unshift(take);
      };
      this.#waiting.push(take);
    });
    this.#helper.write("probe\n");
    await Promise.race([done, this.#helper.exited]);
    const mounts = lines.filter((l) => l.startsWith("m ")).map((l) => l.slice(2)).join("\n");
    const own = lines.filter((l) => l.startsWith("c ")).map((l) => l.slice(2)).join("\n");
    const tick = Number(lines.find((l) => l.startsWith("t "))?.slice(2));
    probed = {
      places: cgroupPlaces(parseCgroupMounts(mounts), parseOwnCgroups(own)),
      clockTicks: tick > 0 ? tick : 100,
    };
    return probed;
  }

  /** Makes a group per side where one can be made, moves the server's tree in, and starts reading. */
  async start(intervalMs: number, source: "auto" | CpuSource = "auto"): Promise<void> {
    this.#probe = await this.#probeOnce();
    const id = `${GROUP_PREFIX}${++meters}`;
    for (const place of this.#probe.places.filter((p) => source === "auto" || p.counter === source)) {
      await this.#ask(`sweep ${place.parent}`);
      const server = `${place.parent}/${id}-server`;
      const client = `${place.parent}/${id}-client`;
      const [a] = await this.#ask(`mkdir ${server} ${place.file}`);
      if (a !== "ok") continue;
      const [b] = await this.#ask(`mkdir ${client} ${place.file}`);
      if (b !== "ok") {
        await this.#ask(`rmdir ${server}`);
        continue;
      }
      this.#members = await sessionMembers(this.#server);
      const [moved] = await this.#ask(`move ${server} ${this.#members.join(" ")}`);
      if (moved !== `ok ${this.#members.length}`) {
        // Not allowed to move processes here (another user's, or a v2 hierarchy not delegated to us).
        await this.#ask(`move ${place.parent} ${this.#members.join(" ")}`);
        await this.#ask(`rmdir ${server}`);
        await this.#ask(`rmdir ${client}`);
        continue;
      }
      this.#groups = { counter: place.counter, parent: place.parent, file: place.file, server, client };
      break;
    }
    if (!this.#groups) this.#members = await sessionMembers(this.#server);
    await this.#read();
    this.#timer = setInterval(() => void this.#read(), intervalMs);
  }

  /** Counts a process of the load from now on (a load generator's process, once spawned). */
  addClient(pid: number): void {
    this.#clients.add(pid);
    if (this.#groups) void this.#ask(`move ${this.#groups.client} ${pid}`);
  }

  async #read(): Promise<void> {
    if (this.#reading) return;
    this.#reading = true;
    try {
      const sent = Date.now();
      if (this.#groups) {
        const g = this.#groups;
        const [line] = await this.#ask(`read ${g.server}/${g.file} ${g.client}/${g.file}`);
        const at = (sent + Date.now()) / 2;
        const [, server, client] = (line ?? "").split("|");
        this.#readings.push({
          atMs: at,
          server: counterMicros(g.counter, server ?? ""),
          client: counterMicros(g.counter, client ?? ""),
        });
        return;
      }
      const pids = [...this.#members, ...this.#clients];
      const [line] = await this.#ask(`stat ${pids.join(" ")}`);
      const at = (sent + Date.now()) / 2;
      const ticks = new Map(
        (line ?? "").slice(1).trim().split(" ").filter(Boolean).map((pair) => {
          const [pid, t] = pair.split(":").map(Number);
          return [pid, t] as const;
        }),
      );
      const sum = (of: Iterable<number>) => {
        let total = 0;
        for (const pid of of) total += ticks.get(pid) ?? 0;
        return total * 1e6 / this.#probe.clockTicks;
      };
      this.#readings.push({ atMs: at, server: sum(this.#members), client: sum(this.#clients) });
    } finally {
      this.#reading = false;
    }
  }

  /**
   * The server's counter as read so far: when (epoch ms) and its value (µs), for windows cut after the load (duet
   * pairing cuts two servers' counters at the same instants). Readings taken by {@linkcode CpuMeter.stop} included.
   */
  get serverReadings(): { atMs: number; cpuUs: number }[] {
    return this.#readings.flatMap((r) => r.server === null ? [] : [{ atMs: r.atMs, cpuUs: r.server }]);
  }

  /**
   * Takes a last reading, puts the processes back where they were, removes the groups and stops the helper; returns
   * each side's CPU time over the window `fromMs`–`toMs` (epoch milliseconds), or null for a side whose counter was
   * not read around both instants.
   */
  async stop(window: { fromMs: number; toMs: number } | undefined): Promise<CpuReport> {
    clearInterval(this.#timer);
    while (this.#reading) await new Promise((r) => setTimeout(r, 1));
    await this.#read();
    const g = this.#groups;
    if (g) {
      // Forked since the start: moved back with the rest, or the group could not be removed.
      const members = [...new Set([...this.#members, ...await sessionMembers(this.#server)])];
      await this.#ask(`move ${g.parent} ${[...members, ...this.#clients].join(" ")}`);
      for (const dir of [g.server, g.client]) {
        for (let attempt = 0; attempt < 10; attempt++) {
          const [ok] = await this.#ask(`rmdir ${dir}`);
          if (ok !== "no") break;
          await new Promise((r) => setTimeout(r, 20));
        }
      }
    }
    await this.#helper.stop();
    if (!window) return { server: null, client: null };
    const side = (name: "server" | "client"): CpuWindow | null => {
      const from = counterAt(this.#readings, name, window.fromMs);
      const to = counterAt(this.#readings, name, window.toMs);
      return from === null || to === null ? null : { cpuUs: Math.max(0, to - from), source: this.source };
    };
    return { server: side("server"), client: this.#clients.size > 0 ? side("client") : null };
  }
}

/**
 * Starts counting the CPU time of a server's process tree (and of the load's processes, as they are added) until
 * {@linkcode CpuMeter.stop}; null where there is nothing to read it from (not Linux).
 *
 * @example Count a server's CPU time over a load's window
 * ```ts ignore
 * import { startCpuMeter } from "./cpu_meter.ts";
 * const meter = await startCpuMeter({ server: server.group.pid, cpus: "1" });
 * const m = await generator.run(target, settings, { cpus: "1", onSpawn: (pid) => meter?.addClient(pid) });
 * const cpu = await meter?.stop({ fromMs: m.windowStartMs!, toMs: m.windowStartMs! + m.durationMs });
 * console.log(cpu?.server?.cpuUs! / m.responses, "µs per request");
 * ```
 */
export async function startCpuMeter(options: CpuMeterOptions): Promise<CpuMeter | null> {
  if (Deno.build.os !== "linux") return null;
  const meter = new CpuMeter(options);
  await meter.start(options.intervalMs ?? CPU_READ_INTERVAL_MS, options.source);
  return meter;
}
