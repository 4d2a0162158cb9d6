// --load-generator locust with workers on two load machines (--client-host ×2), in the private network of
// network namespaces that multi_host_test uses (tests/_netns.ts): the master runs with rtbench, bound to the address
// the load machines reach it at; each load machine runs one worker per CPU on its own python3 with the venv's
// packages staged there; their counts and histograms are merged into one record.
//
// docs/scaling-out.md "Locust: many load machines, slow workloads": "with --client-host, one worker per CPU of each
// load machine" and "figures merged": "Locust with workers on two load machines: http-json and rest-api verified, both
// machines took users, nothing left".
import { assert, assertEquals } from "@std/assert";
import { makeLab, netnsUnavailable } from "../_netns.ts";
import { condition, needs } from "../_needs.ts";
import { BENCH_PERMISSIONS, ROOT, waitFor } from "../_helpers.ts";
import { validateResult } from "../../runners/schema/mod.ts";
import { installDependencies } from "../../runners/platform/workspace.ts";
import { cacheDir, resolveRuntime } from "../../adapters/mod.ts";
import { ENGINE_BUN_VERSION } from "../../runners/drivers/engine.ts";
import { locustGenerator } from "../../runners/drivers/locust.ts";
import { restApi } from "../../workloads/rest_api.ts";
import type { BenchResult } from "../../runners/schema/result.ts";

const NETNS = condition("network namespaces with an sshd in each", await netnsUnavailable());
const LOCUST = condition("Locust", (await locustGenerator.available()) ? null : "python3 is missing");

/** What the namespaces cannot fetch (they have no route out) is installed first: Locust's venv, npm packages, Bun. */
async function warmCaches(): Promise<void> {
  await resolveRuntime({ name: "bun", requested: `bun@${ENGINE_BUN_VERSION}`, version: ENGINE_BUN_VERSION }, {
    cacheDir: cacheDir(),
  });
  await installDependencies(restApi.dependencies ?? {}, cacheDir());
  // client() installs Locust into rtbench's venv (pip) and names the Python it runs on.
  await locustGenerator.client!();
}

Deno.test(needs([NETNS, LOCUST], {
  name:
    "Locust with workers on two load machines: http-json and rest-api verified, both machines took users, nothing left",
  sanitizeResources: false,
  async fn() {
    await warmCaches();
    const lab = await makeLab();
    const out = `${lab.dir}/result.json`;
    try {
      const child = new Deno.Command("ip", {
        args: [
          ...["netns", "exec", lab.harness.ns, Deno.execPath(), "run", ...BENCH_PERMISSIONS, "runners/cli/bench.ts"],
          ...["--workload", "http-json,rest-api", "--variant", "default", "--runtime", "deno"],
          ...["--load-generator", "locust", "--connections", "12"],
          ...[
            "--duration",
            "2",
            "--warmup",
            "1",
            "--runs",
            "1",
            "--cpu-rate",
            "0",
            "--idle-connections",
            "0",
            "--quiet",
          ],
          ...["--server-host", "198.18.0.2", "--client-host", "198.18.0.3", "--client-host", "198.18.0.5"],
          ...["--db-host", "198.18.0.4", "--ssh-config", lab.sshConfig, "--out", out],
        ],
        cwd: ROOT,
        stdout: "piped",
        stderr: "piped",
      }).spawn();
      const done = await child.output();
      const printed = new TextDecoder().decode(done.stderr);
      const result = JSON.parse(await Deno.readTextFile(out)) as BenchResult;
      assertEquals(validateResult(result), []);
      const why = result.records.map((r) => `${r.id}: ${r.status} ${r.error?.message ?? ""}`).join("\n");
      assertEquals(done.code, 0, `${why}\n${printed.slice(-3000)}`);
      assertEquals(result.records.map((r) => [r.id, r.status]), [
        ["http-json/default/deno", "completed"],
        ["rest-api/default/deno", "completed"],
      ]);
      for (const r of result.records) {
        assertEquals(r.loadGenerator?.name, "locust");
        // Each load machine ran workers and took a share of the users; the shares add up to --connections.
        const shares = String(r.facts.clientHostConnections).split(",").map((p) => p.split("="));
        assertEquals(shares.map(([host]) => host), ["198.18.0.3", "198.18.0.5"]);
        assert(shares.every(([, n]) => Number(n) > 0), String(r.facts.clientHostConnections));
        assertEquals(shares.reduce((a, [, n]) => a + Number(n), 0), 12);
        assertEquals(r.runs[0].counts, { errors: 0, timeouts: 0, non2xx: 0, mismatches: 0 });
        assert(r.latencyUs && r.latencyUs.p50 > 0 && r.runs[0].figures.validResponses > 0, r.id);
      }
      const checks = result.records[1].verification.checks;
      assert(
        checks.filter((c) => c.name.startsWith("run 1: database:")).every((c) => c.passed),
        JSON.stringify(checks),
      );
      // Nothing left on any host but its sshd, within a few seconds.
      const hosts = Object.values(lab.hosts);
      const empty = await waitFor(
        async () => (await Promise.all(hosts.map((h) => lab.pidsIn(h.ns)))).every((p) => !p.length),
        8000,
      );
      assert(empty, "processes left on the hosts");
    } finally {
      await lab.close();
    }
  },
}));
