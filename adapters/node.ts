/**
 * The Node.js runtime adapter.
 *
 * @module
 */

import { runCommand, which } from "../runners/platform/mod.ts";
import { probe } from "./_version.ts";
import { npmManager } from "./package_managers.ts";
import { localPath } from "./_native_build.ts";
import type { PackageManager, ParallelServer, RuntimeAdapter, RuntimeVersion, TypeScriptRun } from "./types.ts";

// `process.features.typescript` is "strip" or "transform" where Node.js runs .ts files
// by default (23.6+, 22.18+), false where it needs --experimental-strip-types (22.6+),
// and undefined before that.
const TS_PROBE = "String(process.features.typescript)";

async function typeScriptMode(binary: string): Promise<TypeScriptRun["mode"]> {
  // What the binary can do, not a process a record measures: not listed among any record's processes.
  const plain = await runCommand([binary, "-p", TS_PROBE], { timeoutMs: 30_000, listed: false });
  if (plain.success && /^(strip|transform)$/.test(plain.stdout.trim())) return "native";
  const flagged = await runCommand([binary, "--experimental-strip-types", "-p", TS_PROBE], {
    timeoutMs: 30_000,
    listed: false,
  });
  if (flagged.success && /^(strip|transform)$/.test(flagged.stdout.trim())) return "strip-types-flag";
  return "none";
}

/**
 * Runs files with `node <file>`; found on `PATH` or provisioned from the npm
 * package `node`.
 *
 * @example Build the command that evaluates code
 * ```ts
 * import { node } from "./node.ts";
 * console.log(node.evalCommand("node", "1")); // ["node", "-e", "1"]
 * ```
 */
export const node: RuntimeAdapter = {
  name: "node",
  description: "Node.js (V8, libuv)",
  engine: "V8",
  npmPackage: "node",
  serverExtension: ".mjs",
  detect(): Promise<string | undefined> {
    return Promise.resolve(which("node") ?? undefined);
  },
  provisionedBinaryPaths(): readonly string[] {
    return ["node_modules/node/bin/node"];
  },
  async version(binary: string): Promise<RuntimeVersion> {
    const text = await probe([binary, "-p", "process.versions.node + ' ' + process.versions.v8"]);
    const [version, engineVersion] = text.split(" ");
    if (!version) throw new Error(`Cannot read the version of ${binary}: unexpected output "${text}"`);
    return { version, engineVersion: engineVersion ?? null };
  },
  command(binary: string, file: string, args: readonly string[] = []): string[] {
    return [binary, file, ...args];
  },
  evalCommand(binary: string, code: string): string[] {
    return [binary, "-e", code];
  },
  async typeScriptCommand(binary: string, file: string): Promise<TypeScriptRun> {
    const mode = await typeScriptMode(binary);
    if (mode === "native") return { mode, argv: [binary, file] };
    if (mode === "strip-types-flag") {
      return { mode, argv: [binary, "--experimental-strip-types", "--disable-warning=ExperimentalWarning", file] };
    }
    return { mode, argv: null };
  },
  parallel(binary: string, file: string, args: readonly string[] = [], workers: number): ParallelServer {
    const cluster = localPath(new URL("../servers/node/cluster.mjs", import.meta.url));
    return {
      argv: [binary, cluster, file, ...args],
      env: { RTBENCH_WORKERS: String(workers) },
      form: "node:cluster",
      processes: workers + 1,
    };
  },
  packageManager(binary: string): Promise<PackageManager> {
    return npmManager(binary);
  },
};
