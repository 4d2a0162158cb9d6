// README walk: shows claims of docs/workloads.md "Process and in-process workloads" (install).
// The install workload, offline: a manifest of local tarballs installed by npm,
// bun install and deno install in every cache scenario, each manager's cache in
// rtbench's temporary folder (the user's home stays untouched), the tree
// verified; an unreachable registry errors with the reason; bad flags exit 2.
import { assert, assertEquals, assertMatch } from "@std/assert";
import { cacheDir } from "../../adapters/_cache.ts";
import { parseResult } from "../../runners/schema/mod.ts";
import { countPackages, tarballManifest } from "../../workloads/_install_tree.ts";
import { assertNothingLeft, entries, ROOT, runCli, withTmp } from "../_helpers.ts";

const OFFLINE = `${ROOT}fixtures/install/offline/package.json`;
// The harness's own Deno cache, so that a test with another HOME still finds rtbench's modules.
const DENO_DIR = JSON.parse(
  new TextDecoder().decode(
    new Deno.Command(Deno.execPath(), { args: ["info", "--json"], stdout: "piped" }).outputSync().stdout,
  ),
).denoDir as string;
const NO_REGISTRY = "http://127.0.0.1:9/";

Deno.test("install of local tarballs: npm and bun verified in every scenario, deno invalid, no cache outside rtbench's temp", async () => {
  await withTmp(async (tmp) => {
    const home = `${tmp}/home`;
    await Deno.mkdir(home);
    const out = `${tmp}/r.json`;
    const cli = await runCli(
      [
        "--workload",
        "install",
        "--runtime",
        // npm as PATH's node carries it: the test reaches no registry, so no Node.js release is fetched.
        "node@system,bun,deno",
        "--install-manifest",
        OFFLINE,
        "--runs",
        "2",
        "--out",
        out,
      ],
      // A home of its own shows that no manager writes to the user's caches; no registry is reachable.
      { TMPDIR: tmp, HOME: home, DENO_DIR, RTBENCH_CACHE_DIR: cacheDir(), npm_config_registry: NO_REGISTRY },
    );
    const result = parseResult(await Deno.readTextFile(out));
    assertEquals(result.records.length, 9, cli.stderr);
    // docs/workloads.md (install): "`deno install` links a `file:` tarball instead of unpacking it, so such a manifest
    // is `invalid` on Deno": the tree check finds none of the three packages installed, in every scenario.
    const deno = result.records.filter((r) => r.runtime.name === "deno");
    assertEquals(deno.map((r) => [r.variant, r.status]), [
      ["cold", "invalid"],
      ["warm-lockfile", "invalid"],
      ["warm-no-node-modules", "invalid"],
    ]);
    for (const record of deno) {
      for (const n of ["alpha", "beta", "gamma"]) {
        assertMatch(record.error!.message, new RegExp(`installed rtbench-fixture-${n}: got "not installed"`));
      }
    }
    for (const record of result.records.filter((r) => r.runtime.name !== "deno")) {
      assertEquals(record.status, "completed", `${record.id}: ${JSON.stringify(record.error)}`);
      assertEquals(record.runs.length, 2);
      const names = ["alpha", "beta", "gamma"].map((n) => `installed rtbench-fixture-${n}`);
      for (const name of names) {
        assert(record.verification.checks.some((c) => c.name === name && c.passed && c.actual === "1.2.3"), name);
      }
      assertEquals(record.summary.packagesInstalled.median, 3);
      assertEquals(record.facts.directDependencies, 3);
      assertMatch(String(record.facts.registry), /unused: every dependency is a local file/);
      assertEquals(record.facts.cacheState, record.variant === "cold" ? "empty" : "warm");
      const manager = { node: "npm", bun: "bun" }[record.runtime.name];
      assertEquals(record.facts.packageManager, manager);
      assertMatch(String(record.facts.packageManagerVersion), /^\d+\.\d+\.\d+/);
    }
    const npmWarm = result.records.find((r) => r.id === "install/warm-lockfile/node@system")!;
    assertEquals(npmWarm.facts.lockfile, "package-lock.json", "the lockfile from the first install is reused");
    // docs/workloads.md "Process and in-process workloads": the warm scenarios start from what the cold scenario's last
    // run left.
    for (const record of result.records.filter((r) => r.variant !== "cold" && r.status === "completed")) {
      assertEquals(record.facts.cacheFilledBy, "the cold variant's last run", record.id);
    }
    assertEquals(result.records.find((r) => r.id === "install/cold/bun")!.facts.lockfile, null);
    assertMatch(cli.stdout, /^install \(cold\) · timer \w+ · ≥2 runs after 0 warm-ups/m);
    assertEquals(await entries(home), [], "nothing written to the home directory");
    await assertNothingLeft(tmp, ["home", "r.json"]);
  });
});

