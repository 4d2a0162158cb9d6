/**
 * The Deno runtime adapter. Without a requested version it uses the Deno that
 * runs rtbench itself.
 *
 * @module
 */

import { probe } from "./_version.ts";
import type { Listen, PackageManager, ParallelServer, RuntimeAdapter, RuntimeVersion, TypeScriptRun } from "./types.ts";

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
  description: "Deno (V8, Rust); defaults to the Deno running rtbench",
  engine: "V8",
  npmPackage: "deno",
  serverExtension: ".ts",
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
