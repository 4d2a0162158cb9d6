/**
 * Locust's workers on load machines (`--client-host`): the master runs where
 * rtbench runs, bound to the address the load machines reach it at (what
 * their sshd sees the connection come from); on each machine the venv's
 * packages and the locustfile are staged once per connection and one worker
 * runs per CPU, pinned there, on that machine's `python3` (the same minor
 * version as the venv's, checked). Each machine's CPU is read from
 * `/proc/stat` over the run, as for the engine.
 *
 * @module
 */

import { freePort, runCommand } from "../platform/mod.ts";
import type { LoadRunOptions } from "./types.ts";
import { type LocustPython, type LocustWorkerOutput, parseWorker, workerArgs } from "./_locust.ts";
import { busyPercent, type ClientHostShare, cpuTicks, runRemote } from "./remote_engine.ts";
import type { RemoteHost } from "./remote.ts";

/** The address of this machine as `host` sees its ssh connection come from (`$SSH_CONNECTION`'s first field). */
async function seenFrom(host: RemoteHost, signal?: AbortSignal): Promise<string> {
  const out = await host.ssh.run(["printenv", "SSH_CONNECTION"], { timeoutMs: 15_000, signal });
  const address = out.stdout.trim().split(/\s+/)[0];
  if (!out.success || !address) {
    throw new Error(`Cannot run Locust workers on ${host.ssh.spec.text}: it does not say where it is reached from`);
  }
  return address;
}

/** Stages the venv's packages and the locustfile on `host` once; returns the remote paths. */
async function stage(
  host: RemoteHost,
  py: LocustPython,
  file: string,
  signal?: AbortSignal,
): Promise<{ packages: string; file: string }> {
  const minor = py.pythonVersion.split(".").slice(0, 2).join(".");
  const packages = await host.stage(`locust:${py.sitePackages}`, async (dir) => {
    const out = await host.ssh.run(
      ["python3", "-c", "import sys; print('%d.%d' % sys.version_info[:2])"],
      { timeoutMs: 15_000, signal },
    );
    const theirs = out.success ? out.stdout.trim() : null;
    if (theirs !== minor) {
      throw new Error(
        `Cannot run Locust workers on ${host.ssh.spec.text}: its python3 is ${theirs ?? "missing"}, Locust's ` +
          `packages here are for Python ${minor} (install python${minor} there)`,
      );
    }
    await host.ssh.put([py.sitePackages], `${dir}/locust`, signal);
    return `${dir}/locust/site-packages`;
  }, signal);
  // The locustfile changes with every run: copied every time, under its own directory.
  const runDir = `${host.ssh.dir}/locust-run-${Date.now()}-${Math.random().toString(36).slice(2, 8)}`;
  await host.ssh.put([file], runDir, signal);
  return { packages, file: `${runDir}/${file.split("/").at(-1)}` };
}

/**
 * Runs the master here and one worker per slot on its load machine; returns
 * what the workers printed, in slot order, and each machine's share.
 */
export async function runRemoteWorkers(
  py: LocustPython,
  file: string,
  slots: readonly { host: RemoteHost; cpu: number | null }[],
  masterArgs: (bind: string, port: number) => string[],
  budgetMs: number,
  options: LoadRunOptions,
): Promise<{ parts: LocustWorkerOutput[]; shares: ClientHostShare[] }> {
  const hosts = [...new Set(slots.map((s) => s.host))];
  const addresses = new Set(await Promise.all(hosts.map((h) => seenFrom(h, options.signal))));
  if (addresses.size > 1) {
    throw new Error(
      `Cannot run Locust's master: the load machines reach this one at different addresses (${
        [...addresses].join(", ")
      })`,
    );
  }
  const [bind] = addresses;
  const staged = new Map<RemoteHost, { packages: string; file: string }>();
  for (const host of hosts) staged.set(host, await stage(host, py, file, options.signal));
  const port = freePort(bind);
  const before = hosts.map((h) => cpuTicks(h, options.signal));
  const master = runCommand(masterArgs(bind, port), {
    role: "load generator",
    cpus: options.cpus,
    signal: options.signal,
    onSpawn: options.onSpawn,
    timeoutMs: budgetMs,
    keepBytes: 1 << 20,
  });
  const workers = slots.map(async ({ host, cpu }) => {
    const where = staged.get(host)!;
    const argv = [
      ...host.pin(cpu === null ? null : String(cpu)),
      "env",
      `PYTHONPATH=${where.packages}`,
      "python3",
      ...workerArgs(where.file, bind, port),
    ];
    return await runRemote(host, argv, undefined, budgetMs, options.signal, "locust worker");
  });
  const [m, ...outs] = await Promise.all([master, ...workers]);
  options.signal?.throwIfAborted();
  if (!m.success) {
    throw new Error(`locust master failed: ${(m.stderr + m.stdout).trim().split("\n").slice(-3).join(" ")}`);
  }
  const after = await Promise.all(hosts.map((h) => cpuTicks(h, options.signal)));
  const parts = outs.map((o, i) => parseWorker(`locust worker on ${slots[i].host.ssh.spec.text}`, o, ""));
  const shares = await Promise.all(hosts.map(async (host, h) => {
    const mine = slots.map((s, i) => [s, parts[i]] as const).filter(([s]) => s.host === host);
    return {
      host: host.ssh.spec.text,
      processes: mine.length,
      connections: mine.reduce((n, [, p]) => n + p.users, 0),
      cpuBusyPercent: busyPercent(await before[h], after[h]),
    };
  }));
  return { parts, shares };
}
