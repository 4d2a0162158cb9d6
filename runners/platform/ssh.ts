/**
 * Other machines reached with the system `ssh`: one multiplexed master
 * connection per host (ControlMaster), keys and host-key checks from the
 * user's agent and configuration (never switched off), a private temporary
 * directory on each host, and remote processes that lead a process group of
 * their own there and die with their connection — whether rtbench stops them,
 * exits, is killed, or the connection drops.
 *
 * @module
 */

import { RequestError } from "../base/mod.ts";
import { INHERITED } from "./child_env.ts";
import {
  type CommandOutput,
  passedNames,
  type ProcessGroup,
  runCommand,
  spawnGroup,
  spawnListener,
  type SpawnOptions,
} from "./process.ts";
import { makeTempDir, removeTemp } from "./temp.ts";

/** A host as given on the command line: `[user@]host[:port]`. */
export interface HostSpec {
  /** Login name, when given. */
  readonly user?: string;
  /** Host name or address (IPv6 in brackets on the command line). */
  readonly host: string;
  /** SSH port, when given. */
  readonly port?: number;
  /** The text it was parsed from. */
  readonly text: string;
}

/**
 * Parses `[user@]host[:port]`; a malformed value is a {@linkcode RequestError} naming `field` (`hosts.server`).
 *
 * @example
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { parseHostSpec } from "./ssh.ts";
 * assertEquals(parseHostSpec("bench@198.18.0.2:2222", "hosts.server"), {
 *   user: "bench", host: "198.18.0.2", port: 2222, text: "bench@198.18.0.2:2222",
 * });
 * ```
 */
export function parseHostSpec(text: string, field: string): HostSpec {
  const m = /^(?:([A-Za-z_][A-Za-z0-9_.-]*)@)?(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9][A-Za-z0-9.-]*)(?::(\d{1,5}))?$/.exec(
    text,
  );
  const port = m?.[3] === undefined ? undefined : Number(m[3]);
  if (!m || (port !== undefined && (port < 1 || port > 65535))) {
    throw new RequestError(field, `must be [user@]host[:port], got ${JSON.stringify(text)}`);
  }
  return {
    ...(m[1] ? { user: m[1] } : {}),
    host: m[2].replace(/^\[|\]$/g, ""),
    ...(port !== undefined ? { port } : {}),
    text,
  };
}

/** Quotes one argument for the remote shell that `ssh` hands its command line to. */
function quote(arg: string): string {
  return /^[A-Za-z0-9_./:=@%+,-]+$/.test(arg) ? arg : `'${arg.replaceAll("'", `'\\''`)}'`;
}

// The remote side of every process rtbench starts on a host (sshd has made it a session and group leader).
// `keep` holds the host's temporary directory: when the connection ends, however it ends, the directory goes.
// `run` starts the command in that group, and a watcher on the connection's stdin kills the whole group once
// the connection closes: stopped by rtbench, rtbench gone, or the link dropped. When the command ends by itself,
// whatever it left in its group goes with it. Values come as arguments only.
// The command's environment is built there as it is here, not the ssh session's: `env -i` with the host's own
// values of the names in $names (PATH, HOME, TMPDIR, locale, --pass-env), each told back on stderr, then the
// command (which sets rtbench's own variables with `env NAME=value`).
const SCRIPT = `mode=$1; dir=$2; input=$3; names=$4; shift 4
exec 3<&0
if [ "$mode" = keep ]; then cat <&3 >/dev/null; rm -rf "$dir"; exit 0; fi
cd "$dir" || exit 126
n=$#; set -f
for name in $(env | sed -n 's/^\\([A-Za-z_][A-Za-z0-9_]*\\)=.*/\\1/p'); do
  value=$(printenv "$name") || continue
  for pattern in $names; do
    case $name in $pattern) printf 'rtbench-remote-env %s=%s\\n' "$name" "$value" >&2
      set -- "$@" "$name=$value"; break;; esac
  done
