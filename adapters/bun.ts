/**
 * The Bun runtime adapter.
 *
 * @module
 */

import { type RuntimeVariable, which } from "../runners/platform/mod.ts";
import { probe } from "./_version.ts";
import { localPath } from "./_native_build.ts";
import type { PackageManager, ParallelServer, RuntimeAdapter, RuntimeVersion, TypeScriptRun } from "./types.ts";

/**
 * Variables known to change Bun, from its documentation (docs/runtime/environment-variables.mdx) and `bun --help` on
 * JavaScriptCore's options; a family `BUN_*` takes the settings not named.
 */
const VARIABLES: readonly RuntimeVariable[] = [
  {
    name: "BUN_OPTIONS",
    changes: "bun",
    effect: "command-line arguments prepended to every bun process",
    example: "--smol",
  },
  { name: "BUN_JSC_*", changes: "bun", effect: "JavaScriptCore options (JIT tiers, GC)", example: "BUN_JSC_useJIT=0" },
  {
    name: "BUN_CONFIG_*",
    changes: "bun",
    effect: "bun's configuration (fetch concurrency, verbose fetch, registry)",
    example: "BUN_CONFIG_MAX_HTTP_REQUESTS=8",
  },
  {
    name: "BUN_RUNTIME_TRANSPILER_CACHE_PATH",
    changes: "bun",
    effect: "its transpiler cache (start-up)",
    example: "0",
  },
  { name: "BUN_GARBAGE_COLLECTOR_LEVEL", changes: "bun", effect: "how eagerly it collects garbage", example: "2" },
  { name: "BUN_*", changes: "bun", effect: "one of Bun's settings", example: "BUN_GC_TIMER_DISABLE=1" },
];

/**
 * Runs files with `bun <file>`; provisioned from the npm package `bun` (by
 * default its latest stable release), or the one on `PATH` when asked for as
 * `bun@system`. The engine version is the WebKit commit Bun reports.
 *
 * @example Build the command that runs a server
 * ```ts
 * import { bun } from "./bun.ts";
 * console.log(bun.command("bun", "server.ts")); // ["bun", "server.ts"]
 * ```
 */
export const bun: RuntimeAdapter = {
  name: "bun",
  description: "Bun (JavaScriptCore, Zig)",
  engine: "JavaScriptCore",
  npmPackage: "bun",
  serverExtension: ".ts",
  variables: VARIABLES,
  detect(): Promise<string | undefined> {
    return Promise.resolve(which("bun") ?? undefined);
  },
  provisionedBinaryPaths(): readonly string[] {
    const arch = Deno.build.arch === "aarch64" ? "aarch64" : "x64";
    const os = Deno.build.os;
    return [
      "node_modules/bun/bin/bun.exe",
      `node_modules/@oven/bun-${os}-${arch}/bin/bun`,
      `node_modules/@oven/bun-${os}-${arch}-baseline/bin/bun`,
      `node_modules/@oven/bun-${os}-${arch}-musl/bin/bun`,
    ];
  },
  async version(binary: string): Promise<RuntimeVersion> {
    const text = await probe([binary, "-p", "Bun.version + ' ' + (process.versions.webkit ?? '')"]);
    const [version, webkit] = text.split(" ");
    if (!version) throw new Error(`Cannot read the version of ${binary}: unexpected output "${text}"`);
    return { version, engineVersion: webkit ? `webkit-${webkit.slice(0, 12)}` : null };
  },
  command(binary: string, file: string, args: readonly string[] = []): string[] {
    return [binary, file, ...args];
  },
  evalCommand(binary: string, code: string): string[] {
    return [binary, "-e", code];
  },
  // Bun sends crash reports and usage data unless told not to.
  quietEnv: { DO_NOT_TRACK: "1" },
  typeScriptCommand(binary: string, file: string): Promise<TypeScriptRun> {
    return Promise.resolve({ mode: "native", argv: [binary, file] });
  },
  parallel(binary: string, file: string, args: readonly string[] = [], workers: number): ParallelServer {
    const launcher = localPath(new URL("../servers/bun/reuse_port.ts", import.meta.url));
    return {
      argv: [binary, launcher, file, ...args],
      env: { RTBENCH_WORKERS: String(workers) },
      form: "Bun.serve reusePort, one process per CPU",
      processes: workers + 1,
    };
  },
  parallelUnsupported(file: string): string | null {
    return Deno.readTextFileSync(file).includes("RTBENCH_REUSE_PORT")
      ? null
      : "this server does not share its port with reusePort, so one process per CPU cannot run (--server-cpus)";
  },
  async packageManager(binary: string): Promise<PackageManager> {
    return {
      name: "bun",
      version: await probe([binary, "--version"]),
      lockfile: "bun.lock",
      installCommand: (cache) => ({
        argv: [binary, "install", "--no-progress", "--no-summary"],
        env: { BUN_INSTALL_CACHE_DIR: cache },
      }),
    };
  },
};
