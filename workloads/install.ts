/**
 * `install`: how long a package manager takes to install a realistic
 * manifest (`fixtures/install/package.json`: an Express API service, 37
 * direct dependencies), cold, with a warm cache and lockfile, and with a warm
 * cache but no `node_modules`. Each manager gets its own cache directory in
 * rtbench's temporary folder, so the user's caches are never read or written.
 *
 * @module
 */

import { nodePackageManager, PACKAGE_MANAGER_NAMES, type PackageManager } from "../adapters/mod.ts";
import { removeTree, runCommand, which } from "../runners/platform/mod.ts";
import { checkDirectDependencies, countPackages, directDependencies } from "./_install_tree.ts";
import type {
  ProcessContext,
  ProcessTarget,
  ProcessWorkload,
  Skip,
  WorkloadContext,
  WorkloadSession,
} from "./types.ts";

/** The manifest measured unless `--install-manifest` names another. */
export const DEFAULT_INSTALL_MANIFEST: URL = new URL("../fixtures/install/package.json", import.meta.url);

const DEFAULT_REGISTRY = "https://registry.npmjs.org/";
const INSTALL_TIMEOUT_MS = 600_000;

function absolute(path: string): string {
  return path.startsWith("/") ? path : `${Deno.cwd()}/${path}`;
}

function manifestUrl(value: unknown): URL {
  return typeof value === "string" ? new URL(absolute(value), "file:///") : DEFAULT_INSTALL_MANIFEST;
}

function validateManifest(value: number | string): string | undefined {
  let manifest: Record<string, unknown>;
  try {
    manifest = JSON.parse(Deno.readTextFileSync(String(value)));
  } catch (error) {
    const why = error instanceof SyntaxError ? "not valid JSON" : (error as Error).message.split(":")[0];
    return `cannot read ${value} (${why})`;
  }
  if (Object.keys(directDependencies(manifest)).length === 0) return `${value} has no dependencies or devDependencies`;
  return undefined;
}

function validateManager(value: number | string): string | undefined {
  return PACKAGE_MANAGER_NAMES.includes(String(value))
    ? undefined
    : `unknown package manager "${value}" (allowed: ${PACKAGE_MANAGER_NAMES.join(", ")})`;
}

/** `file:` specs made absolute against the manifest's directory, so the project can live anywhere. */
function absoluteFileSpecs(deps: unknown, base: URL): Record<string, string> | undefined {
  if (!deps || typeof deps !== "object") return undefined;
  return Object.fromEntries(
    Object.entries(deps as Record<string, string>).map(([name, spec]) => {
      if (!spec.startsWith("file:")) return [name, spec];
      const target = new URL(spec.slice("file:".length), base);
      if (target.protocol !== "file:") throw new Error(`Cannot resolve ${name}: ${spec} next to ${base.href}`);
      return [name, `file:${decodeURIComponent(target.pathname)}`];
    }),
  );
}

/** The registry npm is configured to use (`npm config get registry`), or npm's default. */
async function userRegistry(cwd: string, signal: AbortSignal): Promise<string> {
  const npm = which("npm");
  if (!npm) return DEFAULT_REGISTRY;
  const out = await runCommand([npm, "config", "get", "registry"], {
    cwd,
    // A cache in rtbench's temporary folder: npm creates its cache directory even to read a setting.
    env: { npm_config_cache: `${cwd}/npm-config-cache`, npm_config_logs_max: "0" },
    purpose: "registry",
    timeoutMs: 30_000,
    signal,
  });
  const value = out.stdout.trim().split("\n").at(-1)?.trim() ?? "";
  return out.success && /^https?:\/\//.test(value) ? value.replace(/\/?$/, "/") : DEFAULT_REGISTRY;
}

async function probeRegistry(registry: string, name: string, signal: AbortSignal): Promise<void> {
  const url = `${registry}${name.replace("/", "%2f")}`;
  let response: Response;
  try {
    response = await fetch(url, {
      headers: { accept: "application/vnd.npm.install-v1+json" },
      signal: AbortSignal.any([signal, AbortSignal.timeout(15_000)]),
    });
  } catch (error) {
    signal.throwIfAborted();
    throw new Error(
      `Cannot reach the npm registry ${registry} (from npm config): ${(error as Error).message}; ` +
        "the install workload needs it (tests use a manifest of local tarballs instead)",
    );
  }
  await response.body?.cancel();
  if (!response.ok) {
    throw new Error(`The npm registry ${registry} answered HTTP ${response.status} for ${name}`);
  }
}

