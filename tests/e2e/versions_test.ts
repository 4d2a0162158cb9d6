// README walk: shows claims of docs/guide.md "Runtimes" (the version policy) and docs/workloads.md (frameworks as
// deployed).
// The version policy wired end to end: without a version, node is the newest release of the Active LTS line on npm
// (not PATH's), or offline the newest cached one with a warning; node@system measures PATH's node, and an end-of-life
// one is said so in the record, the result and the overview; framework servers run with NODE_ENV=production unless
// --pass-env keeps the user's value. The local registry (tests/fixtures/npm_registry.ts) serves fake node binaries that
// only answer the version probe, so that the policy is tried offline on fixed versions and a fixed day.
// Runs alone: it sets the process's npm registry, which every file running beside it would share.
import { assert, assertEquals, assertMatch, assertStringIncludes } from "@std/assert";
import {
  activeLtsLine,
  builtinAdapters,
  dayOf,
  lastReleases,
  nodeSupport,
  npmVersions,
  releaseLine,
  resolveRuntime,
} from "../../adapters/mod.ts";
import { parseResult } from "../../runners/schema/mod.ts";
import { run } from "../_suite.ts";
import { httpJson } from "../../workloads/http_json.ts";
import { startup } from "../../workloads/startup.ts";
import { runCli, withEnv, withTmp } from "../_helpers.ts";
import { needs, NETWORK } from "../_needs.ts";
import { localRegistry } from "../fixtures/npm_registry.ts";

const NODE = { name: "node", requested: "node" };
const VERSIONS = ["20.20.2", "22.21.1", "24.11.1", "26.9.0", "26.10.0", "27.0.0-rc.1"];

// docs/guide.md (Runtimes): "`node` is the newest release of the line that is Active LTS that day … `@system` names the
// binary on this machine", and "With npm out of reach, the newest cached release is measured, and the result says so".
Deno.test("node without a version: npm's newest of the Active LTS line, not PATH's; offline, the newest cached", async () => {
  await withTmp(async (tmp) => {
    const cacheDir = `${tmp}/cache`;
    await using registry = await localRegistry(tmp, VERSIONS, "node");
    const npm = registry.npmEnv;
    const day = "2026-11-28";
    const rt = await withEnv(npm, () => resolveRuntime(NODE, { cacheDir, day }));
    assertEquals([rt.version, rt.source, rt.selection], ["26.10.0", "provisioned", "active-lts"]);
    assertEquals(rt.release, {
      line: "26",
      status: "active-lts",
      since: "2026-10-28",
      lineReleased: "2026-05-05",
      asOf: day,
      source: rt.release!.source,
    });
    assertMatch(rt.release!.source, /^node-releases \d+\.\d+\.\d+$/);
    assertEquals(Object.fromEntries(registry.downloads), { "26.10.0": 1 }, "one download, the version chosen");
    // An older release in the cache too; then npm out of reach: the newest cached of line 26, with the warning.
    await withEnv(npm, () => resolveRuntime({ ...NODE, version: "20.20.2", requested: "node@20.20.2" }, { cacheDir }));
    const offline = await withEnv(
      { ...npm, npm_config_registry: "http://127.0.0.1:9/" },
      () => resolveRuntime(NODE, { cacheDir, day }),
    );
    assertEquals([offline.version, offline.source, offline.selection], ["26.10.0", "cache", "cached"]);
    assertEquals(offline.warnings?.map((w) => w.code), ["release-offline"]);
    assertMatch(offline.warnings![0].message, /^node 26\.10\.0 is the newest cached release of its line 26 /);
    assertStringIncludes(offline.warnings![0].message, "ECONNREFUSED");
  });
});

/** PATH's node: its exact version. */
async function pathNode(): Promise<string> {
  const out = await new Deno.Command("node", { args: ["-p", "process.versions.node"], stdout: "piped" }).output();
  return new TextDecoder().decode(out.stdout).trim();
}