done
set +f; i=0; while [ $i -lt $n ]; do set -- "$@" "$1"; shift; i=$((i + 1)); done
set -- env -i "$@"
echo "rtbench-remote-pid $$" >&2
if [ -n "$input" ]; then "$@" <"$input" 3<&- & else "$@" </dev/null 3<&- & fi
child=$!
{
  trap '' TERM; cat <&3 >/dev/null; kill -TERM 0
  n=0; while kill -0 "$child" 2>/dev/null && [ $n -lt 20 ]; do sleep 0.1; n=$((n + 1)); done
  kill -KILL 0
} >/dev/null 2>&1 &
watcher=$!
wait "$child"; code=$?
trap '' TERM; kill -KILL "$watcher" 2>/dev/null; kill -TERM 0 2>/dev/null; exit "$code"`;

/** How the local `ssh` (and the `tar` that feeds it) start: with the agent's socket, and not listed among a record's processes. */
const LOCAL: Pick<SpawnOptions, "purpose" | "listed"> = { purpose: "ssh", listed: false };

// `sh -c PUT_SCRIPT rtbench <folder> <ssh's argv>`, the names on stdin: one tar stream from the folder into ssh. A
// tar that fails locally still ends its stream cleanly, so it says so on stderr. GNU tar's exit 1 is "file changed as
// we read it", which a hard link another rtbench makes to a cached file causes (its ctime, not its content): the
// archive is whole. Other tars (bsdtar) exit 1 on any error, so only GNU's 1 passes. The script is a constant without
// interpolation (network_safety_test); ssh_put_test fails if it and PUT_FAILED part.
/** What the staging script prints on stderr when the local tar failed. */
export const PUT_FAILED = "rtbench: the local tar failed";
/** The staging script: `sh -c PUT_SCRIPT rtbench <folder> <argv>`, the names to send on stdin. */
export const PUT_SCRIPT = `dir=$1; shift; { tar -chf - --null -C "$dir" -T -; code=$?
  [ "$code" = 0 ] || { [ "$code" = 1 ] && tar --version 2>/dev/null | grep -q GNU; } || echo "rtbench: the local tar failed" >&2; } | "$@"`;

/** Options of {@linkcode SshHost}. */
export interface SshOptions {
  /** An ssh configuration file used instead of the user's (`ssh -F`), for example `--ssh-config`. */
  readonly configFile?: string;
  /** Seconds to wait for the connection. @default {20} */
  readonly connectTimeoutSec?: number;
}

/** A process running on a host, in its own process group there. */
export interface RemoteProcess {
  /** The local `ssh` carrying it: exits when it does, with its exit code. */
  readonly group: ProcessGroup;
  /** Its process (and process group) id on the host, once it is known. */
  readonly remotePid: Promise<number>;
  /** Its stderr (the kept tail), without the lines the launcher adds. */
  stderr(): string;
  /** Stops its whole group on the host (SIGTERM, SIGKILL after `graceMs`), then the local `ssh`. */
  stop(graceMs?: number): Promise<void>;
}

/**
 * One host reached over ssh, with a multiplexed master connection that is
 * reopened when it drops, and a private temporary directory there.
 *
 * @example
 * ```ts ignore
 * import { parseHostSpec, SshHost } from "./ssh.ts";
 * const host = new SshHost(parseHostSpec("bench@198.18.0.2", "--server-host"));
 * await host.connect();
 * console.log((await host.run(["uname", "-m"])).stdout);
 * await host.close();
 * ```
 */
export class SshHost {
  /** What was asked for. */
  readonly spec: HostSpec;
  readonly #options: SshOptions;
  #controlDir: string | undefined;
  #master: ProcessGroup | undefined;
  #keeper: ProcessGroup | undefined;
  #dir: string | undefined;
  #generation = 0;
  #connecting: Promise<void> | undefined;

  /** Use {@linkcode connect} before anything else. */
  constructor(spec: HostSpec, options: SshOptions = {}) {
    this.spec = spec;
    this.#options = options;
  }

  /** Counts reconnections: what was staged under an older generation's directory is gone. */
  get generation(): number {
    return this.#generation;
  }