async function setup(ctx: WorkloadContext): Promise<WorkloadSession> {
  const url = manifestUrl(ctx.options["install-manifest"]);
  const response = await fetch(url);
  if (!response.ok) throw new Error(`Cannot read the install manifest ${url.href}: HTTP ${response.status}`);
  const manifest = await response.json() as Record<string, unknown>;
  const project = {
    ...manifest,
    dependencies: absoluteFileSpecs(manifest.dependencies, url),
    devDependencies: absoluteFileSpecs(manifest.devDependencies, url),
  };
  const deps = directDependencies(project);
  const fromRegistry = Object.entries(deps).filter(([, spec]) => !spec.startsWith("file:")).map(([name]) => name);
  const registry = await userRegistry(ctx.tempDir, ctx.signal);
  if (fromRegistry.length > 0) await probeRegistry(registry, fromRegistry[0], ctx.signal);
  const dir = `${ctx.tempDir}/manifest`;
  await Deno.mkdir(dir, { recursive: true });
  await Deno.writeTextFile(`${dir}/package.json`, JSON.stringify(project, null, 2) + "\n");
  // Every manager reads the registry from a project .npmrc (npm, pnpm, yarn 1, Bun, Deno).
  await Deno.writeTextFile(`${dir}/.npmrc`, `registry=${registry}\n`);
  return {
    facts: {
      manifest: typeof manifest.name === "string" ? manifest.name : url.pathname.split("/").at(-1) ?? "package.json",
      directDependencies: Object.keys(deps).length,
      registry: fromRegistry.length > 0 ? registry : `${registry} (unused: every dependency is a local file)`,
    },
  };
}

async function manager(ctx: ProcessContext): Promise<PackageManager | Skip> {
  const choice = String(ctx.options["package-manager"] ?? "native");
  const { adapter, binary, name } = ctx.runtime;
  if (choice === "native") {
    if (!adapter.packageManager) return { skip: `${name} has no package manager of its own` };
    return await adapter.packageManager(binary);
  }
  if (name !== "node") return { skip: `--package-manager ${choice} runs on Node.js; ${name} is not measured` };
  return await nodePackageManager(choice, binary, ctx.signal);
}

/** The last lines of a manager's output that say what went wrong (npm ends with where its log is). */
function lastLine(text: string): string {
  const lines = text.trim().split("\n").filter((l) => l.trim() && !/complete log of this run/i.test(l));
  return lines.slice(-2).join(" | ").slice(0, 400);
}

/**
 * Where a record installs: one directory per runtime and manager that every variant shares within a suite, so the
 * state a cold run leaves (cache, lockfile, node_modules) is the warm variants' start and no extra install is needed.
 */
function placeOf(ctx: ProcessContext, pm: PackageManager): string {
  if (!ctx.sharedDir) return ctx.workDir;
  const key = `${ctx.runtime.requested}-${pm.name}-${pm.version}`.replace(/[^\w.@-]/g, "_");
  return `${ctx.sharedDir}/${key}`;
}

/** What a finished install left for the warm variants: the lockfile their runs start from (null: none written). */
interface Primed {
  readonly lockfile: string | null;
  /** Which install filled the cache, for the record. */
  readonly by: string;
}

/**
 * What the warm variants start from: what a verified cold run left, or, when none did, what one untimed install
 * leaves (it fills the cache and writes the lockfile).
 */
async function primedState(
  ctx: ProcessContext,
  pm: PackageManager,
  command: { argv: string[]; cwd: string; env: Record<string, string> },
  primedPath: string,
  keepPrimed: (by: string) => Promise<Primed>,
): Promise<Primed> {
  const primed = await Deno.readTextFile(primedPath).then((text) => JSON.parse(text) as Primed, () => null);
  if (primed) return primed;
  const out = await runCommand(command.argv, {
    cwd: command.cwd,
    env: command.env,
    purpose: "registry",
    role: "install",
    timeoutMs: INSTALL_TIMEOUT_MS,
    signal: ctx.signal,
  });
  if (!out.success) {
    throw new Error(
      `Cannot warm the ${pm.name} cache: the first install ${
        out.timedOut ? "timed out" : `exited with code ${out.code}`
      }: ${lastLine(out.stderr) || lastLine(out.stdout)}`,
    );
  }
  return await keepPrimed(`an untimed install before the ${ctx.variant} runs`);
}

