/**
 * The machines of a multi-host suite (`--server-host`, `--client-host`,
 * `--db-host`): each reached over ssh, fingerprinted, and given what it runs —
 * runtime binaries, files, `node_modules` — in its private temporary
 * directory, staged once per connection.
 *
 * @module
 */

import {
  type HostSpec,
  IDENTITY_COMMAND,
  identityFrom,
  parseCpuList,
  parseHostSpec,
  splitIdentityOutput,
  SshHost,
  type SshOptions,
} from "../platform/mod.ts";
import type { HostInfo, HostRole } from "../schema/mod.ts";

/** One machine of the suite and what has been staged there. */
export class RemoteHost {
  /** Its ssh connection. */
  readonly ssh: SshHost;
  /** What it does in the suite. */
  readonly role: HostRole;
  #info: HostInfo | undefined;
  #staged = new Map<string, Promise<string>>();
  #stagedIn = -1;

  /** Use {@linkcode openTopology}. */
  constructor(role: HostRole, spec: HostSpec, options: SshOptions) {
    this.role = role;
    this.ssh = new SshHost(spec, options);
  }

  /** The address it is reached at (and that servers on it bind). */
  get address(): string {
    return this.ssh.spec.host;
  }

  /** Its fingerprint, read at connection. */
  get info(): HostInfo {
    if (!this.#info) throw new Error(`${this.ssh.spec.text} has not been fingerprinted`);
    return this.#info;
  }

  /** The CPUs a process may use there, as a list (all of them when unreadable). */
  get cpus(): number[] {
    return this.#info?.allowedCpus ? parseCpuList(this.#info.allowedCpus) : [];
  }

  /** Connects (again, after a drop) and fingerprints the host once. */
  async connect(signal?: AbortSignal): Promise<void> {
    await this.ssh.connect(signal);
    this.#info ??= await fingerprintHost(this, signal);
  }

  /**
   * Stages something once per connection under `key` (a reconnection starts
   * with an empty directory): `make` copies it and returns its remote path.
   */
  async stage(key: string, make: (dir: string) => Promise<string>, signal?: AbortSignal): Promise<string> {
    await this.connect(signal);
    if (this.#stagedIn !== this.ssh.generation) {
      this.#staged.clear();
      this.#stagedIn = this.ssh.generation;
    }
    let staged = this.#staged.get(key);
    if (!staged) {
      staged = make(this.ssh.dir);
      staged.catch(() => this.#staged.delete(key));
      this.#staged.set(key, staged);
    }
    return await staged;
  }

  /** Copies a local executable (a runtime's binary) to the host once; returns its path there. */
  stageBinary(binary: string, signal?: AbortSignal): Promise<string> {
    return this.stage(`binary:${binary}`, async (dir) => {
      const target = `${dir}/bin/${this.#staged.size}`;
      await this.ssh.put([binary], target, signal);
      return `${target}/${binary.split("/").at(-1)}`;
    }, signal);
  }

  /** Copies a local `node_modules` to the host once; returns its path there. */
  stageNodeModules(nodeModules: string, signal?: AbortSignal): Promise<string> {
    return this.stage(`deps:${nodeModules}`, async (dir) => {
      const target = `${dir}/deps/${this.#staged.size}`;
      await this.ssh.put([nodeModules], target, signal);
      return `${target}/node_modules`;
    }, signal);
  }

  /** The argv prefix that pins a process there to `cpus`, when it has `taskset`. */
  pin(cpus: string | null): string[] {
    return cpus !== null && this.#info?.taskset ? ["taskset", "--cpu-list", cpus] : [];
  }
}

/** Reads a host's OS, kernel, CPU, memory, allowed CPUs and load through one `cat` and one `uname`. */
async function fingerprintHost(host: RemoteHost, signal?: AbortSignal): Promise<HostInfo> {
  const files = ["/etc/os-release", "/proc/cpuinfo", "/proc/meminfo", "/proc/loadavg", "/proc/self/status"];
  const read = await host.ssh.run(["cat", ...files], { signal, timeoutMs: 15_000 });
  const uname = await host.ssh.run(["uname", "-s", "-r", "-m"], { signal, timeoutMs: 15_000 });
  const taskset = await host.ssh.run(["taskset", "-p", "1"], { signal, timeoutMs: 15_000 });
  const identity = await host.ssh.run(IDENTITY_COMMAND, { signal, timeoutMs: 15_000 });
  if (!uname.success) throw new Error(`Cannot fingerprint ${host.ssh.spec.text}: ${uname.stderr.trim()}`);
  const text = read.stdout;
  const [os, kernel, arch] = uname.stdout.trim().split(/\s+/);
  const memKb = Number(/^MemTotal:\s*(\d+) kB/m.exec(text)?.[1]);
  const load = /^(\d+\.\d+) (\d+\.\d+) (\d+\.\d+) /m.exec(text);
  return {
    role: host.role,
    host: host.ssh.spec.text,
    os: os.toLowerCase(),
    osName: /^PRETTY_NAME="?([^"\n]+)"?/m.exec(text)?.[1] ?? null,
    kernel: kernel ?? null,
    arch: arch ?? null,
    cpuModel: /^model name\s*:\s*(.+)$/m.exec(text)?.[1]?.trim() ?? null,
    logicalCores: [...text.matchAll(/^processor\s*:/gm)].length || null,
    allowedCpus: /^Cpus_allowed_list:\s*(\S+)/m.exec(text)?.[1] ?? null,
    memoryBytes: Number.isFinite(memKb) ? memKb * 1024 : null,
    loadAverage: load ? [Number(load[1]), Number(load[2]), Number(load[3])] : null,
    taskset: taskset.success,
    machine: identityFrom({ cpuinfo: text, ...splitIdentityOutput(identity.stdout) }),
  };
}

