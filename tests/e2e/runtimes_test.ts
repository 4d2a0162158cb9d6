// README walk: shows claims of docs/guide.md "Runtimes": @system (PATH, the harness's own Deno), npm provisioning into the cache and reuse, errored when it cannot be had.
// Runtime resolution: @system (PATH, the harness itself), npm provisioning into the cache with reuse, and a runtime
// that cannot be had recorded as errored. The default version policy is tried in versions_test.ts.
// Runs alone: it sets the process's PATH and npm registry, which every file running beside it would share.
import { cacheDir } from "../../adapters/_cache.ts";
import { assert, assertEquals, assertMatch, assertRejects } from "@std/assert";
import { bun, deno, node, resolveRuntime } from "../../adapters/mod.ts";
import { RequestError } from "../../runners/base/mod.ts";
import { run } from "../_suite.ts";
import { startup } from "../../workloads/startup.ts";
import { withEnv, withTmp } from "../_helpers.ts";
import { needs, NETWORK } from "../_needs.ts";
import { localRegistry } from "../fixtures/npm_registry.ts";

Deno.test("deno@system is the harness itself", async () => {
  const rt = await resolveRuntime({ name: "deno", version: "system", requested: "deno@system" });
  assertEquals(rt.source, "harness");
  assertEquals(rt.binary, Deno.execPath());
  assertEquals(rt.version, Deno.version.deno);
  assertEquals(rt.engine, "V8");
  assertEquals(rt.engineVersion, Deno.version.v8);
});

Deno.test("node@system is PATH's node: its exact version and V8 version", async () => {
  const rt = await resolveRuntime({ name: "node", version: "system", requested: "node@system" });
  assertEquals(rt.source, "path");
  assertMatch(rt.version, /^\d+\.\d+\.\d+$/);
  assertMatch(rt.engineVersion ?? "", /^\d+\.\d+\.\d+/);
});

/** Resolves bun@1.2.0 twice into `cache`: provisioned from npm's configured registry, then found in the cache. */
async function provisionedThenReused(cache: string): Promise<string> {
  const spec = { name: "bun", version: "1.2.0", requested: "bun@1.2.0" };
  const first = await resolveRuntime(spec, { cacheDir: cache });
  assertEquals([first.source, first.version, first.engine], ["provisioned", "1.2.0", "JavaScriptCore"]);
  assert(first.binary.startsWith(cache), `${first.binary} is inside the cache`);
  const again = await resolveRuntime(spec, { cacheDir: cache });
  assertEquals([again.source, again.binary], ["cache", first.binary]);
  // No half-finished install directories are left next to it.
  assertEquals([...Deno.readDirSync(`${cache}/runtimes`)].map((e) => e.name), ["bun@1.2.0"]);
  return first.binary;
}

// Offline: npm installs from a registry on this machine (tests/fixtures/npm_registry.ts), whose bun only answers the
// version probe; the provisioning path (npm install into a staging folder, renamed into the cache, reused) is rtbench's.
Deno.test("bun@1.2.0 is provisioned through npm into the cache, then reused without downloading it again", async () => {
  await withTmp(async (tmp) => {
    await using registry = await localRegistry(tmp, ["1.1.0", "1.2.0"]);
    await withEnv(registry.npmEnv, () => provisionedThenReused(`${tmp}/cache`));
    assertEquals(Object.fromEntries(registry.downloads), { "1.2.0": 1 }, "one download, the version asked for");
  });
});

// The opt-in install from the real registry (RTBENCH_TEST_NETWORK=1; .ci/run sets it).
Deno.test(needs(NETWORK, {
  name: "bun@1.2.0 is provisioned from registry.npmjs.org into the cache, then reused, and runs",
  async fn() {
    await withTmp(async (cache) => {
      const binary = await provisionedThenReused(cache);
      const out = await new Deno.Command(binary, { args: ["-p", "1 + 1"], stdout: "piped" }).output();
      assertEquals(new TextDecoder().decode(out.stdout).trim(), "2", "the real Bun 1.2.0 runs");
    });
  },
}));

