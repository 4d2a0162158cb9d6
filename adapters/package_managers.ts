/**
 * Package managers that run on Node.js: npm (Node's own), and pnpm and yarn
 * when they are on `PATH` or requested. Bun's and Deno's managers are their
 * binaries and live in their adapters.
 *
 * @module
 */

import { which } from "../runners/_process.ts";
import { cacheDir } from "./_cache.ts";
import { provisionFromNpm } from "./_provision.ts";
import { probe } from "./_version.ts";
import type { PackageManager } from "./types.ts";

/** Names accepted by `--package-manager`. */
export const PACKAGE_MANAGER_NAMES: readonly string[] = ["native", "npm", "pnpm", "yarn"];

/**
 * The argv prefix that runs a Node.js tool found at `path` with `nodeBinary`,
 * so the measured Node.js (not whichever `node` is on `PATH`) runs it.
 */
async function nodeTool(nodeBinary: string, path: string): Promise<string[]> {
  const real = await Deno.realPath(path);
  return /\.[cm]?js$/.test(real) ? [nodeBinary, real] : [path];
}

/**
 * npm, run by the given Node.js binary, with its cache in the directory it is given.
 *
 * @example
 * ```ts ignore
 * import { npmManager } from "./package_managers.ts";
 * const npm = await npmManager("/usr/bin/node");
 * console.log(npm.installCommand("/tmp/cache").env); // { npm_config_cache: "/tmp/cache", ... }
 * ```
 */
export async function npmManager(nodeBinary: string): Promise<PackageManager> {
  const npm = which("npm");
  if (!npm) throw new Error("Cannot find npm on PATH (install Node.js with npm)");
  const base = await nodeTool(nodeBinary, npm);
  // Read from npm's own package.json: running `npm --version` would create ~/.npm.
  const cli = await Deno.realPath(npm);
  const pkg = JSON.parse(
    await Deno.readTextFile(`${cli.slice(0, cli.lastIndexOf("/bin/"))}/package.json`).catch(() => "{}"),
  );
  const version = typeof pkg.version === "string" ? pkg.version : await probe([...base, "--version"]);
  return {
    name: "npm",
    version,
    lockfile: "package-lock.json",
    installCommand: (cache) => ({
      argv: [...base, "install", "--no-audit", "--no-fund", "--loglevel=error"],
      env: { npm_config_cache: cache, npm_config_update_notifier: "false" },
    }),
  };
}

const TOOLS: Record<string, { paths: string[]; lockfile: string; install(cache: string): string[] }> = {
  pnpm: {
    paths: ["node_modules/pnpm/bin/pnpm.cjs"],
    lockfile: "pnpm-lock.yaml",
    install: (cache) => ["install", "--store-dir", `${cache}/store`, "--cache-dir", `${cache}/metadata`],
  },
  yarn: {
    paths: ["node_modules/yarn/bin/yarn.js"],
    lockfile: "yarn.lock",
    install: (cache) => ["install", "--cache-folder", cache, "--non-interactive", "--no-progress", "--silent"],
  },
};

/**
 * pnpm or yarn, run by the given Node.js binary: the one on `PATH`, else the
 * npm package of that name installed into rtbench's cache.
 *
 * @example
 * ```ts ignore
 * import { nodePackageManager } from "./package_managers.ts";
 * const pnpm = await nodePackageManager("pnpm", "/usr/bin/node");
 * console.log(pnpm.lockfile); // "pnpm-lock.yaml"
 * ```
 */
export async function nodePackageManager(
  name: string,
  nodeBinary: string,
  signal?: AbortSignal,
): Promise<PackageManager> {
  if (name === "npm") return npmManager(nodeBinary);
  const tool = TOOLS[name];
  if (!tool) throw new RangeError(`--package-manager: unknown package manager "${name}"`);
  const onPath = which(name);
  const path = onPath ??
    (await provisionFromNpm(
      { name, npmPackage: name, provisionedBinaryPaths: () => tool.paths },
      "latest",
      cacheDir(),
      signal,
    )).binary;
  const base = await nodeTool(nodeBinary, path);
  const version = await probe([...base, "--version"]);
  return {
    name,
    version,
    lockfile: tool.lockfile,
    installCommand: (cache) => ({ argv: [...base, ...tool.install(cache)], env: { COREPACK_ENABLE_STRICT: "0" } }),
  };
}
