/**
 * The version policy, the same for every runtime: without a version named,
 * rtbench measures the release a user would deploy that day — the newest
 * Node.js of the Active LTS line, the newest stable Deno and Bun — from npm;
 * npm being out of reach, the newest one already cached. A record then names
 * its runtime's release line and where that line stands, and a comparison
 * says when it includes a runtime past its end of life, or runtimes whose
 * lines came out years apart. Every function here takes the day and the
 * releases it judges, so that a test fixes both.
 *
 * @example Node.js by default on 28 November 2026: the newest 26
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { defaultChoice, node } from "@rtbench/rtbench/adapters";
 *
 * const versions = ["20.20.2", "24.11.1", "26.9.0", "26.10.0", "27.0.0-nightly1"];
 * assertEquals(defaultChoice(node, versions, "2026-11-28"), { version: "26.10.0", selection: "active-lts" });
 * ```
 *
 * @module
 */

import semver from "semver";
import type { RuntimeInfo, RuntimeRelease, Warning } from "../runners/schema/mod.ts";
import { type NpmReleases, releaseLine } from "./releases.ts";
import type { RuntimeAdapter } from "./types.ts";

/**
 * Two release lines this many days apart or more are not of one age: comparing them says so (`release-age`).
 *
 * @example Two years
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { RELEASE_AGE_GAP_DAYS } from "@rtbench/rtbench/adapters";
 *
 * assertEquals(RELEASE_AGE_GAP_DAYS, 730);
 * ```
 */
export const RELEASE_AGE_GAP_DAYS = 730;

/**
 * The day the policy reads the schedule for: `now` in UTC, `YYYY-MM-DD`.
 *
 * @param now The moment.
 * @returns Its day.
 *
 * @example Late on 28 November, UTC
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { dayOf } from "@rtbench/rtbench/adapters";
 *
 * assertEquals(dayOf(new Date("2026-11-28T23:59:00Z")), "2026-11-28");
 * ```
 */
export function dayOf(now: Date = new Date()): string {
  return now.toISOString().slice(0, 10);
}

/** The newest stable version of `line` (of every line when null) in `versions`. */
function newestStable(runtime: string, versions: readonly string[], line: string | null): string | undefined {
  const stable = versions.filter((v) =>
    semver.valid(v) !== null && semver.prerelease(v) === null && (line === null || releaseLine(runtime, v) === line)
  );
  return stable.sort(semver.compare).at(-1);
}

/**
 * What the default policy chose, and by which rule.
 *
 * @example Node.js on 28 November 2026
 * ```ts
 * import type { DefaultChoice } from "@rtbench/rtbench/adapters";
 *
 * const choice: DefaultChoice = { version: "26.10.0", selection: "active-lts" };
 * ```
 */
export interface DefaultChoice {
  /** The exact version. */
  readonly version: string;
  /** `active-lts` where the runtime has a line to deploy (Node.js), `latest` otherwise. */
  readonly selection: "active-lts" | "latest";
}

/**
 * The version measured when none is named: the newest stable release of the line the runtime's schedule says to
 * deploy on `day` (Node.js's Active LTS line), or the newest stable release of all for a runtime without one.
 *
 * @param adapter The runtime: its name and its {@linkcode RuntimeAdapter.deployLine}.
 * @param versions Every version npm lists.
 * @param day The day, `YYYY-MM-DD`.
 * @returns The version and the rule that chose it.
 * @throws {Error} When npm lists no stable release of that line.
 *
 * @example Bun: the newest stable release, canaries left out
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { bun, defaultChoice } from "@rtbench/rtbench/adapters";
 *
 * const versions = ["1.2.0", "1.4.5", "1.5.0-canary.1"];
 * assertEquals(defaultChoice(bun, versions, "2026-11-28"), { version: "1.4.5", selection: "latest" });
 * ```
 */
export function defaultChoice(
  adapter: Pick<RuntimeAdapter, "name" | "deployLine">,
  versions: readonly string[],
  day: string,
): DefaultChoice {
  const line = adapter.deployLine?.(day) ?? null;
  const version = newestStable(adapter.name, versions, line);
  if (version === undefined) {
    throw new Error(`Cannot choose ${adapter.name}: npm lists no stable release${line ? ` of its line ${line}` : ""}`);
  }
  return { version, selection: line ? "active-lts" : "latest" };
}

/**
 * The version measured when none is named and npm cannot be asked: the newest cached release of the line the
 * default would take, else the newest cached release of all.
 *
 * @param adapter The runtime: its name and its {@linkcode RuntimeAdapter.deployLine}.
 * @param cached The exact versions already on this machine (cache, harness).
 * @param day The day, `YYYY-MM-DD`.
 * @returns The version, or undefined when nothing is cached.
 *
 * @example Offline on 28 November 2026, with Node.js 24 and 26 cached
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { cachedChoice, node } from "@rtbench/rtbench/adapters";
 *
 * assertEquals(cachedChoice(node, ["24.11.1", "26.9.0", "20.20.2"], "2026-11-28"), "26.9.0");
 * ```
 */
export function cachedChoice(
  adapter: Pick<RuntimeAdapter, "name" | "deployLine">,
  cached: readonly string[],
  day: string,
): string | undefined {
  const line = adapter.deployLine?.(day) ?? null;
  return (line === null ? undefined : newestStable(adapter.name, cached, line)) ??
    newestStable(adapter.name, cached, null);
}

