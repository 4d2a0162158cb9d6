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

/**
 * Copies a server's source (a `file:` or `https:` URL) into `dir`, with a
 * `package.json` marking ES modules and, when given, a link to `nodeModules`.
 * Returns the staged file's path.
 */
export async function stageServer(entry: URL, dir: string, nodeModules?: string): Promise<string> {
  await Deno.mkdir(dir, { recursive: true });
  const pkg = `${dir}/package.json`;
  if (!(await exists(pkg))) await Deno.writeTextFile(pkg, JSON.stringify({ private: true, type: "module" }) + "\n");
  if (nodeModules && !(await exists(`${dir}/node_modules`))) await Deno.symlink(nodeModules, `${dir}/node_modules`);
  const response = await fetch(entry);
  if (!response.ok) throw new Error(`Cannot read server source ${entry.href}: HTTP ${response.status}`);
  const file = `${dir}/${entry.pathname.split("/").at(-1)}`;
  const text = await response.text();
  await Deno.writeTextFile(file, entry.protocol === "file:" ? text : bareSpecifiers(text));
  return file;
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
