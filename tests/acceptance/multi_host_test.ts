// Servers, load and database on separate machines (--server-host, --client-host, --db-host): network namespaces
// with a real sshd each stand in for the machines (server, two load machines, database), rtbench runs in a fourth, and every address
// (198.18.0.0/15) exists only inside them. Shown here: http-json and postgres measured with server, load and
// database each on its own host, records complete and verified, each host fingerprinted, the runtime and server run
// from the host's own temporary directory; nothing left running and no temporary directory left after a normal end
// and after SIGINT; a killed ssh connection makes that record errored and the suite goes on.
//
// docs/scaling-out.md "Server, load and database on separate machines", sentence by sentence: ssh master connections,
// BatchMode and --ssh-config (every test here connects only through the lab's config); staging into a private temporary
// directory and running from it (the first test: command paths, directories gone afterwards); servers bound to the
// server machine's address (reachable only in its namespace); the engine on the load machine (the SIGINT and
// killed-connection tests find its processes there); the database on its machine (`databaseHost`, queries counted
// there); two load machines sharing the connections, histograms merged (`clientHostConnections`, latency); topology,
// round trip and the `hosts:` line (the first test); teardown on a normal end, SIGINT and a dropped connection (the
// three tests' `nothingLeft`); host keys checked (the known_hosts test); the lab itself (`_netns.ts`).

import { assert, assertEquals, assertMatch } from "@std/assert";
import { type Lab, makeLab, netnsUnavailable } from "../_netns.ts";
import { condition, needs } from "../_needs.ts";
import { BENCH_PERMISSIONS, ROOT, runCli, waitFor } from "../_helpers.ts";
import { saturatedHost } from "../../runners/kinds/remote_server.ts";
import { validateResult } from "../../runners/schema/mod.ts";
import { installDependencies } from "../../runners/platform/workspace.ts";
import { cacheDir, resolveRuntime } from "../../adapters/mod.ts";
import { ENGINE_BUN_VERSION } from "../../runners/drivers/engine.ts";
import { postgresWorkload } from "../../workloads/postgres.ts";
import type { BenchResult } from "../../runners/schema/result.ts";

const NETNS = condition("network namespaces with an sshd in each", await netnsUnavailable());

const SHORT = [
  "--duration",
  "0.5",
  "--warmup",
  "0.2",
  "--runs",
  "1",
  "--quiet",
  "--cpu-rate",
  "0",
  "--idle-connections",
  "0",
];

/** What the namespaces cannot fetch (they have no route out) is cached here first: the engine's Bun, npm packages. */
async function warmCaches(): Promise<void> {
  await resolveRuntime({ name: "bun", requested: `bun@${ENGINE_BUN_VERSION}`, version: ENGINE_BUN_VERSION }, {
    cacheDir: cacheDir(),
  });
  await installDependencies(postgresWorkload.dependencies ?? {}, cacheDir());
}

function hostArgs(sshConfig: string): string[] {
  return [
    "--server-host",
    "198.18.0.2",
    "--client-host",
    "198.18.0.3",
    "--client-host",
    "198.18.0.5",
    "--db-host",
    "198.18.0.4",
    "--ssh-config",
    sshConfig,
  ];
}

function bench(lab: Awaited<ReturnType<typeof makeLab>>, args: string[]): Deno.ChildProcess {
  return new Deno.Command("ip", {
    args: [
      "netns",
      "exec",
      lab.harness.ns,
      Deno.execPath(),
      "run",
      ...BENCH_PERMISSIONS,
      "runners/cli/bench.ts",
      ...args,
    ],
    cwd: ROOT,
    stdout: "piped",
    stderr: "piped",
  }).spawn();
}

/** What the harness printed and what ran on the load host, for a test that waited in vain for the engine there. */
async function whyNoEngine(lab: Awaited<ReturnType<typeof makeLab>>, child: Deno.ChildProcess): Promise<string> {
  const running = (await lab.pidsIn(lab.hosts.client.ns)).map((p) => cmdline(p)).join("\n");
  try {
    child.kill("SIGKILL");
  } catch {
    // It had ended already: what it printed says why.
  }
  const out = await child.output();
  return `the engine never started on the client host; there ran:\n${running}\nbench said:\n` +
    new TextDecoder().decode(out.stderr).slice(-4000);
}