// docs/guide.md (Runtimes): "`node@system` measures the node on PATH … A result that compares a runtime past its end
// of life says so under the overview".
Deno.test("bench --runtime node@system measures PATH's node; its line and support head the overview, end of life warned", async () => {
  await withTmp(async (tmp) => {
    const out = `${tmp}/r.json`;
    const cli = await runCli(
      ["--workload", "startup", "--variant", "hello", "--runtime", "node@system", "--runs", "1", "--out", out],
      { TMPDIR: tmp },
    );
    assertEquals(cli.code, 0, cli.stderr);
    const result = parseResult(await Deno.readTextFile(out));
    const [record] = result.records;
    const version = await pathNode();
    const line = releaseLine("node", version);
    const support = nodeSupport(line, dayOf(new Date(result.startedAt)));
    assertEquals([record.runtime.version, record.runtime.source, record.runtime.selection], [
      version,
      "path",
      "system",
    ]);
    assertEquals([record.runtime.release?.line, record.runtime.release?.status], [line, support.status]);
    const header = cli.stdout.split("\n").find((l) => l.startsWith("workload "))!;
    const status = support.status === "end-of-life" ? `end of life since ${support.since}` : support.status;
    assertStringIncludes(header, `node ${version} (line ${line}, `);
    const eol = result.warnings.filter((w) => w.code === "end-of-life");
    if (support.status === "end-of-life") {
      // Node.js 20 on these machines: ended 2026-04-30.
      assertStringIncludes(header, status);
      assertEquals(eol.length, 1, JSON.stringify(result.warnings));
      assertMatch(eol[0].message, new RegExp(`^node ${version.replaceAll(".", "\\.")} is past its end of life`));
      const under = cli.stdout.indexOf(`• ⚠ ${eol[0].message}`);
      assert(under > cli.stdout.indexOf(header) && under < cli.stdout.indexOf("Each cell:"), cli.stdout);
    } else {
      assertEquals(eol, []);
    }
  });
});

// docs/guide.md (Runtimes): the default suite measures "the Node.js a user would deploy today".
Deno.test(needs(NETWORK, {
  name: "without --runtime, node is npm's newest of the Active LTS line, deno and bun the latest, none past its end",
  async fn() {
    const result = await run({
      workloads: [startup],
      variants: ["hello"],
      settings: { runs: 1, durationSec: 0.1 },
      options: { "warmup-runs": 0 },
    });
    const day = dayOf(new Date(result.startedAt));
    const runtimes = Object.fromEntries(result.records.map((r) => [r.runtime.name, r.runtime]));
    assertEquals(Object.keys(runtimes), ["deno", "node", "bun"]);
    assertEquals(releaseLine("node", runtimes.node.version!), activeLtsLine(day));
    assertEquals([runtimes.node.selection, runtimes.node.release?.status], ["active-lts", "active-lts"]);
    assert(runtimes.node.source !== "path", "not PATH's node");
    for (const name of ["deno", "bun"]) {
      assertEquals([runtimes[name].selection, runtimes[name].release?.status], ["latest", "latest"]);
    }
    assertEquals(result.warnings.filter((w) => w.code === "end-of-life" || w.code === "release-age"), []);
    for (const r of result.records) assertEquals(r.status, "completed", JSON.stringify(r.error));
  },
}));

/** The environment of the servers of a one-run Express suite on PATH's node. */
async function expressServerEnv(passEnv: string[] = []): Promise<Readonly<Record<string, string>>> {
  const result = await run({
    workloads: [httpJson],
    variants: ["express"],
    runtimes: ["node@system"],
    settings: { runs: 1, durationSec: 0.3, warmupSec: 0.2, cpuRate: 0, idleConnections: 0 },
    passEnv,
  });
  const [record] = result.records;
  assertEquals(record.status, "completed", JSON.stringify(record.error));
  assertEquals(record.facts.framework, "express");
  return record.processes!.find((p) => p.role === "server")!.env;
}

// docs/workloads.md (frameworks): "every framework's server runs with NODE_ENV=production … --pass-env NODE_ENV keeps
// yours".
Deno.test("framework servers run with NODE_ENV=production, recorded with the server; --pass-env NODE_ENV keeps yours", async () => {
  assertEquals((await expressServerEnv()).NODE_ENV, "production");
  const kept = await withEnv({ NODE_ENV: "development" }, () => expressServerEnv(["NODE_ENV"]));
  assertEquals(kept.NODE_ENV, "development");
});

// docs/guide.md (version sweeps): `--last` asks the registry npm is configured with.
Deno.test("--last asks the registry npm is configured with for the runtime's releases", async () => {
  await withTmp(async (tmp) => {
    await using registry = await localRegistry(tmp, ["1.2.0", "1.2.23", "1.3.0", "1.3.14", "1.4.0", "1.4.5"]);
    const [adapter] = builtinAdapters.filter((a) => a.name === "bun");
    const versions = await withEnv(registry.npmEnv, () => npmVersions(adapter));
    assertEquals(lastReleases("bun", versions, 2), ["1.3.14", "1.4.5"]);
  });
});
