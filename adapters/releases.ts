/**
 * The last releases of a runtime, as published on npm: what `--last <n>`
 * turns `--runtime node,bun` into. A release is a release line — a major
 * version for Node.js (20, 22, 24, ...), a minor version for Deno and Bun
 * (1.2, 1.3, 1.4) — represented by its newest stable patch, so a sweep
 * measures each line as users get it and is reproducible from the result.
 *
 * @example The last three Bun releases in a list of versions
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { lastReleases } from "@rtbench/rtbench/adapters";
 *
 * const versions = ["1.1.45", "1.2.0", "1.2.23", "1.3.0-canary.1", "1.3.0", "1.3.4", "1.4.5"];
 * assertEquals(lastReleases("bun", versions, 3), ["1.2.23", "1.3.4", "1.4.5"]);
 * ```
 *
 * @module
 */

import semver from "semver";
import { RequestError, runCommand, which } from "../runners/platform/mod.ts";
import { cacheDir } from "./_cache.ts";
import type { RuntimeAdapter } from "./types.ts";

/**
 * The release line of a version: `22` for Node.js, `1.2` for the others.
 *
 * @param runtime The runtime's name (`node`, `deno`, `bun`).
 * @param version An exact version.
 * @returns The major version for Node.js, `major.minor` for the others.
 *
 * @example Node.js by major, Deno by minor
 * ```ts
 * import { releaseLine } from "@rtbench/rtbench/adapters";
 * console.log(releaseLine("node", "22.21.1"), releaseLine("deno", "2.9.6")); // "22" "2.9"
 * ```
 */
export function releaseLine(runtime: string, version: string): string {
  const v = semver.parse(version);
  if (v === null) throw new RangeError(`Not a version: "${version}"`);
  return runtime === "node" ? String(v.major) : `${v.major}.${v.minor}`;
}

/**
 * The newest stable version of each of the last `n` release lines in
 * `versions`, oldest first. Pre-releases (canaries, release candidates) are
 * left out.
 *
 * @param runtime The runtime's name (`node`, `deno`, `bun`).
 * @param versions Every published version, in any order.
 * @param n How many release lines, counted from the newest.
 * @returns At most `n` versions, oldest first.
 *
 * @example Node.js: one version per major
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { lastReleases } from "@rtbench/rtbench/adapters";
 *
 * assertEquals(lastReleases("node", ["20.20.2", "22.21.1", "24.0.0", "24.11.1", "25.0.0-rc.1"], 2), [
 *   "22.21.1",
 *   "24.11.1",
 * ]);
 * ```
 */
export function lastReleases(runtime: string, versions: readonly string[], n: number): string[] {
  const newest = new Map<string, string>();
  for (const v of versions) {
    if (semver.valid(v) === null || semver.prerelease(v) !== null) continue;
    const line = releaseLine(runtime, v);
    const seen = newest.get(line);
    if (seen === undefined || semver.gt(v, seen)) newest.set(line, v);
  }
  return [...newest.values()].sort(semver.compare).slice(-n);
}

/**
 * A runtime's releases on npm: every version, and when npm published each.
 *
 * @example Bun 1.2.0, published in January 2025
 * ```ts
 * import type { NpmReleases } from "@rtbench/rtbench/adapters";
 *
 * const releases: NpmReleases = { versions: ["1.2.0"], published: { "1.2.0": "2025-01-22T21:34:53.237Z" } };
 * ```
 */
export interface NpmReleases {
  /** Every version the registry lists, oldest first. */
  readonly versions: readonly string[];
  /** When each version was published (ISO 8601), where the registry says. */
  readonly published: Readonly<Record<string, string>>;
}

/**
 * How long a list of releases read from a registry is reused: an hour, within which "today's release" stands.
 *
 * @example
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { RELEASES_FRESH_MS } from "./releases.ts";
 *
 * assertEquals(RELEASES_FRESH_MS, 60 * 60 * 1000);
 * ```
 */
export const RELEASES_FRESH_MS = 3_600_000;

/** Lists read in this process, by registry and package, with when they were read. */
const read = new Map<string, { readonly atMs: number; readonly list: Promise<NpmReleases> }>();

/**
 * Every version of a runtime's npm package and when each was published, from
 * the registry npm is configured with (`npm view <package> versions time`).
 * A list read within the last {@linkcode RELEASES_FRESH_MS} is reused, from
 * this process or from rtbench's cache, so that suites started one after
 * another ask the registry once.
 *
 * @param adapter The runtime: its name, for messages, and its npm package.
 * @returns Its versions and their publication times.
 *
 * @example When Bun 1.2.0 came out
 * ```ts
 * import { assert } from "@std/assert";
 * import { bun, npmReleases } from "@rtbench/rtbench/adapters";
 *
 * assert((await npmReleases(bun)).published["1.2.0"].startsWith("2025-01"));
 * ```
 */
export function npmReleases(adapter: Pick<RuntimeAdapter, "name" | "npmPackage">): Promise<NpmReleases> {
  // A list is the registry's as npm is configured to reach it (its address and its own cache).
  const env = (name: string) => Deno.env.get(name) ?? Deno.env.get(name.toUpperCase()) ?? "";
  const registry = `${env("npm_config_registry") || "npmjs"} ${env("npm_config_cache")}`;
  const key = `${registry} ${adapter.npmPackage}`;
  const kept = read.get(key);
  if (kept && Date.now() - kept.atMs < RELEASES_FRESH_MS) return kept.list;
  const list = cachedOrAsked(adapter, registry);
  read.set(key, { atMs: Date.now(), list });
  list.catch(() => read.delete(key));
  return list;
}