/** Every host namespace empty but for its sshd listener, within a few seconds (remote watchers wind down). */
async function nothingLeft(lab: Awaited<ReturnType<typeof makeLab>>): Promise<void> {
  const hosts = Object.values(lab.hosts);
  const empty = await waitFor(
    async () => (await Promise.all(hosts.map((h) => lab.pidsIn(h.ns)))).every((p) => !p.length),
    8000,
  );
  if (!empty) {
    const left = await Promise.all(
      hosts.map(async (h) => `${h.ns}: ${(await lab.pidsIn(h.ns)).map((p) => cmdline(p)).join("; ")}`),
    );
    assert(false, `processes left on the hosts: ${left.join(" | ")}`);
  }
}

function cmdline(pid: number, chars = 120): string {
  // ps, not /proc/<pid>/cmdline: Deno lets only --allow-all read other processes' /proc files, and `deno task test`
  // grants the permissions one by one.
  const out = new Deno.Command("ps", { args: ["-o", "args=", "-p", String(pid)], stdout: "piped", stderr: "null" })
    .outputSync();
  return new TextDecoder().decode(out.stdout).trim().slice(0, chars) || String(pid);
}

/** The lab's hosts' working directories, once gone (the hosts remove them as their watchers wind down). */
async function leftHostDirs(lab: Lab): Promise<string[]> {
  await waitFor(async () => (await hostDirs(lab)).length === 0, 8000);
  return await hostDirs(lab);
}

/** rtbench's working directories in the temporary directories of the lab's hosts. */
async function hostDirs(lab: Lab): Promise<string[]> {
  const dirs: string[] = [];
  for (const { tmp } of Object.values(lab.hosts)) {
    for await (const e of Deno.readDir(tmp)) if (e.name.startsWith("rtbench-host.")) dirs.push(`${tmp}/${e.name}`);
  }
  return dirs;
}

