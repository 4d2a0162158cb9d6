/**
 * The one place where a `--runtime` entry becomes a runtime binary, by the
 * version policy of `version_policy.ts`: `node`, `deno` and `bun` without a
 * version are the releases a user would deploy today, from npm (the Deno
 * running rtbench stands in for its own version); `<runtime>@system` is the
 * binary on this machine; `<runtime>@<version or range>` is provisioned from
 * npm into the cache and reused.
 *
 * @module
 */

import { RequestError } from "../runners/platform/mod.ts";
import type { Warning } from "../runners/schema/mod.ts";
import { cacheDir } from "./_cache.ts";
import { MissingToolchainError } from "./_native_build.ts";
import { cachedVersions, provisionFromNpm } from "./_provision.ts";
import { builtinAdapters } from "./builtin.ts";
import { type NpmReleases, npmReleases } from "./releases.ts";
import type { ResolvedRuntime, RuntimeAdapter, RuntimeSource, RuntimeSpec } from "./types.ts";
import { cachedChoice, dayOf, defaultChoice, releaseOf } from "./version_policy.ts";

/**
 * Where a runtime's releases come from: npm by default ({@linkcode npmReleases}).
 *
 * @example Fixed releases, for a test
 * ```ts
 * import type { ReleaseLookup } from "@rtbench/rtbench/adapters";
 *
 * const lookup: ReleaseLookup = () => Promise.resolve({ versions: ["1.2.0"], published: {} });
 * ```
 */
export type ReleaseLookup = (adapter: Pick<RuntimeAdapter, "name" | "npmPackage">) => Promise<NpmReleases>;

/**
 * Options for {@linkcode resolveRuntime}.
 *
 * @example Use only what is installed
 * ```ts
 * import { assertRejects } from "@std/assert";
 * import { type ResolveOptions, resolveRuntime } from "@rtbench/rtbench/adapters";
 *
 * const options: ResolveOptions = { provision: false, cacheDir: await Deno.makeTempDir() };
 * await assertRejects(() => resolveRuntime({ name: "bun", version: "1.2.0", requested: "bun@1.2.0" }, options));
 * ```
 */
export interface ResolveOptions {
  /** Adapters to choose from. @default {builtinAdapters} */
  adapters?: readonly RuntimeAdapter[];
  /** Cache directory for provisioned runtimes. @default {cacheDir()} */
  cacheDir?: string;
  /** Whether a runtime missing from this machine may be fetched from npm. @default {true} */
  provision?: boolean;
  /** Stops a running provisioning step. */
  signal?: AbortSignal;
  /** The day the release schedule is read for, `YYYY-MM-DD`. @default {dayOf(new Date())} */
  day?: string;
  /**
   * Where releases are looked up: the versions to choose from, and for a runtime without a schedule of its own the
   * support of its line; null asks nothing (the version must then be named, and its support reads `unknown`).
   * @default {npmReleases}
   */
  releases?: ReleaseLookup | null;
}

/** The binary running rtbench, when `adapter` is its runtime: reused instead of downloading the same version. */
function harnessOf(adapter: RuntimeAdapter): { binary: string; version: string } | undefined {
  return adapter.name === "deno" ? { binary: Deno.execPath(), version: Deno.version.deno } : undefined;
}

/** The binary of an exact version: the harness when it is that version, else the cache, else npm. */
async function binaryOf(
  adapter: RuntimeAdapter,
  version: string,
  options: ResolveOptions,
): Promise<{ binary: string; source: RuntimeSource }> {
  const harness = harnessOf(adapter);
  if (harness?.version === version) return { binary: harness.binary, source: "harness" };
  const cache = options.cacheDir ?? cacheDir();
  if (options.provision === false && !cachedVersions(adapter, cache).includes(version)) {
    throw new Error(
      `Cannot find ${adapter.name}@${version} in the cache and provisioning is off (allow rtbench to fetch it from ` +
        `npm, or name the one on this machine: ${adapter.name}@system)`,
    );
  }
  return await provisionFromNpm(adapter, version, cache, options.signal);
}

/** What the binary on this machine is, for `<runtime>@system` and the native baselines. */
async function systemBinary(adapter: RuntimeAdapter, spec: RuntimeSpec): Promise<string> {
  const binary = await adapter.detect();
  if (binary) return binary;
  if (adapter.howToGet) {
    throw new MissingToolchainError(`${adapter.name} is not installed on this machine (${adapter.howToGet})`);
  }
  throw new Error(
    `Cannot find ${adapter.name} on PATH (${spec.requested} measures the one on this machine; without @system, ` +
      `rtbench fetches ${adapter.name} from npm)`,
  );
}

