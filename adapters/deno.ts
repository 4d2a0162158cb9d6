/**
 * The Deno runtime adapter. `deno@system` is the Deno that runs rtbench
 * itself, which also stands in for the version the default asks for when it
 * is that version.
 *
 * @module
 */

import type { RuntimeVariable } from "../runners/platform/mod.ts";
import { probe } from "./_version.ts";
import type { Listen, PackageManager, ParallelServer, RuntimeAdapter, RuntimeVersion, TypeScriptRun } from "./types.ts";

/**
 * Variables known to change Deno, from `deno --help`; a family `DENO_*` takes the settings not named.
 */
const VARIABLES: readonly RuntimeVariable[] = [
  { name: "DENO_V8_FLAGS", changes: "deno", effect: "V8 flags, as --v8-flags", example: "--max-old-space-size=64" },
  {
    name: "DENO_DIR",
    changes: "deno",
    effect: "its module and transpile cache (cold or warm start)",
    example: "/tmp/deno-dir",
  },
  {
    name: "DENO_CERT",
    changes: "deno",
    effect: "a CA file loaded at start",
    example: "/etc/ssl/certs/ca-certificates.crt",
  },
  { name: "DENO_TLS_CA_STORE", changes: "deno", effect: "which certificate stores are loaded", example: "system" },
  {
    name: "DENO_SERVE_ADDRESS",
    changes: "deno",
    effect: "overrides the address Deno.serve listens on",
    example: "tcp:127.0.0.1:8080",
  },
  {
    name: "DENO_SERVE_AUTOMATIC_COMPRESSION",
    changes: "deno",
    effect: "Deno.serve compresses response bodies",
    example: "1",
  },
  { name: "DENO_AUTO_SERVE", changes: "deno", effect: "deno run behaves as deno serve", example: "1" },
  { name: "DENO_JOBS", changes: "deno", effect: "workers of deno serve --parallel", example: "4" },
  { name: "DENO_USE_CGROUPS", changes: "deno", effect: "V8's memory limit from the cgroup", example: "1" },
  {
    name: "DENO_EMIT_CACHE_MODE",
    changes: "deno",
    effect: "whether transpiled sources are cached (start-up)",
    example: "disable",
  },
  { name: "DENO_NO_PACKAGE_JSON", changes: "deno", effect: "package.json is not resolved", example: "1" },
  { name: "DENO_COMPAT", changes: "deno", effect: "Node.js compatibility mode", example: "1" },
  {
    name: "DENO_CONDITIONS",
    changes: "deno",
    effect: "custom conditions for npm package exports",
    example: "development",
  },
  {
    name: "DENO_*",
    changes: "deno",
    effect: "one of Deno's settings (deno --help)",
    example: "DENO_NO_UPDATE_CHECK=1",
  },
];

/**
 * Runs files with `deno run -A` (the code under test gets every permission, as
 * it would on Node and Bun, which have no permission system).
 *
 * @example Build the command that runs a server
 * ```ts
 * import { deno } from "./deno.ts";
 * const argv = deno.command("/usr/bin/deno", "server.ts");
 * console.log(argv.join(" ")); // "/usr/bin/deno run -A server.ts"
 * ```
 */
export const deno: RuntimeAdapter = {
  name: "deno",
  description: "Deno (V8, Rust)",
  engine: "V8",
  npmPackage: "deno",
  serverExtension: ".ts",
  variables: VARIABLES,
  detect(): Promise<string | undefined> {
    return Promise.resolve(Deno.execPath());
  },
  provisionedBinaryPaths(): readonly string[] {
    const arch = Deno.build.arch === "aarch64" ? "arm64" : "x64";
    const os = Deno.build.os === "linux" ? `linux-${arch}-glibc` : `${Deno.build.os}-${arch}`;
    return ["node_modules/deno/deno", `node_modules/@deno/${os}/deno`];
  },
  async version(binary: string): Promise<RuntimeVersion> {
    const text = await probe([binary, "--version"]);
    const version = /^deno (\S+)/m.exec(text)?.[1];
    if (!version) throw new Error(`Cannot read the version of ${binary}: unexpected output "${text}"`);
    return { version, engineVersion: /^v8 (\S+)/m.exec(text)?.[1] ?? null };
  },
  command(binary: string, file: string, args: readonly string[] = []): string[] {
    return [binary, "run", "-A", file, ...args];
  },
  evalCommand(binary: string, code: string): string[] {
    return [binary, "eval", code];
  },
  // Deno checks for a newer release in the background of every run (and prints about it).
  quietEnv: { DENO_NO_UPDATE_CHECK: "1" },
  typeScriptCommand(binary: string, file: string): Promise<TypeScriptRun> {
    return Promise.resolve({ mode: "native", argv: [binary, "run", "-A", file] });
  },
  parallel(binary: string, file: string, args: readonly string[], workers: number, listen: Listen): ParallelServer {
    const at = ["--host", listen.host, "--port", String(listen.port)];
    return {
      // RTBENCH_DENO_SERVE: the server file then leaves serving to `deno serve` and only exports its handler.
      argv: [binary, "serve", "-A", "--parallel", ...at, file, ...args],
      env: { DENO_JOBS: String(workers), RTBENCH_DENO_SERVE: "1" },
      form: "deno serve --parallel",
      processes: 1,
      // With one worker deno serve leaves the count out.
      announces: /^deno serve: Listening on \S+(?: with (\d+) threads)?$/m,
    };
  },
  parallelUnsupported(file: string): string | null {
    return Deno.readTextFileSync(file).includes("RTBENCH_DENO_SERVE")
      ? null
      : "this server does not export its handler for deno serve --parallel (--server-cpus)";
  },
  async packageManager(binary: string): Promise<PackageManager> {
    const version = /^deno (\S+)/m.exec(await probe([binary, "--version"]))?.[1] ?? "unknown";
    return {
      name: "deno",
      version,
      lockfile: "deno.lock",
      // DENO_DIR holds Deno's npm cache as well as its module cache.
      installCommand: (cache) => ({ argv: [binary, "install"], env: { DENO_DIR: cache, NO_COLOR: "1" } }),
    };
  },
};