async function prepare(ctx: ProcessContext): Promise<ProcessTarget | Skip> {
  const pm = await manager(ctx);
  if ("skip" in pm) return pm;
  const place = placeOf(ctx, pm);
  const project = `${place}/project`;
  const cache = `${place}/cache`;
  const primedPath = `${place}/primed.json`;
  await Deno.mkdir(project, { recursive: true });
  await Deno.mkdir(cache, { recursive: true });
  for (const file of ["package.json", ".npmrc"]) {
    await Deno.copyFile(`${ctx.tempDir}/manifest/${file}`, `${project}/${file}`);
  }
  const deps = directDependencies(JSON.parse(await Deno.readTextFile(`${project}/package.json`)));
  const install = pm.installCommand(cache);
  const command = { argv: install.argv, cwd: project, env: { ...install.env, NO_COLOR: "1" }, registry: true };
  const lockPath = `${project}/${pm.lockfile}`;
  // What an install just left, kept for the warm variants.
  const keepPrimed = async (by: string): Promise<Primed> => {
    const left: Primed = { lockfile: await Deno.readTextFile(lockPath).catch(() => null), by };
    await Deno.writeTextFile(primedPath, JSON.stringify(left));
    return left;
  };

  const primed = ctx.variant === "cold" ? null : await primedState(ctx, pm, command, primedPath, keepPrimed);
  const lockfile = primed?.lockfile ?? null;
  return {
    command,
    plan: { warmupRuns: 0, minRuns: ctx.settings.runs, minDurationMs: 0, runTimeoutMs: INSTALL_TIMEOUT_MS },
    facts: {
      packageManager: pm.name,
      packageManagerVersion: pm.version,
      cacheState: ctx.variant === "cold" ? "empty" : "warm",
      lockfile: lockfile === null ? null : pm.lockfile,
      nodeModules: ctx.variant === "warm-lockfile" ? "present (from the previous install)" : "absent",
      ...(primed ? { cacheFilledBy: primed.by } : {}),
    },
    async beforeRun() {
      if (ctx.variant === "cold") {
        await removeTree(primedPath);
        await removeTree(`${project}/node_modules`);
        await removeTree(lockPath);
        await removeTree(cache);
        await Deno.mkdir(cache, { recursive: true });
        return;
      }
      if (lockfile !== null) await Deno.writeTextFile(lockPath, lockfile);
      if (ctx.variant === "warm-no-node-modules") await removeTree(`${project}/node_modules`);
    },
    async inspect(run) {
      if (run.exitCode !== 0) return { checks: [] };
      const checks = await checkDirectDependencies(project, deps);
      if (ctx.variant === "cold" && checks.every((c) => c.passed)) {
        // A verified cold install is exactly what the warm variants start from.
        await keepPrimed("the cold variant's last run");
      }
      return { checks, figures: { packagesInstalled: await countPackages(`${project}/node_modules`) } };
    },
  };
}

/**
 * The install workload. Variants are cache scenarios; the package manager is
 * the runtime's own (npm on Node.js, `bun install`, `deno install`), or pnpm
 * or yarn with `--package-manager` (run by the Node.js runtime; from `PATH`,
 * else fetched from npm into rtbench's cache). After every run each direct
 * dependency must be installed at a version satisfying the manifest.
 *
 * @example Read the scenarios
 * ```ts
 * import { install } from "./install.ts";
 * console.log(install.variants.map((v) => v.name)); // ["cold", "warm-lockfile", "warm-no-node-modules"]
 * ```
 */
export const install: ProcessWorkload = {
  name: "install",
  description: "package install of an Express API service manifest (37 direct dependencies) from the npm registry",
  kind: "process",
  variants: [
    { name: "cold", description: "empty cache, no lockfile, no node_modules" },
    { name: "warm-lockfile", description: "warm cache, lockfile and node_modules from a previous install" },
    { name: "warm-no-node-modules", description: "warm cache and lockfile, node_modules removed" },
  ],
  defaults: { runs: 1, warmupSec: 0 },
  options: [
    {
      name: "install-manifest",
      description:
        "package.json to install (default: fixtures/install/package.json); file: tarballs resolve next to it",
      type: "string",
      validate: validateManifest,
    },
    {
      name: "package-manager",
      description: "native (npm, bun install, deno install), or npm, pnpm, yarn on Node.js",
      type: "string",
      default: "native",
      validate: validateManager,
    },
  ],
  headline: { figure: "wallMs", higherIsBetter: false },
  setup,
  prepare,
};
