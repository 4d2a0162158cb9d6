/**
 * The versions an article ran (`deno task reproduce --as-published`): for
 * each runtime of its experiments, the `--runtime` entry that measures the
 * article's version where npm has it (`node@22.0.0`), and why not where it
 * does not (npm lacks that version; a native toolchain rtbench builds with
 * this machine's; the article names none).
 *
 * @module
 */

import semver from "semver";

/** An article's versions as rtbench can run them. */
export interface PublishedVersions {
  /** `--runtime` entries of the versions npm has, by runtime name (`node` → `node@22.0.0`). */
  readonly runtimes: Readonly<Record<string, string>>;
  /** Why a runtime is not run at the article's version, by runtime name. */
  readonly missing: Readonly<Record<string, string>>;
}

/**
 * Every version npm lists of a runtime, or null for a runtime rtbench does not take from npm (Go, Rust: built with
 * this machine's toolchain).
 */
export type VersionList = (runtime: string) => Promise<readonly string[] | null>;

/** `npm has no deno 1.45.5; its nearest is 1.46.0`. */
function notOnNpm(runtime: string, version: string, versions: readonly string[]): string {
  const stable = versions.filter((v) => semver.valid(v) !== null && semver.prerelease(v) === null);
  const after = stable.filter((v) => semver.gt(v, version)).sort(semver.compare)[0];
  const before = stable.filter((v) => semver.lt(v, version)).sort(semver.compare).at(-1);
  const nearest = after ?? before;
  return `npm has no ${runtime} ${version}` + (nearest ? `; its nearest is ${nearest}` : "");
}

/**
 * The article's versions of `runtimes`: each run from npm where npm has it, each other one with the reason.
 *
 * @param named The versions the article names, by runtime name; undefined when it names none.
 * @param runtimes The runtimes its experiments run.
 * @param versions Where the versions npm has come from.
 * @returns What runs, and why the rest does not.
 *
 * @example 000's Deno 1.45.5 predates Deno on npm
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { publishedVersions } from "./as_published.ts";
 *
 * const npm = { node: ["22.5.1"], bun: ["1.1.21"], deno: ["1.46.0", "2.0.0"] } as Record<string, string[]>;
 * const got = await publishedVersions({ node: "22.5.1", deno: "1.45.5" }, ["deno", "node", "go"], (r) =>
 *   Promise.resolve(npm[r] ?? null));
 * assertEquals(got, {
 *   runtimes: { node: "node@22.5.1" },
 *   missing: {
 *     deno: "npm has no deno 1.45.5; its nearest is 1.46.0",
 *     go: "the article names no go version",
 *   },
 * });
 * ```
 */
export async function publishedVersions(
  named: Readonly<Record<string, string>> | undefined,
  runtimes: readonly string[],
  versions: VersionList,
): Promise<PublishedVersions> {
  const run: Record<string, string> = {};
  const missing: Record<string, string> = {};
  for (const runtime of runtimes) {
    const version = named?.[runtime];
    if (version === undefined) {
      missing[runtime] = `the article names no ${runtime} version`;
      continue;
    }
    let listed: readonly string[] | null;
    try {
      listed = await versions(runtime);
    } catch (error) {
      missing[runtime] = `npm could not be asked for ${runtime} ${version} (${(error as Error).message})`;
      continue;
    }
    if (listed === null) {
      missing[runtime] = `rtbench builds ${runtime} with this machine's toolchain, not the article's ${version}`;
    } else if (!listed.includes(version)) {
      missing[runtime] = notOnNpm(runtime, version, listed);
    } else {
      run[runtime] = `${runtime}@${version}`;
    }
  }
  return { runtimes: run, missing };
}
