/**
 * Server workspaces: a directory per suite where server files are staged next
 * to a `node_modules` with the npm packages they import. Packages are installed
 * once per dependency set into the cache and linked, so Node, Deno and Bun all
 * resolve the same files.
 *
 * @module
 */

import { runCommand, which } from "./process.ts";
import { removeTree } from "./remove_tree.ts";
import { makeTempDir, removeTemp } from "./temp.ts";

async function hash(text: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return [...new Uint8Array(digest).slice(0, 8)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

async function exists(path: string): Promise<boolean> {
  try {
    await Deno.lstat(path);
    return true;
  } catch {
    return false;
  }
}

/**
 * Installs `dependencies` with npm into `<cache>/deps/<hash>` unless already
 * there, and returns that directory's `node_modules`. `optional` packages go
 * into `optionalDependencies`: npm leaves out one that cannot be installed or
 * built here instead of failing.
 */
export async function installDependencies(
  dependencies: Readonly<Record<string, string>>,
  cache: string,
  signal?: AbortSignal,
  optional: Readonly<Record<string, string>> = {},
): Promise<string> {
  const sorted = (deps: Readonly<Record<string, string>>) => Object.fromEntries(Object.entries(deps).sort());
  const manifest = JSON.stringify(
    {
      private: true,
      type: "module",
      dependencies: sorted(dependencies),
      // Only when present, so that existing sets keep their cache directory.
      ...(Object.keys(optional).length > 0 ? { optionalDependencies: sorted(optional) } : {}),
    },
    null,
    2,
  );
  const dir = `${cache}/deps/${await hash(manifest)}`;
  if (await exists(`${dir}/node_modules/.rtbench-complete`)) return `${dir}/node_modules`;
  const npm = which("npm");
  if (!npm) throw new Error("Cannot install server dependencies: npm is not on PATH (install Node.js and npm)");
  await Deno.mkdir(`${cache}/deps`, { recursive: true });
  const staging = await makeTempDir({ dir: `${cache}/deps`, prefix: ".install-" });
  try {
    await Deno.writeTextFile(`${staging}/package.json`, manifest);
    const out = await runCommand([npm, "install", "--no-audit", "--no-fund", "--loglevel=error"], {
      cwd: staging,
      timeoutMs: 600_000,
      signal,
      purpose: "registry",
      role: "install dependencies",
    });
    if (!out.success) {
      const why = out.timedOut ? "timed out" : out.stderr.trim().split("\n").at(-1) ?? `exit ${out.code}`;
      const names = [...Object.keys(dependencies), ...Object.keys(optional)].join(", ");
      throw new Error(`Cannot install server dependencies (${names}): ${why}`);
    }
    await Deno.writeTextFile(`${staging}/node_modules/.rtbench-complete`, "");
    // Another rtbench that installed the same set meanwhile may be using its copy: keep it. What is left otherwise is
    // an interrupted install's.
    if (await exists(`${dir}/node_modules/.rtbench-complete`)) return `${dir}/node_modules`;
    await removeTree(dir).catch(() => {});
    try {
      await Deno.rename(staging, dir);
    } catch (error) {
      if (!(await exists(`${dir}/node_modules/.rtbench-complete`))) throw error;
    }
  } finally {
    await removeTemp(staging);
  }
  return `${dir}/node_modules`;
}

/** Files a server needs besides its entry (a `ServerSource`'s): where the entry's relative imports find them. */
export interface ServerFiles {
  /** Staged at their paths relative to the entry, as the entry's relative imports name them. */
  readonly assets?: readonly URL[];
  /** Staged next to the entry under their own names, wherever they are. */
  readonly beside?: readonly URL[];
}

/**
 * Copies a server's source (a `file:` or `https:` URL) into `dir`, with a
 * `package.json` marking ES modules and, when given, a link to `nodeModules`;
 * its `assets` at their paths relative to it (see {@linkcode stagedPaths}) and
 * the files `beside` it next to it. Returns the staged file's path.
 */
export async function stageServer(
  entry: URL,
  dir: string,
  nodeModules?: string,
  files: ServerFiles = {},
): Promise<string> {
  await Deno.mkdir(dir, { recursive: true });
  const pkg = `${dir}/package.json`;
  if (!(await exists(pkg))) await Deno.writeTextFile(pkg, JSON.stringify({ private: true, type: "module" }) + "\n");
  if (nodeModules && !(await exists(`${dir}/node_modules`))) await Deno.symlink(nodeModules, `${dir}/node_modules`);
  const assets = files.assets ?? [];
  const [file, ...others] = stagedPaths(entry, assets).map((path) => `${dir}/${path}`);
  for (const [i, path] of others.entries()) await copySource(assets[i], path);
  const folder = file.slice(0, file.lastIndexOf("/"));
  for (const url of files.beside ?? []) await copySource(url, `${folder}/${segments(url, -1)[0]}`);
  await copySource(entry, file);
  return file;
}

/**
 * Where a server's entry and its assets go in its staging folder, relative to it: each at its path relative to the
 * deepest folder holding them all, so that the entry's relative imports (`../routes.mjs`) find them there as in place.
 * An asset of another origin, or whose path would leave the folder (an encoded `/`), is refused.
 *
 * @param entry The server's entry.
 * @param assets The files it reaches by relative path.
 * @returns The entry's path, then each asset's.
 *
 * @example An entry that imports a module of its parent folder
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { stagedPaths } from "./workspace.ts";
 *
 * const entry = new URL("file:///app/servers/main.mjs");
 * assertEquals(stagedPaths(entry, [new URL("../routes.mjs", entry)]), ["servers/main.mjs", "routes.mjs"]);
 * assertEquals(stagedPaths(entry, []), ["main.mjs"]);
 * ```
 */
export function stagedPaths(entry: URL, assets: readonly URL[]): string[] {
  for (const asset of assets) {
    if (asset.protocol !== entry.protocol || asset.host !== entry.host) {
      throw new Error(`Cannot stage ${asset.href}: an asset must be where the server's entry is (${entry.origin})`);
    }
  }
  const folders = [entry, ...assets].map((url) => url.pathname.split("/").slice(0, -1));
  let depth = 0;
  while (folders.every((f) => depth < f.length && f[depth] === folders[0][depth])) depth++;
  return [entry, ...assets].map((url) => segments(url, depth).join("/"));
}

/** The decoded names of `url`'s path from its `from`-th segment on (negative: from the end); refused when unsafe. */
function segments(url: URL, from: number): string[] {
  const names = url.pathname.split("/").slice(from).map((n) => {
    try {
      return decodeURIComponent(n);
    } catch {
      return "\0"; // malformed escapes: refused below
    }
  });
  if (names.at(-1) === "") throw new Error(`Cannot stage ${url.href}: it names a folder, not a file`);
  if (names.some((n) => n === "" || n === "." || n === ".." || /[/\\\0]/.test(n))) {
    throw new Error(`Cannot stage ${url.href}: its path would leave the server's staging folder`);
  }
  return names;
}

/** Copies a source file to `path`, making its folder; a remote module's `npm:` imports are made bare. */
async function copySource(url: URL, path: string): Promise<void> {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`Cannot read server source ${url.href}: HTTP ${response.status}`);
  const text = await response.text();
  await Deno.mkdir(path.slice(0, path.lastIndexOf("/")), { recursive: true });
  await Deno.writeTextFile(path, url.protocol === "file:" ? text : bareSpecifiers(text));
}

/**
 * A module's text with its `npm:` imports made bare again (`"npm:ws@8.23.0"` → `"ws"`, `"npm:a@1/b.js"` → `"a/b.js"`):
 * publishing to JSR rewrites a package's bare imports into its import map's `npm:` targets, which Node.js and Bun
 * cannot load; a staged server resolves them from its node_modules, as it does in a checkout.
 *
 * @example
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { bareSpecifiers } from "./workspace.ts";
 * assertEquals(bareSpecifiers('import { WebSocketServer } from "npm:ws@8.23.0";'), 'import { WebSocketServer } from "ws";');
 * ```
 */
export function bareSpecifiers(text: string): string {
  return text.replace(
    /(\bfrom\s*|\bimport\s*\(?\s*)(["'])npm:\/?((?:@[^/@"']+\/)?[^/@"']+)(?:@[^/"']*)?(\/[^"']*)?\2/g,
    (_, before, quote, name, sub) => `${before}${quote}${name}${sub ?? ""}${quote}`,
  );
}