/** The list rtbench's cache holds for `registry`, when fresh; else the registry's, kept in the cache. */
async function cachedOrAsked(
  adapter: Pick<RuntimeAdapter, "name" | "npmPackage">,
  registry: string,
): Promise<NpmReleases> {
  const name = `${adapter.npmPackage}-${(await digest(registry)).slice(0, 16)}.json`;
  const file = `${cacheDir()}/releases/${name}`;
  try {
    const cached = JSON.parse(await Deno.readTextFile(file)) as NpmReleases & { readAtMs: number };
    if (Date.now() - cached.readAtMs < RELEASES_FRESH_MS) {
      return { versions: cached.versions, published: cached.published };
    }
  } catch {
    // None yet, or unreadable: asked again below.
  }
  const list = await askNpm(adapter);
  await Deno.mkdir(`${cacheDir()}/releases`, { recursive: true });
  // Written whole, then renamed: a suite reading it meanwhile sees the old list or the new, never half of one.
  // Two suites in one process share the pid: the temporary file's name is its own.
  const tmp = `${file}.tmp-${Deno.pid}-${crypto.randomUUID().slice(0, 8)}`;
  await Deno.writeTextFile(tmp, JSON.stringify({ ...list, readAtMs: Date.now() }));
  await Deno.rename(tmp, file);
  return list;
}

async function digest(text: string): Promise<string> {
  const bytes = new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text)));
  return [...bytes].map((b) => b.toString(16).padStart(2, "0")).join("");
}

async function askNpm(adapter: Pick<RuntimeAdapter, "name" | "npmPackage">): Promise<NpmReleases> {
  const npm = which("npm");
  if (!npm) throw new Error(`Cannot look up ${adapter.name} releases: npm is not on PATH`);
  // Out of reach, npm retries for a minute by default: one try, so that rtbench falls back to its cache at once.
  // Its metadata cache is rtbench's, not the user's home.
  const out = await runCommand(
    [npm, "view", adapter.npmPackage, "versions", "time", "--json", "--loglevel=error", "--fetch-retries=0"]
      .concat([`--cache=${cacheDir()}/npm`, "--logs-max=0"]),
    { timeoutMs: 60_000, purpose: "registry" },
  );
  if (!out.success) {
    // With --json npm says why on stdout ({"error": {"summary": ...}}).
    const summary = (() => {
      try {
        return (JSON.parse(out.stdout) as { error?: { summary?: string } }).error?.summary;
      } catch {
        return undefined;
      }
    })();
    const why = out.timedOut ? "timed out after 60 s" : summary ?? `npm exited ${out.code}`;
    throw new Error(`Cannot look up ${adapter.name} releases on npm: ${why}`);
  }
  const parsed = JSON.parse(out.stdout) as unknown;
  // With one field missing from the registry's answer (`time`), npm prints the other field's value alone.
  const fields = (Array.isArray(parsed) || typeof parsed === "string" ? { versions: parsed } : parsed) as {
    versions?: unknown;
    time?: Record<string, string>;
  };
  const versions = fields.versions === undefined ? [] : [fields.versions].flat().map(String);
  return { versions, published: fields.time ?? {} };
}

/**
 * Every version of a runtime's npm package, from the registry npm is
 * configured with.
 *
 * @param adapter The runtime: its name, for messages, and its npm package.
 * @returns Every version the registry lists, oldest first.
 *
 * @example Bun's versions on npm
 * ```ts
 * import { assert } from "@std/assert";
 * import { bun, npmVersions } from "@rtbench/rtbench/adapters";
 *
 * assert((await npmVersions(bun)).includes("1.2.0"));
 * ```
 */
export async function npmVersions(adapter: Pick<RuntimeAdapter, "name" | "npmPackage">): Promise<string[]> {
  return [...(await npmReleases(adapter)).versions];
}

/**
 * `--last <n>`: each runtime of `runtimes` becomes its last `n` releases on
 * npm, as `name@version`. A runtime that already names a version is refused:
 * `--last` decides the versions.
 *
 * @param runtimes Runtime names, as `--runtime` gives them.
 * @param n How many releases of each.
 * @param adapters The runtimes known by name.
 * @param lookup Where the versions come from (npm by default).
 * @returns `name@version` entries, each runtime's oldest first.
 *
 * @example The last two releases of Deno, from a list instead of npm
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { builtinAdapters, lastReleasesOf } from "@rtbench/rtbench/adapters";
 *
 * const lookup = () => Promise.resolve(["2.7.14", "2.8.0", "2.8.3", "2.9.6"]);
 * assertEquals(await lastReleasesOf(["deno"], 2, builtinAdapters, lookup), ["deno@2.8.3", "deno@2.9.6"]);
 * ```
 */
export async function lastReleasesOf(
  runtimes: readonly string[],
  n: number,
  adapters: readonly Pick<RuntimeAdapter, "name" | "npmPackage">[],
  lookup: (adapter: Pick<RuntimeAdapter, "name" | "npmPackage">) => Promise<string[]> = npmVersions,
): Promise<string[]> {
  const out: string[] = [];
  for (const requested of runtimes) {
    if (requested.includes("@")) {
      throw new RequestError("last", `: ${requested} names a version; {last} picks the versions (give a name only)`);
    }
    const adapter = adapters.find((a) => a.name === requested);
    if (!adapter) throw new RequestError("last", `: unknown runtime "${requested}"`);
    const versions = lastReleases(adapter.name, await lookup(adapter), n);
    if (versions.length === 0) throw new Error(`Cannot find any release of ${adapter.name} on npm`);
    out.push(...versions.map((v) => `${adapter.name}@${v}`));
  }
  return out;
}
