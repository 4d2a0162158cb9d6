/**
 * Package managers that run on Node.js: npm (Node's own), and pnpm and yarn
 * when they are on `PATH` or requested. Bun's and Deno's managers are their
 * binaries and live in their adapters.
 *
 * @module
 */

import { which } from "../runners/platform/mod.ts";
import { cacheDir } from "./_cache.ts";
import { provisionFromNpm } from "./_provision.ts";
import { probe } from "./_version.ts";
import type { PackageManager } from "./types.ts";

/**
 * Names accepted by `--package-manager`: the runtime's own manager (`native`), or npm, pnpm or yarn run by Node.js.
 *
 * @example The choices
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { PACKAGE_MANAGER_NAMES } from "@rtbench/rtbench/adapters";
 *
 * assertEquals(PACKAGE_MANAGER_NAMES, ["native", "npm", "pnpm", "yarn"]);
 * ```
 */
export const PACKAGE_MANAGER_NAMES: readonly string[] = ["native", "npm", "pnpm", "yarn"];

/**
 * The argv prefix that runs a Node.js tool found at `path` with `nodeBinary`,
 * so the measured Node.js (not whichever `node` is on `PATH`) runs it. A
 * native executable runs as it is.
 */
async function nodeTool(nodeBinary: string, path: string): Promise<string[]> {
  const real = await Deno.realPath(path);
  if (/\.[cm]?js$/.test(real)) return [nodeBinary, real];
  const file = await Deno.open(real);
  try {
    const head = new Uint8Array(128);
    const n = (await file.read(head)) ?? 0;
    const firstLine = new TextDecoder().decode(head.subarray(0, n)).split("\n")[0];
    return /^#!.*\bnode\b/.test(firstLine) ? [nodeBinary, real] : [real];
  } finally {
    file.close();
  }
}

/**
 * Where Node.js keeps the compile cache a package manager turns on for itself (npm 11 does, on Node.js 22.1 and
 * later): with the manager's other caches, not in TMPDIR, so that a cold install starts without it and nothing is
 * left behind.
 */
function compileCache(cache: string): Record<string, string> {
  return { NODE_COMPILE_CACHE: `${cache}/node-compile-cache` };
}

/**
 * npm, run by the given Node.js binary, with its cache in the directory it is given.
 *
 * @param nodeBinary The Node.js binary that runs npm (the one being measured).
 * @returns npm with its version, lockfile name and install command.
 *
 * @example npm, run by the Node.js on PATH
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { node, npmManager } from "@rtbench/rtbench/adapters";
 *
 * const npm = await npmManager((await node.detect())!);
 * assertEquals(npm.lockfile, "package-lock.json");
 * assertEquals(npm.installCommand("/tmp/cache").env.npm_config_cache, "/tmp/cache");
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
      env: { npm_config_cache: cache, npm_config_update_notifier: "false", ...compileCache(cache) },
    }),
  };
}

interface ToolInstall {
  args: string[];
  env: Record<string, string>;
}

interface Tool {
  lockfile: string;
  install(cache: string, version: string): ToolInstall;
}

const TOOLS: Record<string, Tool> = {
  pnpm: {
    lockfile: "pnpm-lock.yaml",
    install: (cache) => ({
      args: ["install", "--store-dir", `${cache}/store`, "--cache-dir", `${cache}/metadata`],
      env: { npm_config_update_notifier: "false" },
    }),
  },
  yarn: {
    lockfile: "yarn.lock",
    install(cache: string, version: string): ToolInstall {
      if (version.startsWith("1.")) {
        return {
          args: ["install", "--cache-folder", cache, "--non-interactive", "--no-progress", "--silent"],
          env: {},
        };
      }
      // Yarn 2+ takes settings from the environment; the node-modules linker gives a tree rtbench can check.
      return {
        args: ["install"],
        env: {
          YARN_CACHE_FOLDER: cache,
          YARN_ENABLE_GLOBAL_CACHE: "false",
          YARN_GLOBAL_FOLDER: `${cache}/global`,
          YARN_NODE_LINKER: "node-modules",
          YARN_ENABLE_IMMUTABLE_INSTALLS: "false",
          YARN_ENABLE_TELEMETRY: "0",
          YARN_ENABLE_PROGRESS_BARS: "false",
        },
      };
    },
  },
};

/**
 * pnpm or yarn, run by the given Node.js binary: the one on `PATH`, else the
 * npm package of that name installed into rtbench's cache.
 *
 * @param name `npm`, `pnpm` or `yarn`.
 * @param nodeBinary The Node.js that runs it.
 * @param signal Stops fetching it from npm.
 * @returns The package manager with its version, lockfile name and install command.
 *
 * @example npm, run by the Node.js on PATH (pnpm and yarn the same way)
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { node, nodePackageManager } from "@rtbench/rtbench/adapters";
 *
 * const npm = await nodePackageManager("npm", (await node.detect())!);
 * assertEquals(npm.lockfile, "package-lock.json");
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
      { name, npmPackage: name, provisionedBinaryPaths: () => [`node_modules/.bin/${name}`] },
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
    installCommand: (cache) => {
      const { args, env } = tool.install(cache, version);
      return { argv: [...base, ...args], env: { COREPACK_ENABLE_STRICT: "0", ...env, ...compileCache(cache) } };
    },
  };
}