/** The suite's machines by role; absent roles run on the harness's machine. */
export interface Topology {
  /** Where servers run (`--server-host`). */
  readonly server?: RemoteHost;
  /** Where the load engine runs (`--client-host`, one or more): they share each run's connections or rate. */
  readonly clients: readonly RemoteHost[];
  /** Where the database runs (`--db-host`). */
  readonly db?: RemoteHost;
}

/**
 * What `--server-host`, `--client-host`, `--db-host` and `--ssh-config` asked for.
 *
 * @example Server, two load machines and the database apart
 * ```ts
 * import type { HostsOption } from "@rtbench/rtbench/runners";
 *
 * const hosts: HostsOption = { server: "bench@app1", clients: ["load1", "load2:2222"], db: "db1" };
 * ```
 */
export interface HostsOption {
  /** `[user@]host[:port]` of the server machine. */
  readonly server?: string;
  /** `[user@]host[:port]` of each load machine. */
  readonly clients?: readonly string[];
  /** `[user@]host[:port]` of the database machine. */
  readonly db?: string;
  /** ssh configuration file instead of the user's (`ssh -F`). */
  readonly sshConfig?: string;
}

/** Parses the hosts asked for; a malformed one throws a `UsageError` naming its flag. Connects nothing. */
export function topologyOf(hosts: HostsOption): Topology {
  const options = hosts.sshConfig ? { configFile: hosts.sshConfig } : {};
  const make = (role: HostRole, text: string, field: string) =>
    new RemoteHost(role, parseHostSpec(text, field), options);
  return {
    ...(hosts.server ? { server: make("server", hosts.server, "hosts.server") } : {}),
    clients: (hosts.clients ?? []).map((c) => make("client", c, "hosts.clients")),
    ...(hosts.db ? { db: make("db", hosts.db, "hosts.db") } : {}),
  };
}

/** Every host of a topology, once each. */
export function hostsOf(topology: Topology): RemoteHost[] {
  return [topology.server, ...topology.clients, topology.db].filter((h): h is RemoteHost => h !== undefined);
}