/**
 * A version's release line and where it stands on `day`: from the runtime's own schedule where it has one
 * ({@linkcode RuntimeAdapter.support}), else from npm's releases — its line is `latest` when no newer line is
 * published, `superseded` otherwise, and came out when npm first published it; `unknown` without npm's releases.
 *
 * @param adapter The runtime.
 * @param version The exact version measured.
 * @param day The day, `YYYY-MM-DD`.
 * @param npm The runtime's releases on npm, or null when they could not be had.
 * @returns The release as records hold it.
 *
 * @example Bun 1.2.0 when 1.4 is out
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { bun, releaseOf } from "@rtbench/rtbench/adapters";
 *
 * const npm = { versions: ["1.2.0", "1.2.1", "1.4.5"], published: { "1.2.0": "2025-01-22T21:34:53Z" } };
 * assertEquals(releaseOf(bun, "1.2.0", "2026-11-28", npm), {
 *   line: "1.2",
 *   status: "superseded",
 *   since: null,
 *   lineReleased: "2025-01-22",
 *   asOf: "2026-11-28",
 *   source: "npm registry",
 * });
 * ```
 */
export function releaseOf(
  adapter: Pick<RuntimeAdapter, "name" | "support">,
  version: string,
  day: string,
  npm: NpmReleases | null,
): RuntimeRelease {
  if (adapter.support) return { ...adapter.support(version, day), asOf: day };
  const line = releaseLine(adapter.name, version);
  if (npm === null) {
    return {
      line,
      status: "unknown",
      since: null,
      lineReleased: null,
      asOf: day,
      source: "npm registry (unreachable)",
    };
  }
  const newest = newestStable(adapter.name, npm.versions, null);
  const ofLine = npm.versions.filter((v) => semver.valid(v) !== null && releaseLine(adapter.name, v) === line);
  const first = ofLine.map((v) => npm.published[v]).filter(Boolean).map((t) => dayOf(new Date(t))).sort()[0];
  const superseded = newest !== undefined && semver.gt(newest, version) && releaseLine(adapter.name, newest) !== line;
  return {
    line,
    status: superseded ? "superseded" : "latest",
    since: null,
    lineReleased: first ?? null,
    asOf: day,
    source: "npm registry",
  };
}

/** `node 20.20.2`. */
function label(r: RuntimeInfo): string {
  return `${r.name} ${r.version}`;
}

function yearsApart(a: string, b: string): number {
  return Math.abs(Date.parse(b) - Date.parse(a)) / (365.25 * 86_400_000);
}

/**
 * The warnings a comparison of these runtimes carries: one per runtime past its end of life (`end-of-life`), and,
 * for a runtime whose line came out {@linkcode RELEASE_AGE_GAP_DAYS} days or more before another's it is compared
 * with (`release-age`), one naming those — unless the user named both versions, as a sweep across versions does.
 *
 * @param compared The runtimes compared, as records name them.
 * @returns The warnings, for the result's suite-wide list.
 *
 * @example Node.js 20 beside Bun 1.4 in late 2026
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { releaseWarnings } from "@rtbench/rtbench/adapters";
 *
 * const release = { since: null, asOf: "2026-11-28", source: "test" };
 * const warnings = releaseWarnings([
 *   { name: "node", requested: "node@system", version: "20.20.2", engine: "V8", engineVersion: null, binary: null,
 *     source: "path", selection: "system",
 *     release: { ...release, line: "20", status: "end-of-life", since: "2026-04-30", lineReleased: "2023-04-18" } },
 *   { name: "bun", requested: "bun", version: "1.4.5", engine: "JavaScriptCore", engineVersion: null, binary: null,
 *     source: "cache", selection: "latest", release: { ...release, line: "1.4", status: "latest", lineReleased: "2026-08-20" } },
 * ]);
 * assertEquals(warnings.map((w) => w.code), ["end-of-life", "release-age"]);
 * ```
 */
export function releaseWarnings(compared: readonly RuntimeInfo[]): Warning[] {
  // One warning per release, however many records measured it (the two arms of an A/A run, node@22 and node@22.21.1).
  const runtimes = compared.filter((r, i) =>
    compared.findIndex((o) => o.name === r.name && o.version === r.version) === i
  );
  const warnings: Warning[] = [];
  for (const r of runtimes) {
    if (r.release?.status !== "end-of-life") continue;
    warnings.push({
      code: "end-of-life",
      message: `${label(r)} is past its end of life (line ${r.release.line}, end of life since ${r.release.since}, ` +
        `${r.release.source}): it gets no fixes and is not the ${r.name} a user would deploy; --runtime ${r.name}, ` +
        "without a version, measures the one they would",
    });
  }
  for (const old of runtimes) {
    const from = old.release?.lineReleased;
    if (!from) continue;
    const newer = runtimes.filter((r) =>
      r.name !== old.name && r.release?.lineReleased &&
      !(old.selection === "requested" && r.selection === "requested") &&
      Date.parse(r.release.lineReleased) - Date.parse(from) >= RELEASE_AGE_GAP_DAYS * 86_400_000
    );
    if (newer.length === 0) continue;
    const others = newer.map((r) =>
      `${label(r)} (line ${r.release!.line}, out ${r.release!.lineReleased}, ${
        yearsApart(from, r.release!.lineReleased!).toFixed(1)
      } years later)`
    );
    warnings.push({
      code: "release-age",
      message: `${label(old)}'s line ${old.release!.line} came out ${from}, years before the runtimes it is compared ` +
        `with: ${others.join(", ")}; the gap measures their ages as much as the runtimes`,
    });
  }
  return warnings;
}
