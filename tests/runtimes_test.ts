// README walk: shows claims of README "Runtimes": PATH, the harness's own Deno, npm provisioning into the cache and reuse, errored when it cannot be had.
// Runtime resolution: PATH, the harness itself, npm provisioning into the cache
// with reuse, and a runtime that cannot be had recorded as errored.
import { cacheDir } from "../adapters/_cache.ts";
import { assert, assertEquals, assertMatch, assertRejects } from "@std/assert";
import { bun, deno, node, resolveRuntime } from "../adapters/mod.ts";
import { run } from "../runners/suite/run.ts";
import { httpJson } from "../workloads/http_json.ts";
import { privateTmp } from "./_helpers.ts";
import { RequestError } from "../runners/platform/errors.ts";

Deno.test("deno without a version is the harness itself", async () => {
  const rt = await resolveRuntime({ name: "deno", requested: "deno" });
  assertEquals(rt.source, "harness");
  assertEquals(rt.binary, Deno.execPath());
  assertEquals(rt.version, Deno.version.deno);
  assertEquals(rt.engine, "V8");
  assertEquals(rt.engineVersion, Deno.version.v8);
});

Deno.test("node from PATH reports its exact version and V8 version", async () => {
  const rt = await resolveRuntime({ name: "node", requested: "node" });
  assertEquals(rt.source, "path");
  assertMatch(rt.version, /^\d+\.\d+\.\d+$/);
  assertMatch(rt.engineVersion ?? "", /^\d+\.\d+\.\d+/);
});

Deno.test("bun@1.2.0 is provisioned from npm into the cache, then reused", async () => {
  const cache = await privateTmp();
  try {
    const first = await resolveRuntime({ name: "bun", version: "1.2.0", requested: "bun@1.2.0" }, { cacheDir: cache });
    assertEquals(first.source, "provisioned");
    assertEquals(first.version, "1.2.0");
    assertEquals(first.engine, "JavaScriptCore");
    assert(first.binary.startsWith(cache), `${first.binary} is inside the cache`);
    const again = await resolveRuntime({ name: "bun", version: "1.2.0", requested: "bun@1.2.0" }, { cacheDir: cache });
    assertEquals(again.source, "cache");
    assertEquals(again.binary, first.binary);
    // No half-finished install directories are left next to it.
    const names = [...Deno.readDirSync(`${cache}/runtimes`)].map((e) => e.name);
    assertEquals(names, ["bun@1.2.0"]);
  } finally {
    await Deno.remove(cache, { recursive: true });
  }
});

Deno.test("a missing runtime with provisioning off fails with a clear reason", async () => {
  const cache = await privateTmp();
  const path = Deno.env.get("PATH")!;
  Deno.env.set("PATH", "/nonexistent");
  try {
    await assertRejects(
      () => resolveRuntime({ name: "bun", requested: "bun" }, { cacheDir: cache, provision: false }),
      Error,
      "Cannot find bun on PATH",
    );
  } finally {
    Deno.env.set("PATH", path);
    await Deno.remove(cache, { recursive: true });
  }
});

Deno.test("a runtime version npm does not have is refused before anything runs, naming the field", async () => {
  const cache = await privateTmp();
  try {
    const error = await assertRejects(
      () =>
        run({
          workloads: [httpJson],
          runtimes: ["bun@0.0.0-no-such-version", "node"],
          settings: { durationSec: 0.5, warmupSec: 0, runs: 1 },
          cacheDir: cache,
          onPartial: () => {
            throw new Error("nothing may be written for a refused request");
          },
        }),
      RequestError,
      "runtimes: bun@0.0.0-no-such-version: no such version (npm has no bun@0.0.0-no-such-version;",
    );
    assertEquals(error.field, "runtimes");
  } finally {
    await Deno.remove(cache, { recursive: true });
  }
});

Deno.test("a runtime that cannot be had is errored in the results and the others still run", async () => {
  // A bun whose npm package does not exist: npm answers 404 for the package (not "no such version", which is bad
  // input), a runtime that cannot be had.
  const missing = { ...bun, npmPackage: "rtbench-test-no-such-package-7f3e", detect: () => Promise.resolve(undefined) };
  const result = await run({
    workloads: [httpJson],
    runtimes: ["bun@1.0.0-rtbench-test", "node"],
    adapters: [deno, node, missing],
    settings: { durationSec: 0.5, warmupSec: 0, runs: 1 },
  });
  const [bunRecord, nodeRecord] = result.records;
  assertEquals([bunRecord.status, bunRecord.error?.phase], ["errored", "provision"]);
  assertMatch(bunRecord.error!.message, /^Cannot provision bun@1\.0\.0-rtbench-test from npm: 404 Not Found/);
  assertEquals(bunRecord.runtime.version, null);
  assertEquals(nodeRecord.status, "completed");
});

// README (Runtimes): "into `~/.cache/rtbench/runtimes/` (`$RTBENCH_CACHE_DIR` or `$XDG_CACHE_HOME/rtbench` if set)".
Deno.test("the cache is $RTBENCH_CACHE_DIR, else $XDG_CACHE_HOME/rtbench, else ~/.cache/rtbench", () => {
  const saved = Object.fromEntries(["RTBENCH_CACHE_DIR", "XDG_CACHE_HOME", "HOME"].map((k) => [k, Deno.env.get(k)]));
  try {
    Deno.env.set("HOME", "/home/u");
    Deno.env.delete("RTBENCH_CACHE_DIR");
    Deno.env.delete("XDG_CACHE_HOME");
    assertEquals(cacheDir(), "/home/u/.cache/rtbench");
    Deno.env.set("XDG_CACHE_HOME", "/xdg");
    assertEquals(cacheDir(), "/xdg/rtbench");
    Deno.env.set("RTBENCH_CACHE_DIR", "/explicit");
    assertEquals(cacheDir(), "/explicit");
  } finally {
    for (const [k, v] of Object.entries(saved)) v === undefined ? Deno.env.delete(k) : Deno.env.set(k, v);
  }
});