Deno.test(needs(NETNS, {
  name: "http-json and postgres with server, load and database on three hosts: verified, fingerprinted, nothing left",
  sanitizeResources: false,
  async fn() {
    await warmCaches();
    const lab = await makeLab();
    const out = `${lab.dir}/result.json`;
    try {
      const child = bench(lab, [
        "--workload",
        "http-json,postgres",
        "--variant",
        "default,db",
        "--runtime",
        "deno",
        ...SHORT,
        ...hostArgs(lab.sshConfig),
        "--out",
        out,
      ]);
      const done = await child.output();
      const printed = new TextDecoder().decode(done.stdout) + new TextDecoder().decode(done.stderr);
      const result = JSON.parse(await Deno.readTextFile(out)) as BenchResult;
      assertEquals(validateResult(result), []);
      const why = result.records.map((r) => `${r.id}: ${r.status} ${r.error?.message ?? ""}`).join("\n");
      assertEquals(done.code, 0, why);
      assertEquals(result.records.map((r) => [r.id, r.status]), [
        ["http-json/default/deno", "completed"],
        ["postgres/db/deno", "completed"],
      ]);
      // Each machine fingerprinted over its own connection.
      assertEquals(result.topology!.hosts.map((h) => [h.role, h.host]), [
        ["server", "198.18.0.2"],
        ["client", "198.18.0.3"],
        ["client", "198.18.0.5"],
        ["db", "198.18.0.4"],
      ]);
      for (const h of result.topology!.hosts) assert(h.cpuModel && h.kernel && h.allowedCpus && h.logicalCores, h.host);
      // Each host's identity read there (docs/method.md "Machines that read alike"): the lab's hosts share this
      // machine's CPU.
      for (const h of result.topology!.hosts) assertEquals(h.machine, result.environment.machine, h.host);
      // Timed on the load machine: TCP connects to the server machine.
      assertEquals(result.topology!.roundTrips.map((t) => [t.client, t.server, t.samples]), [
        ["198.18.0.3", "198.18.0.2", 20],
        ["198.18.0.5", "198.18.0.2", 20],
      ]);
      const [rtt] = result.topology!.roundTrips;
      assert(rtt.minUs > 0 && rtt.minUs <= rtt.medianUs && rtt.medianUs <= rtt.maxUs);
      for (const r of result.records) {
        // The server ran from the server host's staged copy, with the runtime staged there too, and the
        // addresses it was reached at exist only in that host's namespace.
        assert(r.command![0].startsWith(`${lab.hosts.server.tmp}/`), r.command![0]);
        assertMatch(r.command![0].slice(lab.hosts.server.tmp.length), /^\/rtbench-host\.[^/]+\/bin\//);
        assertEquals([r.facts.serverHost, r.facts.clientHosts], ["198.18.0.2", "198.18.0.3,198.18.0.5"]);
        // Both load machines took a share of the run's connections; their histograms merged into one.
        const shares = String(r.facts.clientHostConnections).split(",").map((p) => p.split("="));
        assertEquals(shares.map(([host]) => host), ["198.18.0.3", "198.18.0.5"]);
        assert(shares.every(([, n]) => Number(n) > 0));
        assertEquals(shares.reduce((a, [, n]) => a + Number(n), 0), r.settings.connections);
        assert(r.latencyUs && r.latencyUs.p50 > 0, r.id);
        assert(r.verification.checks.length > 0 && r.verification.checks.every((c) => c.passed), r.id);
        assert(r.summary.requestsPerSecond!.median > 0);
        // docs/method.md "The environment of every process": the server and the engines got the built environment
        // there, each listed with its host; nothing of the ssh session (SSH_CONNECTION, USER, SHELL) reached them.
        const remote = (r.processes ?? []).filter((p) => p.host);
        assertEquals([...new Set(remote.map((p) => `${p.role}@${p.host}`))].sort(), [
          "load engine@198.18.0.3",
          "load engine@198.18.0.5",
          "server@198.18.0.2",
        ]);
        for (const p of remote) {
          for (const name of ["SSH_CONNECTION", "USER", "SHELL"]) {
            assertEquals(p.env[name], undefined, `${p.role}: ${name}`);
          }
          assert(p.env.PATH, `${p.role} on ${p.host} has no PATH`);
        }
        // The server's process tree sampled in the server machine's /proc.
        assert(
          r.resources?.server && r.resources.server.rssBytes.peak > 0 && r.resources.server.threads.peak > 0,
          r.id,
        );
      }
      const pg = result.records[1];
      assertEquals([pg.facts.database, pg.facts.databaseHost], ["embedded", "198.18.0.4"]);
      // Queries counted by the database on its own host match the responses.
      assert(pg.verification.checks.some((c) => /queries counted/.test(c.name) && c.passed));
      assertMatch(
        printed,
        /hosts: servers on 198\.18\.0\.2 .* load on 198\.18\.0\.3 .*198\.18\.0\.5 .* database on 198\.18\.0\.4 .* 198\.18\.0\.3 → 198\.18\.0\.2 round trip \d+\.\d\d ms/,
      );
      await nothingLeft(lab);
      assertEquals(await leftHostDirs(lab), []);
    } finally {
      await lab.close();
    }
  },
}));

Deno.test(needs(NETNS, {
  name: "SIGINT mid-run on three hosts: exit 130, nothing left on any host",
  sanitizeResources: false,
  async fn() {
    await warmCaches();
    const lab = await makeLab();
    try {
      const child = bench(lab, [
        "--workload",
        "http-json",
        "--runtime",
        "deno",
        "--duration",
        "30",
        "--runs",
        "1",
        "--quiet",
        ...hostArgs(lab.sshConfig),
        "--out",
        `${lab.dir}/r.json`,
      ]);
      const loading = await waitFor(async () => {
        const pids = await lab.pidsIn(lab.hosts.client.ns);
        return pids.some((p) => cmdline(p, 4096).includes("engine/_child.ts"));
      }, 180_000);
      if (!loading) throw new Error(await whyNoEngine(lab, child));
      assert((await lab.pidsIn(lab.hosts.server.ns)).some((p) => cmdline(p, 4096).includes("http_json")));
      child.kill("SIGINT");
      const done = await child.output();
      assertEquals(done.code, 130, new TextDecoder().decode(done.stderr));
      await nothingLeft(lab);
      assertEquals(await leftHostDirs(lab), []);
    } finally {
      await lab.close();
    }
  },
}));

Deno.test(needs(NETNS, {
  name: "a killed ssh connection mid-run: that record errored, the suite goes on",
  sanitizeResources: false,
  async fn() {
    await warmCaches();
    const lab = await makeLab();
    const out = `${lab.dir}/r.json`;
    try {
      const child = bench(lab, [
        "--workload",
        "http-json",
        "--runtime",
        "deno,node",
        "--duration",
        "1.5",
        "--warmup",
        "0.5",
        "--runs",
        "1",
        "--cpu-rate",
        "0",
        "--idle-connections",
        "0",
        "--quiet",
        "--server-host",
        "198.18.0.2",
        "--client-host",
        "198.18.0.3",
        "--ssh-config",
        lab.sshConfig,
        "--out",
        out,
      ]);
      // The first server under load: then the harness's master connection to the server host is killed.
      const loading = await waitFor(async () => {
        const pids = await lab.pidsIn(lab.hosts.client.ns);
        return pids.some((p) => cmdline(p, 4096).includes("engine/_child.ts"));
      }, 180_000);
      if (!loading) throw new Error(await whyNoEngine(lab, child));
      const harness = await lab.pidsIn(lab.harness.ns);
      const master = harness.find((p) => /\bssh .* -M -N .*198\.18\.0\.2\s*$/.test(cmdline(p, 4096)));
      assert(master, `no master connection to the server host among ${harness.map(cmdline).join(" | ")}`);
      Deno.kill(master!, "SIGKILL");
      const done = await child.output();
      const result = JSON.parse(await Deno.readTextFile(out)) as BenchResult;
      assertEquals(validateResult(result), []);
      const statuses = result.records.map((r) => r.status).sort();
      const why = result.records.map((r) => `${r.id}: ${r.status} ${r.error?.phase} ${r.error?.message ?? ""}`);
      assertEquals(statuses, ["completed", "errored"], why.join("\n"));
      const errored = result.records.find((r) => r.status === "errored")!;
      assertMatch(
        errored.error!.message,
        /The ssh connection to 198\.18\.0\.2 was lost during the (warm-up|measurement)/,
      );
      assertEquals(done.code, 1);
      await nothingLeft(lab);
    } finally {
      await lab.close();
    }
  },
}));

// docs/reference.md "Flags" and docs/scaling-out.md "Server, load and database on separate machines": a malformed host
// is bad input.
Deno.test("a malformed --server-host, --client-host or --db-host exits 2 naming the flag", async () => {
  for (const [flag, value] of [["--server-host", "bad host!"], ["--client-host", "x@:1"], ["--db-host", "h:99999"]]) {
    const out = await runCli(["--workload", "http-json", flag, value]);
    assertEquals(out.code, 2, out.stderr);
    assertEquals(out.stderr.trim().split("\n").length, 1);
    assertMatch(out.stderr, new RegExp(`${flag} must be \\[user@\\]host\\[:port\\]`));
  }
});

// docs/scaling-out.md "Load": a load machine at 90% of its CPUs or more gives the record `client-host-saturated`,
// naming it.
Deno.test("a load machine's CPUs at 90% or more make client-host-saturated, naming the machine", () => {
  const share = { host: "bench@198.18.0.3", processes: 2, connections: 100 };
  assertEquals(saturatedHost({ ...share, cpuBusyPercent: 89.9 }, 0), null);
  assertEquals(saturatedHost({ ...share, cpuBusyPercent: null }, 0), null);
  const warning = saturatedHost({ ...share, cpuBusyPercent: 97.5 }, 1)!;
  assertEquals(warning.code, "client-host-saturated");
  assertMatch(warning.message, /^run 2: load machine bench@198\.18\.0\.3 had its CPUs 97\.5% busy/);
});

// docs/scaling-out.md "ssh": host keys are checked as the configuration says; a machine missing from known_hosts is
// refused.
Deno.test(needs(NETNS, {
  name: "a server host whose key is not in known_hosts is refused, nothing measured",
  sanitizeResources: false,
  async fn() {
    const lab = await makeLab();
    try {
      const known = await Deno.readTextFile(`${lab.dir}/known_hosts`);
      await Deno.writeTextFile(
        `${lab.dir}/known_hosts`,
        known.split("\n").filter((l) => !l.startsWith("198.18.0.2 ")).join("\n"),
      );
      const child = bench(lab, [
        "--workload",
        "http-json",
        "--runtime",
        "deno",
        ...SHORT,
        "--server-host",
        "198.18.0.2",
        "--ssh-config",
        lab.sshConfig,
        "--out",
        `${lab.dir}/r.json`,
      ]);
      const done = await child.output();
      const stderr = new TextDecoder().decode(done.stderr);
      // A host that does not accept ssh is bad input, refused before anything is provisioned or written.
      assertEquals(done.code, 2, stderr);
      assertMatch(
        stderr,
        /^rtbench: --server-host: Cannot connect to 198\.18\.0\.2 with ssh: Host key verification failed\.?$/m,
      );
      assert(!(await Deno.stat(`${lab.dir}/r.json`).then(() => true, () => false)), "no result file");
      await nothingLeft(lab);
    } finally {
      await lab.close();
    }
  },
}));
