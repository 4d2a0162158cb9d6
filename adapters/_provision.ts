/**
 * Provisions a runtime from the npm registry into the cache, once per
 * requested version, and reuses it afterwards.
 *
 * @module
 */

import { makeTempDir, removeTemp, RequestError, runCommand, which } from "../runners/platform/mod.ts";
import type { RuntimeAdapter } from "./types.ts";

/** A runtime binary found in, or freshly installed into, the cache. */
export interface Provisioned {
  /** Absolute path of the binary. */
  binary: string;
  /** Whether it was installed just now (`provisioned`) or found (`cache`). */
  source: "cache" | "provisioned";
}

/** What provisioning needs to know about a runtime or tool. */
export type Provisionable = Pick<RuntimeAdapter, "name" | "npmPackage" | "provisionedBinaryPaths">;

function findBinary(adapter: Provisionable, prefix: string): string | undefined {
  for (const rel of adapter.provisionedBinaryPaths()) {
    const path = `${prefix}/${rel}`;
    try {
      const info = Deno.statSync(path);
      if (info.isFile && (info.mode ?? 0o111) & 0o111) return Deno.realPathSync(path);
    } catch {
      // try the next candidate
    }
  }
  return undefined;
}

/**
 * The exact versions of a runtime installed in the cache (`<cache>/runtimes/<name>@<version>` holding its binary), in
 * no order; a folder named by a range (`bun@latest`) is not an exact version and is left out.
 */
export function cachedVersions(adapter: Provisionable, cache: string): string[] {
  const prefix = `${adapter.name}@`;
  let entries: Deno.DirEntry[];
  try {
    entries = [...Deno.readDirSync(`${cache}/runtimes`)];
  } catch (e) {
    if (e instanceof Deno.errors.NotFound) return [];
    throw e;
  }
  return entries.filter((e) => e.isDirectory && e.name.startsWith(prefix))
    .map((e) => e.name.slice(prefix.length))
    .filter((v) => /^\d+\.\d+\.\d+(-[0-9A-Za-z.-]+)?$/.test(v))
    .filter((v) => findBinary(adapter, `${cache}/runtimes/${prefix}${v}`) !== undefined);
}

/**
 * Installs `<npmPackage>@<version>` into `<cache>/runtimes/<name>@<version>`
 * with npm, unless it is already there. Installation goes to a temporary
 * sibling first and is renamed into place, so an interrupted install never
 * leaves a half-filled directory that looks complete.
 */
export async function provisionFromNpm(
  adapter: Provisionable,
  version: string,
  cache: string,
  signal?: AbortSignal,
): Promise<Provisioned> {
  const safe = version.replace(/[^A-Za-z0-9._^~<>=*-]/g, "_");
  const prefix = `${cache}/runtimes/${adapter.name}@${safe}`;
  const found = findBinary(adapter, prefix);
  if (found) return { binary: found, source: "cache" };

  const npm = which("npm");
  if (!npm) {
    throw new Error(
      `Cannot provision ${adapter.name}@${version}: npm is not on PATH (install Node.js and npm, or put ${adapter.name} on PATH)`,
    );
  }
  await Deno.mkdir(`${cache}/runtimes`, { recursive: true });
  const staging = await makeTempDir({ dir: `${cache}/runtimes`, prefix: `.${adapter.name}-` });
  try {
    const out = await runCommand([
      npm,
      "install",
      "--prefix",
      staging,
      "--no-save",
      "--no-audit",
      "--no-fund",
      "--loglevel=error",
      `${adapter.npmPackage}@${version}`,
    ], { timeoutMs: 300_000, signal, purpose: "registry", role: "provision" });
    if (!out.success) {
      if (/\bETARGET\b|No matching version found|No match found for version/.test(out.stderr)) {
        // Bad input, not a failure of the machine: the request named a version that does not exist.
        throw new RequestError(
          "runtimes",
          `: ${adapter.name}@${version}: no such version (npm has no ${adapter.npmPackage}@${version}; ` +
            `give a version npm has, for example ${adapter.name}@latest)`,
        );
      }
      const why = out.timedOut ? "timed out after 300 s" : npmReason(out.stderr) || `npm exited ${out.code}`;
      throw new Error(`Cannot provision ${adapter.name}@${version} from npm: ${why}`);
    }
    if (!findBinary(adapter, staging)) {
      throw new Error(
        `Cannot provision ${adapter.name}@${version}: npm installed no ${adapter.name} binary for this platform`,
      );
    }
    try {
      await Deno.rename(staging, prefix);
    } catch (error) {
      // Another rtbench got there first; use its copy.
      if (!findBinary(adapter, prefix)) throw error;
    }
  } finally {
    await removeTemp(staging);
  }
  const binary = findBinary(adapter, prefix);
  if (!binary) throw new Error(`Cannot provision ${adapter.name}@${version}: binary missing after install`);
  return { binary, source: "provisioned" };
}

/** npm's own reason: its first error line that is neither the error code nor the path of its log file. */
function npmReason(text: string): string {
  const lines = text.trim().split("\n").map((l) => l.replace(/^npm (error|ERR!)\s*/, "").trim())
    .filter((l) => l && !/^code\b|complete log of this run/.test(l));
  return lines[0] ?? "";
}