  /** The host's private temporary directory (valid for the current {@linkcode generation}). */
  get dir(): string {
    if (!this.#dir) throw new Error(`Not connected to ${this.spec.text}`);
    return this.#dir;
  }

  #common(): string[] {
    return [
      ...(this.#options.configFile ? ["-F", this.#options.configFile] : []),
      "-o",
      "BatchMode=yes",
      "-o",
      `ControlPath=${this.#controlDir}/c${this.#generation}`,
      ...(this.spec.port ? ["-p", String(this.spec.port)] : []),
      ...(this.spec.user ? ["-l", this.spec.user] : []),
    ];
  }

  /** The local argv that runs `argv` on the host through the master connection. */
  argv(argv: readonly string[]): string[] {
    return ["ssh", ...this.#common(), "-o", "ControlMaster=no", this.spec.host, "--", argv.map(quote).join(" ")];
  }

  /** Whether the master connection is up. */
  get connected(): boolean {
    return this.#master !== undefined && this.#master.status === undefined && this.#keeper?.status === undefined;
  }

  /** Opens the master connection and the host's temporary directory, unless they are up; again after a drop. */
  connect(signal?: AbortSignal): Promise<void> {
    if (this.connected) return Promise.resolve();
    this.#connecting ??= this.#open(signal).finally(() => this.#connecting = undefined);
    return this.#connecting;
  }

  async #open(signal?: AbortSignal): Promise<void> {
    await this.#drop();
    this.#controlDir ??= await makeTempDir({ prefix: "rtbench-ssh-" });
    // A master killed outright leaves its socket behind, and a new master will not take over a path in use.
    this.#generation++;
    const timeoutSec = this.#options.connectTimeoutSec ?? 20;
    this.#master = spawnGroup([
      "ssh",
      ...this.#common(),
      "-M",
      "-N",
      "-o",
      "ControlPersist=no",
      "-o",
      `ConnectTimeout=${timeoutSec}`,
      // A link that stops answering is noticed within seconds, not at the TCP timeout.
      "-o",
      "ServerAliveInterval=2",
      "-o",
      "ServerAliveCountMax=3",
      this.spec.host,
    ], { ...LOCAL, signal, keepBytes: 4096 });
    const deadline = performance.now() + timeoutSec * 1000;
    while (true) {
      signal?.throwIfAborted();
      if (this.#master.status) {
        await this.#master.finished();
        const why = this.#master.stderr().trim().split("\n").filter(Boolean).at(-1) ??
          `exit ${this.#master.status.code}`;
        throw new Error(`Cannot connect to ${this.spec.text} with ssh: ${why}`);
      }
      const check = await runCommand(["ssh", ...this.#common(), "-O", "check", this.spec.host], {
        ...LOCAL,
        timeoutMs: 5000,
      });
      if (check.success) break;
      if (performance.now() > deadline) {
        await this.#drop();
        throw new Error(`Cannot connect to ${this.spec.text} with ssh: no connection within ${timeoutSec} s`);
      }
      await new Promise((r) => setTimeout(r, 50));
    }
    const made = await this.run(["mktemp", "-d", "-t", "rtbench-host.XXXXXXXX"], { timeoutMs: 30_000 });
    if (!made.success) throw new Error(`Cannot make a temporary directory on ${this.spec.text}: ${lastLine(made)}`);
    this.#dir = made.stdout.trim();
    const launcher = ["sh", "-c", SCRIPT];
    this.#keeper = spawnGroup(this.argv([...launcher, "rtbench", "keep", this.#dir, "", ""]), {
      ...LOCAL,
      interactive: true,
      keepBytes: 1024,
    });
  }

  /** Runs `argv` on the host to completion (in the host's temporary directory's parent, the login directory). */
  run(
    argv: readonly string[],
    options: { timeoutMs?: number; stdin?: string; signal?: AbortSignal } = {},
  ): Promise<CommandOutput> {
    return runCommand(this.argv(argv), {
      ...LOCAL,
      timeoutMs: options.timeoutMs ?? 60_000,
      stdin: options.stdin,
      signal: options.signal,
    });
  }

  /**
   * Copies local files or directories (recursively, following symbolic links as `scp -r` does) to `remoteDir` on the
   * host: one tar stream over the master connection, so a `node_modules` of thousands of files costs no round trip per
   * file.
   */
  async put(local: readonly string[], remoteDir: string, signal?: AbortSignal): Promise<void> {
    const mkdir = await this.run(["mkdir", "-p", remoteDir], { signal });
    if (!mkdir.success) throw new Error(`Cannot stage files on ${this.spec.text}: ${lastLine(mkdir)}`);
    const byParent = new Map<string, string[]>();
    for (const path of local) {
      const trimmed = path.replace(/\/+$/, "");
      const cut = trimmed.lastIndexOf("/");
      const parent = cut > 0 ? trimmed.slice(0, cut) : "/";
      byParent.set(parent, [...byParent.get(parent) ?? [], trimmed.slice(cut + 1)]);
    }
    for (const [parent, names] of byParent) {
      const ssh = this.argv(["tar", "-xpf", "-", "-C", remoteDir]);
      // The names go to tar on stdin, NUL-separated: the script stays a constant, and any name is safe.
      const script = ["sh", "-c", PUT_SCRIPT];
      const out = await runCommand([...script, "rtbench", parent, ...ssh], {
        ...LOCAL,
        stdin: names.map((n) => `${n}\0`).join(""),
        timeoutMs: 600_000,
        signal,
      });
      const failed = out.stderr.includes(PUT_FAILED);
      if (!out.success || failed) {
        const why = failed ? out.stderr.split("\n").find((l) => l.startsWith("tar:")) ?? PUT_FAILED : lastLine(out);
        throw new Error(`Cannot stage files on ${this.spec.text}: ${why}`);
      }
    }
  }

  /**
   * Starts `argv` on the host in `cwd`, leading a process group of its own
   * there; with `input`, a file on the host becomes its stdin. Its stdout and
   * stderr come back on the returned group's. It gets the host's own PATH,
   * HOME, TMPDIR and locale (and the `--pass-env` names), not the rest of the
   * ssh session's environment; what it got is listed as `role` on this host.
   */
  launch(
    argv: readonly string[],
    options: {
      cwd: string;
      input?: string;
      signal?: AbortSignal;
      keepBytes?: number;
      onSpawn?(pid: number): void;
      role?: string;
    },
  ): RemoteProcess {
    const launcher = ["sh", "-c", SCRIPT];
    let resolvePid!: (pid: number) => void;
    const remotePid = new Promise<number>((r) => resolvePid = r);
    const listen = spawnListener();
    let seen: string | null = "";
    const names = [...INHERITED, ...passedNames()].join(" ");
    const group = spawnGroup(
      this.argv([...launcher, "rtbench", "run", options.cwd, options.input ?? "", names, ...argv]),
      {
        ...LOCAL,
        interactive: true,
        keepBytes: options.keepBytes,
        signal: options.signal,
        onStderr: (chunk) => {
          if (seen === null) return;
          seen += new TextDecoder().decode(chunk);
          const m = /rtbench-remote-pid (\d+)\n/.exec(seen);
          if (!m) return;
          resolvePid(Number(m[1]));
          const { program, env } = remoteCommand(argv, seen);
          seen = null;
          listen?.({ role: options.role ?? program, program, host: this.spec.text, env });
        },
        onSpawn: options.onSpawn,
      },
    );
    group.exited.then(() => resolvePid(-1));
    const generation = this.#generation;
    const stop = async (graceMs = 5000) => {
      const pid = await remotePid;
      // After a reconnection the pid names nothing of ours: the watcher ended that group with its connection.
      if (pid > 0 && group.status === undefined && this.connected && this.#generation === generation) {
        await this.run(["kill", "-TERM", "--", `-${pid}`], { timeoutMs: 5000 });
        const timer = new Promise((r) => setTimeout(r, graceMs));
        await Promise.race([group.exited, timer]);
        if (group.status === undefined) await this.run(["kill", "-KILL", "--", `-${pid}`], { timeoutMs: 5000 });
      }
      // Closing the connection's channel makes the watcher on the host kill whatever is left of the group.
      await group.stop(1000);
    };
    return { group, remotePid, stop, stderr: () => group.stderr().replace(LAUNCHER_LINES, "") };
  }

  /** Removes the host's temporary directory and closes the connection. */
  async close(): Promise<void> {
    if (this.connected && this.#dir) await this.run(["rm", "-rf", this.#dir], { timeoutMs: 15_000 }).catch(() => {});
    await this.#drop();
    if (this.#controlDir) await removeTemp(this.#controlDir);
    this.#controlDir = undefined;
  }

  async #drop(): Promise<void> {
    // The keeper removes the directory when its channel closes, if the connection still carries that far.
    await this.#keeper?.stop(1000);
    await this.#master?.stop(1000);
    this.#keeper = undefined;
    this.#master = undefined;
    this.#dir = undefined;
  }
}

