/**
 * Runtime adapters, the version policy and the one place where `--runtime`
 * entries become runtime binaries: without a version, the release a user would
 * deploy today, from npm (Node.js: the newest of the Active LTS line, read
 * from its release schedule); `@system`, the one on this machine; any other
 * version, provisioned from npm into the cache. One small
 * adapter per runtime ({@linkcode deno}, {@linkcode node}, {@linkcode bun})
 * implements {@linkcode RuntimeAdapter}; pass your own to `run()` as
 * `adapters` to benchmark another runtime.
 *
 * @example Parse a runtime list and look at the adapters
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { builtinAdapters, parseRuntimeSpecs } from "@rtbench/rtbench/adapters";
 *
 * assertEquals(parseRuntimeSpecs("deno,node@22").map((s) => s.version), [undefined, "22"]);
 * assertEquals(builtinAdapters.map((a) => a.engine), ["V8", "V8", "JavaScriptCore", "Go (gc)", "Rust (rustc, LLVM)"]);
 * ```
 *
 * @example Resolve the Deno running this code
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { resolveRuntime } from "@rtbench/rtbench/adapters";
 *
 * const deno = await resolveRuntime({ name: "deno", version: "system", requested: "deno@system" });
 * assertEquals(deno.version, Deno.version.deno);
 * ```
 *
 * @module
 */

import { RequestError, type RuntimeVariable } from "../runners/platform/mod.ts";
import { cacheDir } from "./_cache.ts";
import { LIBC_VARIABLES } from "./_libc_variables.ts";
import { MissingToolchainError } from "./_native_build.ts";
import { builtinAdapters } from "./builtin.ts";
import { bun } from "./bun.ts";
import { deno } from "./deno.ts";
import { go } from "./go.ts";
import { node } from "./node.ts";
import { rust } from "./rust.ts";
import type { RuntimeAdapter, RuntimeSpec } from "./types.ts";

export type {
  InstallCommand,
  Listen,
  PackageManager,
  ParallelServer,
  ResolvedRuntime,
  RuntimeAdapter,
  RuntimeSource,
  RuntimeSpec,
  RuntimeVersion,
  ServerBuild,
  TypeScriptRun,
} from "./types.ts";
export type { RuntimeVariable } from "../runners/platform/mod.ts";
export { nodePackageManager, npmManager, PACKAGE_MANAGER_NAMES } from "./package_managers.ts";
export { lastReleases, lastReleasesOf, type NpmReleases, npmReleases, npmVersions, releaseLine } from "./releases.ts";
export {
  activeLtsLine,
  NODE_SCHEDULE,
  NODE_SCHEDULE_SOURCE,
  type NodeSchedule,
  nodeSupport,
  type ScheduledLine,
  type Support,
} from "./node_schedule.ts";
export {
  cachedChoice,
  dayOf,
  type DefaultChoice,
  defaultChoice,
  RELEASE_AGE_GAP_DAYS,
  releaseOf,
  releaseWarnings,
} from "./version_policy.ts";
export { type ReleaseLookup, type ResolveOptions, resolveRuntime } from "./resolve.ts";
export { builtinAdapters };
export { bun, deno, go, node, rust };
export { MissingToolchainError };
export { cacheDir };

/**
 * The variables known to change a runtime: each adapter's {@linkcode RuntimeAdapter.variables}, then the C
 * library's and the time zone's, which every runtime reads; a name listed twice (an adapter built from another with
 * `...node`) counts once, its first entry. rtbench gives none of them to a runtime unless `--pass-env` names it, and
 * a result's `environment.variables` says what became of each one set in rtbench's environment.
 *
 * @param adapters The adapters of the runtimes a suite may run.
 * @returns One entry per name; which entry a variable falls under does not depend on their order.
 *
 * @example Node.js's NODE_OPTIONS, Bun's JavaScriptCore options, glibc's malloc
 * ```ts
 * import { assert } from "@std/assert";
 * import { runtimeVariables } from "@rtbench/rtbench/adapters";
 *
 * const names = runtimeVariables().map((v) => v.name);
 * assert(["NODE_OPTIONS", "BUN_JSC_*", "MALLOC_*"].every((name) => names.includes(name)));
 * ```
 */
export function runtimeVariables(adapters: readonly RuntimeAdapter[] = builtinAdapters): RuntimeVariable[] {
  const byName = new Map<string, RuntimeVariable>();
  for (const entry of [...adapters.flatMap((a) => a.variables ?? []), ...LIBC_VARIABLES]) {
    if (!byName.has(entry.name)) byName.set(entry.name, entry);
  }
  return [...byName.values()];
}