Deno.test("install's warm scenarios alone: one untimed install fills the cache, shared by both", async () => {
  await withTmp(async (tmp) => {
    const out = `${tmp}/r.json`;
    const cli = await runCli(
      [
        "--workload=install",
        "--runtime=node",
        "--variant=warm-lockfile,warm-no-node-modules",
        "--install-manifest",
        OFFLINE,
        "--out",
        out,
      ],
      { TMPDIR: tmp, npm_config_registry: NO_REGISTRY },
    );
    const result = parseResult(await Deno.readTextFile(out));
    assertEquals(result.records.map((r) => [r.id, r.status]), [
      ["install/warm-lockfile/node", "completed"],
      ["install/warm-no-node-modules/node", "completed"],
    ], cli.stderr);
    for (const record of result.records) {
      // warm-no-node-modules starts from the install made for warm-lockfile: one install, not two.
      assertEquals(record.facts.cacheFilledBy, "an untimed install before the warm-lockfile runs");
      assertEquals(record.facts.lockfile, "package-lock.json");
    }
    assertEquals((await entries(tmp)).sort(), ["r.json"]);
  });
});

Deno.test("install with the registry unreachable is errored with the reason, and the suite goes on", async () => {
  await withTmp(async (tmp) => {
    const out = `${tmp}/r.json`;
    const cli = await runCli(
      ["--workload", "install", "--variant", "cold", "--runtime", "node,bun", "--out", out],
      { TMPDIR: tmp, npm_config_registry: NO_REGISTRY },
    );
    assertEquals(cli.code, 1, cli.stderr);
    const result = parseResult(await Deno.readTextFile(out));
    assertEquals(result.records.length, 2);
    for (const record of result.records) {
      assertEquals(record.status, "errored");
      assertEquals(record.error?.phase, "setup");
      assertMatch(
        record.error!.message,
        /^Cannot reach the npm registry http:\/\/127\.0\.0\.1:9\/ \(from npm config\)/,
      );
    }
    assertMatch(cli.stdout, /ERRORED .*Cannot reach the npm registry/);
    assertEquals(await entries(tmp), ["r.json"]);
  });
});

Deno.test("a missing manifest or an unknown package manager exits 2 naming the flag", async () => {
  const missing = await runCli(["--workload", "install", "--install-manifest", "/nonexistent/package.json"]);
  assertEquals(missing.code, 2);
  assertEquals(missing.stderr.trim().split("\n").length, 1);
  assertMatch(missing.stderr, /^rtbench: --install-manifest: cannot read \/nonexistent\/package\.json/);
  const manager = await runCli(["--workload", "install", "--package-manager", "cargo"]);
  assertEquals(manager.code, 2);
  assertMatch(manager.stderr, /^rtbench: --package-manager: unknown package manager "cargo" \(allowed: native, npm/);
});

Deno.test("a tarball's package.json is read without unpacking, and a tree is counted once per package", async () => {
  const manifest = await tarballManifest(`${ROOT}fixtures/install/offline/rtbench-fixture-beta-1.2.3.tgz`);
  assertEquals([manifest?.name, manifest?.version], ["rtbench-fixture-beta", "1.2.3"]);
  await withTmp(async (tmp) => {
    const nm = `${tmp}/node_modules`;
    for (const dir of ["a", "@s/b", "a/node_modules/c", ".pnpm/d@1/node_modules/d", ".bin"]) {
      await Deno.mkdir(`${nm}/${dir}`, { recursive: true });
      if (dir !== ".bin") await Deno.writeTextFile(`${nm}/${dir}/package.json`, "{}");
    }
    await Deno.symlink(`${nm}/.pnpm/d@1/node_modules/d`, `${nm}/d`);
    assertEquals(await countPackages(nm), 4, "a, @s/b, c and d (linked twice)");
  });
});
