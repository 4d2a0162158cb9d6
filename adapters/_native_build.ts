/**
 * Builds a native server project (Go module, Cargo crate) with the machine's
 * toolchain into rtbench's cache, once per hash of its sources and toolchain,
 * and reuses it afterwards: build time never lands in a measured run.
 *
 * @module
 */

import type { Fact } from "../runners/schema/mod.ts";
import { makeTempDir, removeTemp, runCommand } from "../runners/platform/mod.ts";
import { cacheDir } from "./_cache.ts";
import type { ServerBuild } from "./types.ts";

/**
 * A runtime a native toolchain is missing for: its records are `skipped`, with how to get it.
 *
 * @example Tell a missing toolchain from a failure
 * ```ts
 * import { assertInstanceOf, assertRejects } from "@std/assert";
 * import { go, MissingToolchainError, resolveRuntime } from "@rtbench/rtbench/adapters";
 *
 * const noGo = { ...go, detect: () => Promise.resolve(undefined) };
 * const error = await assertRejects(() => resolveRuntime({ name: "go", requested: "go" }, { adapters: [noGo] }));
 * assertInstanceOf(error, MissingToolchainError);
 * ```
 */
export class MissingToolchainError extends Error {
  /**
   * Creates the error.
   *
   * @param message What is missing and how to get it.
   */
  constructor(message: string) {
    super(message);
    this.name = "MissingToolchainError";
  }
}

/** What differs between toolchains: which files are sources, how to build, what the dependencies are. */
export interface NativeToolchain {
  /** Runtime name, the cache directory's prefix (`go`, `rust`). */
  readonly name: string;
  /** Files of the project directory that are part of the build (sources, manifest, lockfile). */
  readonly sources: RegExp;
  /** The toolchain's version line, part of the cache key (a new compiler rebuilds). */
  version(binary: string): Promise<string>;
  /** The build command, run in a copy of the project, that leaves the program at `output`. */
  build(binary: string, output: string, cache: string): { argv: string[]; env: Record<string, string> };
  /** Where the build left the program, when it cannot be told to write `output` itself. */
  built?(cache: string): string;
  /** The project's direct dependencies with their locked versions, for example `hyper 1.12.0`. */
  dependencies(files: ReadonlyMap<string, string>): string[];
}

/** Builds finished or under way in this process, by cache key: parity and records ask for the same build. */
const builds = new Map<string, Promise<ServerBuild>>();

async function hash(text: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return [...new Uint8Array(digest).slice(0, 8)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

async function sourcesOf(dir: string, pattern: RegExp): Promise<Map<string, string>> {
  const files = new Map<string, string>();
  for await (const entry of Deno.readDir(dir)) {
    if (entry.isFile && pattern.test(entry.name)) {
      files.set(entry.name, await Deno.readTextFile(`${dir}/${entry.name}`));
    }
  }
  return new Map([...files].sort(([a], [b]) => a.localeCompare(b)));
}

/** The first of `paths` that is an executable file: a toolchain installed where its installer puts it. */
export function firstExecutable(paths: readonly string[]): string | undefined {
  return paths.find((path) => {
    try {
      const info = Deno.statSync(path);
      return info.isFile && ((info.mode ?? 0o111) & 0o111) !== 0;
    } catch {
      return false;
    }
  });
}

/** The path of a file shipped beside rtbench (a multi-core launcher in `servers/`), which a runtime must run. */
export function localPath(url: URL): string {
  if (url.protocol !== "file:") throw new Error(`Cannot run ${url.href}: servers must be local files`);
  return decodeURIComponent(url.pathname);
}

async function exists(path: string): Promise<boolean> {
  return await Deno.stat(path).then(() => true, () => false);
}

/**
 * The build of the project in `entry`'s directory: from rtbench's cache (`native/<name>-<hash>`) when there,
 * else compiled now into a staging directory renamed into place, so an interrupted build is never reused.
 * The entry's file name without extension chooses its server (`http_json.go` → `http_json`).
 */
export function buildNative(
  toolchain: NativeToolchain,
  binary: string,
  entry: URL,
  signal?: AbortSignal,
): Promise<ServerBuild> {
  if (entry.protocol !== "file:") {
    return Promise.reject(new Error(`Cannot build ${entry.href}: ${toolchain.name} servers must be local files`));
  }
  const path = decodeURIComponent(entry.pathname);
  const dir = path.slice(0, path.lastIndexOf("/"));
  const server = path.slice(dir.length + 1).replace(/\.[^.]+$/, "");
  const key = `${toolchain.name}:${binary}:${dir}`;
  let build = builds.get(key);
  if (!build) {
    build = compile(toolchain, binary, dir, signal);
    builds.set(key, build);
    // A failed build (interrupted, say) is tried again by the next caller.
    build.catch(() => builds.delete(key));
  }
  return build.then((b) => ({ ...b, args: [server] }));
}

async function compile(
  toolchain: NativeToolchain,
  binary: string,
  dir: string,
  signal?: AbortSignal,
): Promise<ServerBuild> {
  const files = await sourcesOf(dir, toolchain.sources);
  const version = await toolchain.version(binary);
  const key = await hash([version, ...[...files].map(([name, text]) => `${name}\0${text}`)].join("\0"));
  const root = `${cacheDir()}/native`;
  const home = `${root}/${toolchain.name}-${key}`;
  const facts: Record<string, Fact> = {
    toolchain: version,
    dependencies: toolchain.dependencies(files).join(", "),
    sourceHash: key,
  };
  if (await exists(`${home}/.rtbench-complete`)) {
    return { executable: `${home}/server`, args: [], facts: { ...facts, build: "cached" } };
  }
  await Deno.mkdir(root, { recursive: true });
  const staging = await makeTempDir({ dir: root, prefix: `.${toolchain.name}-` });
  try {
    await Deno.mkdir(`${staging}/src`);
    for (const [name, text] of files) await Deno.writeTextFile(`${staging}/src/${name}`, text);
    // The toolchain's own caches (modules, crates, compiled dependencies) are shared by every build.
    const cache = `${root}/${toolchain.name}-cache`;
    const { argv, env } = toolchain.build(binary, `${staging}/server`, cache);
    const started = performance.now();
    const out = await runCommand(argv, {
      cwd: `${staging}/src`,
      env,
      timeoutMs: 1_200_000,
      signal,
      purpose: "registry",
      role: "build",
    });
    signal?.throwIfAborted();
    if (!out.success) {
      const why = out.timedOut ? "timed out after 1200 s" : out.stderr.trim().split("\n").slice(-3).join(" | ");
      throw new Error(`Cannot build the ${toolchain.name} servers in ${dir}: ${why || `exit code ${out.code}`}`);
    }
    if (toolchain.built) await Deno.copyFile(toolchain.built(cache), `${staging}/server`);
    const buildMs = Math.round(performance.now() - started);
    await Deno.writeTextFile(`${staging}/.rtbench-complete`, JSON.stringify({ ...facts, buildMs }) + "\n");
    await Deno.remove(`${staging}/src`, { recursive: true });
    try {
      await Deno.rename(staging, home);
    } catch (error) {
      // Another rtbench built the same sources first; use its copy.
      if (!(await exists(`${home}/.rtbench-complete`))) throw error;
    }
    return { executable: `${home}/server`, args: [], facts: { ...facts, build: "built", buildMs } };
  } finally {
    await removeTemp(staging);
  }
}