/**
 * The server of a workload for a runtime, by the one convention every workload follows:
 * `servers/<runtime>/<workload><ext>`, the extension being the adapter's
 * {@linkcode RuntimeAdapter.serverExtension}. A runtime has a server for a workload when that file exists.
 *
 * @param runtime The runtime's name, for example `node`.
 * @param workload The server's base name, for example `http_json`.
 * @param adapters The adapters that know their runtime's extension.
 * @returns The file's URL, or undefined when the runtime is not one of `adapters` or has no such file.
 *
 * @example Node.js's and Go's http-json servers
 * ```ts
 * import { assert, assertEquals } from "@std/assert";
 * import { serverFile } from "@rtbench/rtbench/adapters";
 *
 * assert(serverFile("node", "http_json")?.pathname.endsWith("/servers/node/http_json.mjs"));
 * assert(serverFile("go", "http_json")?.pathname.endsWith("/servers/go/http_json.go"));
 * assertEquals(serverFile("go", "bcrypt"), undefined);
 * ```
 */
export function serverFile(
  runtime: string,
  workload: string,
  adapters: readonly RuntimeAdapter[] = builtinAdapters,
): URL | undefined {
  const adapter = adapters.find((a) => a.name === runtime);
  if (!adapter) return undefined;
  const url = new URL(`../servers/${adapter.name}/${workload}${adapter.serverExtension}`, import.meta.url);
  // Served from a registry, the files cannot be listed: the convention is taken on trust.
  if (url.protocol !== "file:") return url;
  try {
    return Deno.statSync(url).isFile ? url : undefined;
  } catch (e) {
    if (e instanceof Deno.errors.NotFound) return undefined;
    throw e;
  }
}

/**
 * The runtimes measured when `--runtime` is not given: every adapter but the native baselines, which are built
 * from source and asked for by name (`--runtime deno,node,bun,go,rust`).
 *
 * @param adapters The adapters to choose from.
 * @returns Their names, baselines left out.
 *
 * @example The default runtimes
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { defaultRuntimeNames } from "@rtbench/rtbench/adapters";
 *
 * assertEquals(defaultRuntimeNames(), ["deno", "node", "bun"]);
 * ```
 */
export function defaultRuntimeNames(adapters: readonly RuntimeAdapter[] = builtinAdapters): string[] {
  return adapters.filter((a) => !a.baseline).map((a) => a.name);
}

/**
 * Parses a `--runtime` value such as `deno,node,bun@1.2.0` into specs.
 * Throws {@linkcode RequestError} naming the field (`runtimes`) for an unknown runtime.
 *
 * @param value The `--runtime` value: names, each optionally `@version` or `@range`, comma-separated.
 * @param adapters The adapters whose names are allowed.
 * @returns One spec per distinct entry, in order.
 *
 * @example Parse a runtime list
 * ```ts
 * import { parseRuntimeSpecs } from "./mod.ts";
 * const specs = parseRuntimeSpecs("node,bun@1.2.0");
 * console.log(specs[1]); // { name: "bun", version: "1.2.0", requested: "bun@1.2.0" }
 * ```
 */
export function parseRuntimeSpecs(
  value: string,
  adapters: readonly RuntimeAdapter[] = builtinAdapters,
): RuntimeSpec[] {
  const names = adapters.map((a) => a.name);
  const specs: RuntimeSpec[] = [];
  for (const raw of value.split(",").map((s) => s.trim()).filter(Boolean)) {
    const at = raw.indexOf("@");
    const name = (at === -1 ? raw : raw.slice(0, at)).toLowerCase();
    const version = at === -1 ? undefined : raw.slice(at + 1);
    if (!names.includes(name)) {
      throw new RequestError("runtimes", `: unknown runtime "${name}" (allowed: ${names.join(", ")})`);
    }
    if (version !== undefined && !/^[A-Za-z0-9.^~<>=*|-][A-Za-z0-9. ^~<>=*|-]*$/.test(version)) {
      throw new RequestError(
        "runtimes",
        `: bad version "${version}" for ${name} (use a version or npm range, e.g. ${name}@1.2.0)`,
      );
    }
    const adapter = adapters.find((a) => a.name === name);
    if (version !== undefined && adapter?.howToGet) {
      throw new RequestError(
        "runtimes",
        `: ${raw}: rtbench builds ${name} servers with this machine's toolchain (ask for ${name})`,
      );
    }
    if (specs.some((s) => s.requested === raw)) continue;
    specs.push(version === undefined ? { name, requested: raw } : { name, version, requested: raw });
  }
  if (specs.length === 0) throw new RequestError("runtimes", `: no runtime given (allowed: ${names.join(", ")})`);
  return specs;
}