/** The version the policy takes without one named: from npm's list, or, npm out of reach, the newest cached one. */
function chosenVersion(
  adapter: RuntimeAdapter,
  npm: NpmReleases | Error,
  options: ResolveOptions,
  day: string,
): { version: string; selection: ResolvedRuntime["selection"]; warnings: Warning[] } {
  if (!(npm instanceof Error)) return { ...defaultChoice(adapter, npm.versions, day), warnings: [] };
  const cache = options.cacheDir ?? cacheDir();
  const harness = harnessOf(adapter);
  const cached = [...cachedVersions(adapter, cache), ...(harness ? [harness.version] : [])];
  const version = cachedChoice(adapter, cached, day);
  if (version === undefined) {
    throw new Error(
      `Cannot choose ${adapter.name}: ${npm.message}, and no ${adapter.name} is cached in ${cache}/runtimes ` +
        `(reach npm, or name the one on this machine: ${adapter.name}@system)`,
    );
  }
  const line = adapter.deployLine?.(day);
  const which = line ? `the newest cached release of its line ${line} (Active LTS)` : "the newest cached release";
  return {
    version,
    selection: "cached",
    warnings: [{
      code: "release-offline",
      message: `${adapter.name} ${version} is ${which}, chosen without npm (${npm.message}): a newer release ` +
        "may be out",
    }],
  };
}

/**
 * Finds or provisions the binary for one runtime spec, reads its exact
 * version, and says where its release line stands. Without a version, the
 * release a user would deploy today is taken from npm (for Node.js the newest
 * of the Active LTS line, else the newest stable release), or, npm being out
 * of reach, the newest cached one with a `release-offline` warning; `@system`
 * takes the binary on this machine (for Deno, the harness itself); any other
 * version is provisioned into the cache and reused next time.
 *
 * @param spec The runtime to find, from {@linkcode parseRuntimeSpecs}.
 * @param options Adapters, cache directory, whether to provision, the day and releases to judge by, an abort signal.
 * @returns The runtime with its binary, exact version, engine and release.
 *
 * @example Resolve the Deno running this code
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { resolveRuntime } from "@rtbench/rtbench/adapters";
 *
 * const rt = await resolveRuntime({ name: "deno", version: "system", requested: "deno@system" });
 * assertEquals([rt.version, rt.engine, rt.source, rt.selection], [Deno.version.deno, "V8", "harness", "system"]);
 * ```
 */
export async function resolveRuntime(spec: RuntimeSpec, options: ResolveOptions = {}): Promise<ResolvedRuntime> {
  const adapter = (options.adapters ?? builtinAdapters).find((a) => a.name === spec.name);
  if (!adapter) throw new RequestError("runtimes", `: unknown runtime "${spec.name}"`);
  const day = options.day ?? dayOf();
  const lookup = options.releases === undefined ? npmReleases : options.releases;
  let npm: NpmReleases | Error | undefined;
  const releases = async (): Promise<NpmReleases | Error> => {
    if (lookup === null) return new Error("releases are not looked up here");
    try {
      return await lookup(adapter);
    } catch (error) {
      options.signal?.throwIfAborted();
      return error instanceof Error ? error : new Error(String(error));
    }
  };
  let got: { binary: string; source: RuntimeSource };
  let selection: ResolvedRuntime["selection"];
  let warnings: Warning[] = [];
  if (spec.version === "system" || adapter.howToGet) {
    const binary = await systemBinary(adapter, spec);
    got = { binary, source: harnessOf(adapter)?.binary === binary ? "harness" : "path" };
    selection = "system";
  } else if (spec.version === undefined) {
    npm = await releases();
    const chosen = chosenVersion(adapter, npm, options, day);
    got = await binaryOf(adapter, chosen.version, options);
    ({ selection, warnings } = chosen);
  } else {
    got = await binaryOf(adapter, spec.version, options);
    selection = "requested";
  }
  const version = await adapter.version(got.binary);
  // A native baseline is built with this machine's toolchain: it has no release on npm to place.
  const release = adapter.howToGet ? null : releaseOf(
    adapter,
    version.version,
    day,
    adapter.support ? null : await (async () => {
      npm ??= await releases();
      return npm instanceof Error ? null : npm;
    })(),
  );
  return {
    adapter,
    name: adapter.name,
    requested: spec.requested,
    ...got,
    version: version.version,
    engineVersion: version.engineVersion,
    engine: adapter.engine,
    selection,
    release,
    ...(warnings.length > 0 ? { warnings } : {}),
  };
}