/** The lines the launcher writes on a remote process's stderr before the process's own. */
const LAUNCHER_LINES = /^rtbench-remote-(?:pid|env) .*\n/gm;

/**
 * The program a remote command runs and the environment it got: what the launcher told back (`rtbench-remote-env`
 * lines in `stderr`) and the `env NAME=value` rtbench put before the program (and `taskset`).
 */
function remoteCommand(argv: readonly string[], stderr: string): { program: string; env: Record<string, string> } {
  const env: Record<string, string> = {};
  for (const m of stderr.matchAll(/^rtbench-remote-env ([A-Za-z_][A-Za-z0-9_]*)=(.*)$/gm)) env[m[1]] = m[2];
  // `env NAME=value` and `taskset --cpu-list CPUS`, in either order, come before the program.
  let i = 0;
  while (argv[i] === "env" || argv[i] === "taskset") {
    if (argv[i++] === "taskset") {
      for (; argv[i]?.startsWith("-"); i += argv[i] === "-p" ? 1 : 2);
      continue;
    }
    for (; i < argv.length && /^[A-Za-z_][A-Za-z0-9_]*=/.test(argv[i]); i++) {
      const eq = argv[i].indexOf("=");
      env[argv[i].slice(0, eq)] = argv[i].slice(eq + 1);
    }
  }
  const program = argv[i] ?? argv[0] ?? "";
  return { program: program.slice(program.lastIndexOf("/") + 1), env };
}

function lastLine(out: CommandOutput): string {
  return out.timedOut
    ? "timed out"
    : (out.stderr + out.stdout).trim().split("\n").filter(Boolean).at(-1) ?? `exit ${out.code}`;
}
