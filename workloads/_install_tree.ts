/**
 * Reading an installed `node_modules` tree: which version of each direct
 * dependency is there, whether it satisfies the manifest, and how many
 * packages were installed (npm, Bun and yarn hoist; pnpm and Deno keep a
 * store under `node_modules/.pnpm` or `.deno` and link into it).
 *
 * @module
 */

import semver from "semver";
import type { Check } from "./types.ts";

/** A `package.json`'s dependencies, both kinds, name → spec. */
export function directDependencies(manifest: Record<string, unknown>): Record<string, string> {
  return {
    ...(manifest.dependencies as Record<string, string> | undefined),
    ...(manifest.devDependencies as Record<string, string> | undefined),
  };
}

function text(bytes: Uint8Array, start: number, length: number): string {
  const slice = bytes.subarray(start, start + length);
  const end = slice.indexOf(0);
  return new TextDecoder().decode(end === -1 ? slice : slice.subarray(0, end));
}

/** The `package.json` inside an npm tarball (`.tgz`), or null when there is none. */
export async function tarballManifest(path: string): Promise<Record<string, unknown> | null> {
  const file = await Deno.open(path);
  const bytes = new Uint8Array(
    await new Response(file.readable.pipeThrough(new DecompressionStream("gzip"))).arrayBuffer(),
  );
  for (let offset = 0; offset + 512 <= bytes.length;) {
    const name = text(bytes, offset, 100);
    if (!name) break;
    const prefix = text(bytes, offset + 345, 155);
    const size = parseInt(text(bytes, offset + 124, 12).trim() || "0", 8);
    const full = prefix ? `${prefix}/${name}` : name;
    if (/^[^/]+\/package\.json$/.test(full)) {
      return JSON.parse(new TextDecoder().decode(bytes.subarray(offset + 512, offset + 512 + size)));
    }
    offset += 512 + Math.ceil(size / 512) * 512;
  }
  return null;
}

async function readJson(path: string): Promise<Record<string, unknown> | null> {
  try {
    return JSON.parse(await Deno.readTextFile(path));
  } catch {
    return null;
  }
}

/**
 * One check per direct dependency: installed under `node_modules/<name>` at a
 * version satisfying its range, or, for a `file:` tarball, the version inside
 * that tarball.
 */
export async function checkDirectDependencies(project: string, deps: Record<string, string>): Promise<Check[]> {
  const checks: Check[] = [];
  for (const [name, spec] of Object.entries(deps)) {
    const installed = await readJson(`${project}/node_modules/${name}/package.json`);
    const version = typeof installed?.version === "string" ? installed.version : null;
    let passed: boolean;
    let expected = spec;
    if (spec.startsWith("file:")) {
      const path = spec.slice("file:".length);
      const packed = /\.t(ar\.)?gz$/.test(path) ? await tarballManifest(path) : await readJson(`${path}/package.json`);
      expected = `${packed?.version ?? "?"} (${path.split("/").at(-1)})`;
      passed = version !== null && installed?.name === name && version === packed?.version;
    } else {
      passed = version !== null && semver.satisfies(version, spec, { includePrerelease: true });
    }
    checks.push({ name: `installed ${name}`, passed, expected, actual: version ?? "not installed" });
  }
  return checks;
}

/**
 * Counts installed packages: every directory with a `package.json` reachable
 * through `node_modules`, nested and store directories included, each real
 * directory once.
 */
export async function countPackages(nodeModules: string): Promise<number> {
  const seen = new Set<string>();
  const visit = async (dir: string): Promise<void> => {
    let entries: Deno.DirEntry[];
    try {
      entries = await Array.fromAsync(Deno.readDir(dir));
    } catch {
      return;
    }
    for (const entry of entries) {
      const path = `${dir}/${entry.name}`;
      if (entry.name === ".bin") continue;
      if (entry.name === ".pnpm" || entry.name === ".deno") {
        for (const inner of await Array.fromAsync(Deno.readDir(path)).catch(() => [])) {
          await visit(`${path}/${inner.name}/node_modules`);
        }
      } else if (entry.name.startsWith("@")) {
        for (const scoped of await Array.fromAsync(Deno.readDir(path)).catch(() => [])) {
          await visitPackage(`${path}/${scoped.name}`);
        }
      } else if (!entry.name.startsWith(".")) {
        await visitPackage(path);
      }
    }
  };
  const visitPackage = async (path: string): Promise<void> => {
    const real = await Deno.realPath(path).catch(() => null);
    if (real === null || seen.has(real)) return;
    const info = await Deno.stat(`${real}/package.json`).catch(() => null);
    if (!info?.isFile) return;
    seen.add(real);
    await visit(`${real}/node_modules`);
  };
  await visit(nodeModules);
  return seen.size;
}
