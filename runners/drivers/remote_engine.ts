/**
 * The load engine on other machines (`--client-host`): its files and runtime
 * staged once per host, one process per CPU of each host, pinned there, each
 * reading its job from a file on that host. Each host's CPU is read from
 * `/proc/stat` over the measured window, so that a saturated load machine is
 * seen for what it is.
 *
 * @module
 */

import { makeTempDir, removeTemp, toolJson } from "../platform/mod.ts";
import type { RemoteHost } from "./remote.ts";
import type { RoundTrip } from "../schema/mod.ts";

/**
 * One load machine's share of a run: what it ran and how busy its CPUs were.
 *
 * @example Was a load machine the limit?
 * ```ts
 * import type { ClientHostShare } from "@rtbench/rtbench/runners";
 *
 * const saturated = (share: ClientHostShare) => (share.cpuBusyPercent ?? 0) >= 90;
 * ```
 */
export interface ClientHostShare {
  /** The host, as named on the command line. */
  readonly host: string;
  /** Engine processes it ran. */
  readonly processes: number;
  /** Connections it opened. */
  readonly connections: number;
  /** Busy share of all its CPUs from the end of the warm-up to the end of the run, percent; null when unreadable. */
  readonly cpuBusyPercent: number | null;
}

/** A job for one engine process, and the host it runs on. */
export interface PlacedJob {
  readonly host: RemoteHost;
  readonly cpu: number | null;
  readonly job: { readonly connections: number };
}

/** Spreads `count` engine processes over the hosts: one per allowed CPU of each, round robin across hosts. */
export function placeJobs(hosts: readonly RemoteHost[]): { host: RemoteHost; cpu: number | null }[] {
  const slots: { host: RemoteHost; cpu: number | null }[] = [];
  const lists = hosts.map((h) => (h.info.taskset && h.cpus.length > 0 ? h.cpus : [null]));
  const longest = Math.max(...lists.map((l) => l.length));
  for (let i = 0; i < longest; i++) {
    hosts.forEach((host, h) => {
      if (i < lists[h].length) slots.push({ host, cpu: lists[h][i] });
    });
  }
  return slots;
}

/** A host's busy and total CPU ticks from its `/proc/stat`, or null when unreadable. */
export async function cpuTicks(host: RemoteHost, signal?: AbortSignal): Promise<[number, number] | null> {
  const out = await host.ssh.run(["cat", "/proc/stat"], { timeoutMs: 10_000, signal }).catch(() => null);
  const fields = out?.success ? /^cpu\s+(.+)$/m.exec(out.stdout)?.[1].trim().split(/\s+/).map(Number) : undefined;
  if (!fields || fields.length < 4) return null;
  const total = fields.slice(0, 8).reduce((a, b) => a + b, 0);
  // idle + iowait are the ticks nobody wanted the CPU.
  return [total - fields[3] - (fields[4] ?? 0), total];
}

/**
 * Runs the engine's jobs on their hosts and returns what each printed, in
 * job order, with each host's share. `files` are the engine's local files
 * with their path inside the staged copy; `argv` runs the child (its first
 * element is the local runtime binary, staged too).
 */
export async function runOnHosts<T>(
  placed: readonly PlacedJob[],
  files: readonly { readonly local: string; readonly path: string }[],
  argv: (child: string) => string[],
  warmupSec: number,
  budgetMs: number,
  options: { readonly signal?: AbortSignal },
): Promise<{ parts: T[]; shares: ClientHostShare[] }> {
  const hosts = [...new Set(placed.map((p) => p.host))];
  const [localBinary, ...rest] = argv("CHILD");
  const staged = new Map<RemoteHost, { child: string; binary: string }>();
  for (const host of hosts) {
    const child = await host.stage("engine", async (dir) => {
      // The files laid out here first, then sent in one stream: not two ssh round trips per folder.
      const tree = await makeTempDir({ prefix: "rtbench-engine-" });
      try {
        for (const f of files) {
          const to = `${tree}/engine/${f.path}`;
          await Deno.mkdir(to.slice(0, to.lastIndexOf("/")), { recursive: true });
          await Deno.copyFile(f.local, to);
        }
        await host.ssh.put([`${tree}/engine`], dir, options.signal);
      } finally {
        await removeTemp(tree);
      }
      return `${dir}/engine/${files[0].path}`;
    }, options.signal);
    staged.set(host, { child, binary: await host.stageBinary(localBinary, options.signal) });
  }
  const before = new Map<RemoteHost, Promise<[number, number] | null>>();
  const startTimer = setTimeout(() => {
    for (const host of hosts) before.set(host, cpuTicks(host, options.signal));
  }, warmupSec * 1000);
  try {
    const parts = await Promise.all(placed.map(async (p, i) => {
      const { child, binary } = staged.get(p.host)!;
      const input = `${p.host.ssh.dir}/engine/job-${Date.now()}-${i}.json`;
      const wrote = await p.host.ssh.run(["dd", `of=${input}`, "status=none"], {
        stdin: JSON.stringify(p.job),
        signal: options.signal,
      });
      if (!wrote.success) throw new Error(`rtbench engine on ${p.host.ssh.spec.text} failed: cannot write its job`);
      const remote = [
        ...p.host.pin(p.cpu === null ? null : String(p.cpu)),
        binary,
        ...rest.map((a) => a === "CHILD" ? child : a),
      ];
      const out = await runRemote(p.host, remote, input, budgetMs, options.signal);
      return toolJson<T>(`rtbench engine on ${p.host.ssh.spec.text}`, out);
    }));
    const shares = await Promise.all(hosts.map(async (host) => {
      const [a, b] = [await before.get(host), await cpuTicks(host, options.signal)];
      const mine = placed.filter((p) => p.host === host);
      return {
        host: host.ssh.spec.text,
        processes: mine.length,
        connections: mine.reduce((n, p) => n + p.job.connections, 0),
        cpuBusyPercent: busyPercent(a, b),
      };
    }));
    return { parts, shares };
  } finally {
    clearTimeout(startTimer);
  }
}

