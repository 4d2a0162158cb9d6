/**
 * The Node.js runtime adapter.
 *
 * @module
 */

import { which } from "../runners/_process.ts";
import { probe } from "./_version.ts";
import type { RuntimeAdapter, RuntimeVersion } from "./types.ts";

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
};
