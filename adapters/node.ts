/**
 * The Node.js runtime adapter.
 *
 * @module
 */

import { runCommand, type RuntimeVariable, which } from "../runners/platform/mod.ts";
import { probe } from "./_version.ts";
import { npmManager } from "./package_managers.ts";
import { localPath } from "./_native_build.ts";
import { activeLtsLine, NODE_SCHEDULE_SOURCE, nodeSupport } from "./node_schedule.ts";
import { releaseLine } from "./releases.ts";
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
 * Variables known to change Node.js, from `node --help` and doc/api/cli.md: its own (`NODE_*`), libuv's, OpenSSL's,
 * and the npm `debug` package's `DEBUG` (Express logs through it on every runtime), several of them also read by Deno
 * or Bun, as `changes` says.
 */
const VARIABLES: readonly RuntimeVariable[] = [
  {
    name: "NODE_OPTIONS",
    changes: "node",
    effect: "command-line options added to every node process",
    example: "--max-old-space-size=64",
  },
  {
    name: "NODE_EXTRA_CA_CERTS",
    changes: "node, deno",
    effect: "a CA bundle read and parsed at every start",
    example: "/etc/ssl/certs/ca-certificates.crt",
  },
  { name: "NODE_USE_SYSTEM_CA", changes: "node", effect: "the system's CA store loaded at start", example: "1" },
  {
    name: "NODE_COMPILE_CACHE",
    changes: "node",
    effect: "an on-disk compile cache for modules (start-up)",
    example: "/tmp/node-compile-cache",
  },
  { name: "NODE_DISABLE_COMPILE_CACHE", changes: "node", effect: "turns the module compile cache off", example: "1" },
  {
    name: "NODE_ENV",
    changes: "node, bun, frameworks",
    effect: "frameworks switch modes (Express: production); Bun reads .env.<NODE_ENV>",
    example: "production",
  },
  {
    name: "NODE_PATH",
    changes: "node",
    effect: "extra directories searched for modules",
    example: "/usr/lib/node_modules",
  },
  { name: "NODE_PRESERVE_SYMLINKS", changes: "node", effect: "module resolution keeps symlinked paths", example: "1" },
  { name: "NODE_DEBUG", changes: "node", effect: "debug output from core modules (http, net)", example: "http" },
  { name: "NODE_DEBUG_NATIVE", changes: "node", effect: "debug output from C++ core modules", example: "http2" },
  {
    name: "NODE_V8_COVERAGE",
    changes: "node",
    effect: "collects code coverage: every function instrumented",
    example: "/tmp/coverage",
  },
  { name: "NODE_ICU_DATA", changes: "node", effect: "another ICU data file for Intl", example: "/usr/share/icu" },
  {
    name: "NODE_TLS_REJECT_UNAUTHORIZED",
    changes: "node, bun",
    effect: "turns TLS certificate checks off",
    example: "0",
  },
  {
    name: "NODE_USE_ENV_PROXY",
    changes: "node, deno",
    effect: "node:http requests go through HTTP_PROXY",
    example: "1",
  },
  {
    name: "UV_THREADPOOL_SIZE",
    changes: "node",
    effect: "libuv's thread pool (fs, dns, crypto such as bcrypt)",
    example: "16",
  },
  { name: "UV_USE_IO_URING", changes: "node", effect: "libuv's io_uring file I/O on or off", example: "0" },
  {
    name: "OPENSSL_CONF",
    changes: "node",
    effect: "an OpenSSL configuration loaded at start",
    example: "/etc/ssl/openssl.cnf",
  },
  {
    name: "SSL_CERT_FILE",
    changes: "node, deno",
    effect: "OpenSSL's (node --use-openssl-ca) or rustls' trusted certificates",
    example: "/etc/ssl/certs/ca-certificates.crt",
  },
  {
    name: "SSL_CERT_DIR",
    changes: "node, deno",
    effect: "a directory of trusted certificates read at start",
    example: "/etc/ssl/certs",
  },
  // The debug package of npm (Express's logging), read wherever it runs
  {
    name: "DEBUG",
    changes: "node, bun, deno (the debug package: Express)",
    effect: "debug logging on matching namespaces",
    example: "express:*",
  },
];

/**
 * Runs files with `node <file>`; provisioned from the npm package `node` (by
 * default the newest release of the Active LTS line on Node.js's release
 * schedule), or the one on `PATH` when asked for as `node@system`.
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
  variables: VARIABLES,
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
  deployLine(day: string): string | null {
    return activeLtsLine(day);
  },
  support(version: string, day: string) {
    const line = releaseLine("node", version);
    return { line, ...nodeSupport(line, day), source: NODE_SCHEDULE_SOURCE };
  },
};