/** Busy share of a host's CPUs between two `/proc/stat` readings, percent; null when either is missing. */
export function busyPercent(a: [number, number] | null | undefined, b: [number, number] | null): number | null {
  return a && b && b[1] > a[1] ? Math.round(((b[0] - a[0]) / (b[1] - a[1])) * 1000) / 10 : null;
}

/**
 * Runs one process on `host` to its end (stdin from the file `input` there, when given) and returns its stdout; a
 * failure names the host and why.
 */
export async function runRemote(
  host: RemoteHost,
  argv: readonly string[],
  input: string | undefined,
  budgetMs: number,
  signal?: AbortSignal,
  tool = "rtbench engine",
): Promise<string> {
  const name = `${tool} on ${host.ssh.spec.text}`;
  const role = tool === "rtbench engine" ? "load engine" : tool;
  const process = host.ssh.launch(argv, { cwd: host.ssh.dir, input, keepBytes: 8 << 20, signal, role });
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    void process.stop(1000);
  }, budgetMs);
  try {
    const status = await process.group.finished();
    signal?.throwIfAborted();
    if (timedOut) throw new Error(`${name} failed: did not finish within ${budgetMs / 1000} s`);
    if (!status.success) {
      const why = process.stderr().trim().split("\n").slice(-3).join(" ");
      // 255 is ssh's own failure: the connection, not the engine.
      throw new Error(
        `${name} failed: ${why || (status.code === 255 ? "the ssh connection failed" : `exit code ${status.code}`)}`,
      );
    }
    return process.group.stdout();
  } finally {
    clearTimeout(timer);
    await process.stop(1000);
  }
}

const RTT_CHILD = new URL("./_rtt_child.mjs", import.meta.url);

/**
 * Times `count` TCP connects from `client` to `server`'s ssh port, on the
 * client machine, with the engine's runtime (`argv` runs a file on it).
 */
export async function roundTrip(
  client: RemoteHost,
  server: RemoteHost,
  argv: (child: string, host: string) => string[],
  count: number,
  signal?: AbortSignal,
): Promise<RoundTrip> {
  const [localBinary, ...rest] = argv("CHILD", server.address);
  const binary = await client.stageBinary(localBinary, signal);
  const script = await client.stage("rtt", async (dir) => {
    await client.ssh.put([RTT_CHILD.pathname], `${dir}/rtt`, signal);
    return `${dir}/rtt/_rtt_child.mjs`;
  }, signal);
  const port = String(server.ssh.spec.port ?? 22);
  const args = [binary, ...rest.map((a) => a === "CHILD" ? script : a), server.address, port, String(count)];
  const out = await client.ssh.run(args, { timeoutMs: 60_000, signal });
  const times = out.success ? JSON.parse(out.stdout.trim().split("\n").at(-1) ?? "[]") as number[] : [];
  if (times.length === 0) {
    const why = out.stderr.trim().split("\n").at(-1) ?? `exit ${out.code}`;
    throw new Error(`Cannot time the round trip ${client.ssh.spec.text} → ${server.ssh.spec.text}: ${why}`);
  }
  const sorted = [...times].sort((a, b) => a - b);
  return {
    client: client.ssh.spec.text,
    server: server.ssh.spec.text,
    samples: sorted.length,
    medianUs: sorted[Math.floor(sorted.length / 2)],
    minUs: sorted[0],
    maxUs: sorted.at(-1)!,
  };
}
