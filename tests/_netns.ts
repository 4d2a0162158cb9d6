// A private network for the multi-host tests: network namespaces joined by veth pairs through a bridge that lives
// in a namespace of its own, addresses from 198.18.0.0/15 (set aside for benchmark networks) that exist only inside
// these namespaces, and a real sshd (Debian's openssh-server) in each host namespace, with a key made for the test
// and a known_hosts file the test writes from each sshd's host key. Nothing here can reach, or be reached from,
// outside the machine: the root namespace gets no address and no route.

const run = async (argv: string[], stdin?: string): Promise<string> => {
  const child = new Deno.Command(argv[0], {
    args: argv.slice(1),
    stdin: stdin === undefined ? "null" : "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  if (stdin !== undefined) {
    const w = child.stdin.getWriter();
    await w.write(new TextEncoder().encode(stdin));
    await w.close();
  }
  const out = await child.output();
  const text = new TextDecoder().decode(out.stdout);
  if (!out.success) throw new Error(`${argv.join(" ")}: ${new TextDecoder().decode(out.stderr).trim()}`);
  return text;
};

/** Why the multi-host tests cannot run here, or null when they can (root, `ip netns`, sshd). */
export async function netnsUnavailable(): Promise<string | null> {
  if (Deno.build.os !== "linux") return "network namespaces need Linux";
  if (Deno.uid() !== 0) return "network namespaces need root";
  for (const tool of ["/usr/sbin/sshd", "/usr/bin/ssh", "/usr/bin/ssh-keygen", "/usr/bin/scp"]) {
    if (!(await Deno.stat(tool).then(() => true, () => false))) {
      return `${tool} is missing (apt-get install openssh-server)`;
    }
  }
  // Files running at once share this process's pid: the probe's name is its own.
  const probe = `rtb-probe-${crypto.randomUUID().slice(0, 8)}`;
  try {
    await run(["ip", "netns", "add", probe]);
    await run(["ip", "netns", "del", probe]);
    return null;
  } catch (error) {
    return `ip netns does not work here: ${(error as Error).message.split("\n")[0]}`;
  }
}

/** One host namespace: its name, address and sshd. */
export interface NetnsHost {
  readonly ns: string;
  readonly address: string;
  /**
   * Its own temporary directory, its ssh sessions' TMPDIR, as a machine of its own has: what rtbench makes there is
   * this lab's, whatever another lab on the machine makes at the same time.
   */
  readonly tmp: string;
  sshd: Deno.ChildProcess | undefined;
}

/** The private network: namespaces, sshds, the client's ssh configuration. */
export interface Lab {
  /** Where rtbench itself runs. */
  readonly harness: NetnsHost;
  /** Host namespaces by role. */
  readonly hosts: Record<"server" | "client" | "db" | "client2", NetnsHost>;
  /** ssh configuration file for `--ssh-config`: the test's key, known_hosts, strict host-key checking. */
  readonly sshConfig: string;
  /** The test's directory (keys, configs). */
  readonly dir: string;
  /** Argv prefix that runs a command inside a namespace. */
  exec(ns: string, argv: string[]): string[];
  /** Pids of every process in a namespace but its sshd listener. */
  pidsIn(ns: string): Promise<number[]>;
  /** Stops the sshds and removes every namespace, link and file the lab made. */
  close(): Promise<void>;
}

/** Builds the lab; `close()` undoes all of it. */
export async function makeLab(): Promise<Lab> {
  // Unique per lab: two test files in one `deno test` process (one pid) may each build one at once.
  const tag = `rtb${Deno.pid % 100000}${
    crypto.getRandomValues(new Uint8Array(2)).reduce((a, b) => a + b.toString(16).padStart(2, "0"), "")
  }`;
  const dir = await Deno.makeTempDir({ prefix: "rtbench-netns-test-" });
  const lan = `${tag}-lan`;
  const names = { harness: `${tag}-h`, server: `${tag}-s`, client: `${tag}-c`, db: `${tag}-d`, client2: `${tag}-e` };
  // Others may enter the lab's directory (not list it): as root, PostgreSQL on the database host runs as the user
  // postgres, which must reach its data directory in that host's temporary directory.
  await Deno.chmod(dir, 0o711);
  const hostOf = (ns: string, i: number): NetnsHost => ({
    ns,
    address: `198.18.0.${i}`,
    tmp: `${dir}/tmp-198.18.0.${i}`,
    sshd: undefined,
  });
  const lab: Lab = {
    harness: hostOf(names.harness, 1),
    hosts: {
      server: hostOf(names.server, 2),
      client: hostOf(names.client, 3),
      db: hostOf(names.db, 4),
      client2: hostOf(names.client2, 5),
    },
    sshConfig: `${dir}/ssh_config`,
    dir,
    exec: (ns, argv) => ["ip", "netns", "exec", ns, ...argv],
    async pidsIn(ns) {
      const pids = (await run(["ip", "netns", "pids", ns])).split("\n").filter(Boolean).map(Number);
      const listener = Object.values(lab.hosts).find((h) => h.ns === ns)?.sshd?.pid;
      return pids.filter((p) => p !== listener);
    },
    async close() {
      for (const h of Object.values(lab.hosts)) {
        try {
          h.sshd?.kill("SIGKILL");
          await h.sshd?.status;
        } catch { /* already gone */ }
      }
      const all = [...Object.values(names), lan];
      const left = async () =>
        (await Promise.all(all.map((ns) => run(["ip", "netns", "pids", ns]).catch(() => ""))))
          .flatMap((text) => text.split("\n").filter(Boolean).map(Number));
      // Anything left in a namespace (the test has failed then) gets SIGTERM first: a login shell killed outright
      // can leave lock files behind (pyenv's rehash lock, for one) that hang every later shell of the user.
      for (const signal of ["SIGTERM", "SIGKILL"] as const) {
        for (const pid of await left()) {
          try {
            Deno.kill(pid, signal);
          } catch { /* gone */ }
        }
        for (let i = 0; i < 20 && (await left()).length > 0; i++) await new Promise((r) => setTimeout(r, 100));
      }
      for (const ns of all) await run(["ip", "netns", "del", ns]).catch(() => {});
      await Deno.remove(dir, { recursive: true }).catch(() => {});
    },
  };
  try {
    await run(["ip", "netns", "add", lan]);
    await run(["ip", "-n", lan, "link", "add", "br0", "type", "bridge"]);
    await run(["ip", "-n", lan, "link", "set", "br0", "up"]);
    const all = [lab.harness, ...Object.values(lab.hosts)];
    for (const [i, h] of all.entries()) {
      await run(["ip", "netns", "add", h.ns]);
      // Both ends are created inside the namespaces: the root namespace never holds them.
      await run(["ip", "-n", lan, "link", "add", `p${i}`, "type", "veth", "peer", "name", "eth0", "netns", h.ns]);
      await run(["ip", "-n", lan, "link", "set", `p${i}`, "master", "br0", "up"]);
      await run(["ip", "-n", h.ns, "addr", "add", `${h.address}/24`, "dev", "eth0"]);
      await run(["ip", "-n", h.ns, "link", "set", "eth0", "up"]);
      await run(["ip", "-n", h.ns, "link", "set", "lo", "up"]);
    }
    await run(["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-C", "rtbench-test", "-f", `${dir}/id`]);
    await Deno.writeTextFile(`${dir}/authorized_keys`, await Deno.readTextFile(`${dir}/id.pub`));
    await Deno.mkdir("/run/sshd", { recursive: true, mode: 0o755 });
    const known: string[] = [];
    for (const h of Object.values(lab.hosts)) {
      // Sticky and open to all, as /tmp is.
      await Deno.mkdir(h.tmp);
      await Deno.chmod(h.tmp, 0o1777);
      const key = `${dir}/host_${h.address}`;
      await run(["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", key]);
      known.push(`${h.address} ${(await Deno.readTextFile(`${key}.pub`)).trim()}`);
      const config = `${dir}/sshd_${h.address}`;
      await Deno.writeTextFile(
        config,
        [
          `ListenAddress ${h.address}:22`,
          `HostKey ${key}`,
          `AuthorizedKeysFile ${dir}/authorized_keys`,
          "PermitRootLogin prohibit-password",
          "PasswordAuthentication no",
          "KbdInteractiveAuthentication no",
          "UsePAM no",
          // The test's files live under /tmp, which StrictModes rejects as a parent of key files.
          "StrictModes no",
          "PidFile none",
          "MaxSessions 100",
          "MaxStartups 100",
          "Subsystem sftp /usr/lib/openssh/sftp-server",
          `SetEnv TMPDIR=${h.tmp}`,
          "",
        ].join("\n"),
      );
      h.sshd = new Deno.Command("ip", {
        args: ["netns", "exec", h.ns, "/usr/sbin/sshd", "-D", "-e", "-f", config],
        stdin: "null",
        stdout: "null",
        stderr: "null",
      }).spawn();
    }
    await Deno.writeTextFile(`${dir}/known_hosts`, known.join("\n") + "\n");
    await Deno.writeTextFile(
      lab.sshConfig,
      [
        "Host 198.18.*",
        "  User root",
        `  IdentityFile ${dir}/id`,
        "  IdentitiesOnly yes",
        `  UserKnownHostsFile ${dir}/known_hosts`,
        "  GlobalKnownHostsFile /dev/null",
        // The test's own known_hosts holds every host key: an unknown or changed key fails the connection.
        "  StrictHostKeyChecking yes",
        "",
      ].join("\n"),
    );
    // Ready when each sshd accepts a connection from the harness's namespace.
    for (const h of Object.values(lab.hosts)) {
      const deadline = Date.now() + 10_000;
      while (true) {
        try {
          await run(lab.exec(lab.harness.ns, [
            "ssh",
            "-F",
            lab.sshConfig,
            "-o",
            "BatchMode=yes",
            "-o",
            "ConnectTimeout=2",
            h.address,
            "true",
          ]));
          break;
        } catch (error) {
          if (Date.now() > deadline) throw error;
          await new Promise((r) => setTimeout(r, 100));
        }
      }
    }
    return lab;
  } catch (error) {
    await lab.close();
    throw error;
  }
}