Deno.test("a runtime missing from PATH or the cache fails with a clear reason", async () => {
  await withTmp(async (cache) => {
    await withEnv({ PATH: "/nonexistent" }, async () => {
      await assertRejects(
        () => resolveRuntime({ name: "bun", version: "system", requested: "bun@system" }, { cacheDir: cache }),
        Error,
        "Cannot find bun on PATH (bun@system measures the one on this machine",
      );
      await assertRejects(
        () =>
          resolveRuntime({ name: "bun", version: "1.2.0", requested: "bun@1.2.0" }, {
            cacheDir: cache,
            provision: false,
          }),
        Error,
        "Cannot find bun@1.2.0 in the cache and provisioning is off",
      );
    });
  });
});

// docs/guide.md (Runtimes): "A version npm does not have is bad input, refused before anything runs".
Deno.test("a runtime version npm does not have is refused before anything runs, naming the field", async () => {
  await withTmp(async (tmp) => {
    await using registry = await localRegistry(tmp, ["1.2.0"]);
    const error = await withEnv(registry.npmEnv, () =>
      assertRejects(
        () =>
          run({
            workloads: [startup],
            variants: ["hello"],
            runtimes: ["bun@0.0.0-no-such-version", "node@system"],
            cacheDir: `${tmp}/cache`,
            onPartial: () => {
              throw new Error("nothing may be written for a refused request");
            },
          }),
        RequestError,
        "runtimes: bun@0.0.0-no-such-version: no such version (npm has no bun@0.0.0-no-such-version;",
      ));
    assertEquals(error.field, "runtimes");
    assertEquals([...Deno.readDirSync(`${tmp}/cache/runtimes`)], [], "no half-finished install kept");
  });
});

// docs/guide.md (Runtimes): "a runtime that cannot be had for another reason is recorded as `errored` with the reason,
// and the others still run".
Deno.test("a runtime that cannot be had is errored in the results and the others still run", async () => {
  await withTmp(async (tmp) => {
    await using registry = await localRegistry(tmp, ["1.2.0"]);
    // A bun whose npm package the registry does not have: no bad input (the version was not the problem), a runtime
    // that cannot be had.
    const missing = { ...bun, npmPackage: "rtbench-test-no-such-package" };
    const result = await withEnv(registry.npmEnv, () =>
      run({
        // A workload that needs nothing from npm but the runtime.
        workloads: [startup],
        variants: ["hello"],
        runtimes: ["bun@1.2.0", "node@system"],
        adapters: [deno, node, missing],
        settings: { runs: 1, durationSec: 0.001 },
        options: { "warmup-runs": 0 },
        cacheDir: `${tmp}/cache`,
      }));
    const [bunRecord, nodeRecord] = result.records;
    assertEquals([bunRecord.status, bunRecord.error?.phase], ["errored", "provision"]);
    assertMatch(bunRecord.error!.message, /^Cannot provision bun@1\.2\.0 from npm: /);
    assertEquals(bunRecord.runtime.version, null);
    assertEquals(nodeRecord.status, "completed", JSON.stringify(nodeRecord.error));
    assertEquals([...Deno.readDirSync(`${tmp}/cache/runtimes`)], [], "no half-finished install kept");
  });
});

// docs/guide.md (Runtimes): "into `~/.cache/rtbench/runtimes/` (`$RTBENCH_CACHE_DIR` or `$XDG_CACHE_HOME/rtbench` if
// set)".
Deno.test("the cache is $RTBENCH_CACHE_DIR, else $XDG_CACHE_HOME/rtbench, else ~/.cache/rtbench", () => {
  withEnv({ HOME: "/home/u", RTBENCH_CACHE_DIR: undefined, XDG_CACHE_HOME: undefined }, () => {
    assertEquals(cacheDir(), "/home/u/.cache/rtbench");
    withEnv({ XDG_CACHE_HOME: "/xdg" }, () => assertEquals(cacheDir(), "/xdg/rtbench"));
    withEnv({ XDG_CACHE_HOME: "/xdg", RTBENCH_CACHE_DIR: "/explicit" }, () => assertEquals(cacheDir(), "/explicit"));
  });
});
