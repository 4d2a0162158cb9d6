/**
 * The `RuntimeAdapter` contract: find or provision one JavaScript runtime,
 * report its version and build the command that runs a file with it.
 *
 * @module
 */

import type { RuntimeVariable } from "../runners/platform/mod.ts";
import type { Fact, RuntimeRelease, VersionSelection, Warning } from "../runners/schema/mod.ts";

/**
 * A runtime binary and what it reports about itself.
 *
 * @example What Deno reports about itself
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { deno, type RuntimeVersion } from "@rtbench/rtbench/adapters";
 *
 * const v: RuntimeVersion = await deno.version(Deno.execPath());
 * assertEquals(v.version, Deno.version.deno);
 * ```
 */
export interface RuntimeVersion {
  /** Exact runtime version, for example `2.9.6`. */
  readonly version: string;
  /** Engine version when the runtime reports it, for example `13.6.233.17`. */
  readonly engineVersion: string | null;
}

/**
 * Where a resolved runtime binary came from.
 *
 * @example The Deno running rtbench is the harness
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { resolveRuntime, type RuntimeSource } from "@rtbench/rtbench/adapters";
 *
 * const source: RuntimeSource = (await resolveRuntime({ name: "deno", requested: "deno" })).source;
 * assertEquals(source, "harness");
 * ```
 */
export type RuntimeSource = "harness" | "path" | "cache" | "provisioned";

/**
 * One runtime rtbench can benchmark; one small file per runtime implements it.
 *
 * @example An adapter for Node.js without its optimizing compilers
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { node, type RuntimeAdapter } from "@rtbench/rtbench/adapters";
 *
 * const jitless: RuntimeAdapter = {
 *   ...node,
 *   name: "node-jitless",
 *   description: "Node.js with --jitless",
 *   command: (binary, file, args = []) => [binary, "--jitless", file, ...args],
 * };
 * assertEquals(jitless.command("node", "server.mjs"), ["node", "--jitless", "server.mjs"]);
 * // run({ adapters: [...builtinAdapters, jitless], runtimes: ["node", "node-jitless"] }) measures both.
 * ```
 */
export interface RuntimeAdapter {
  /** Name used with `--runtime`, for example `bun`. */
  readonly name: string;
  /** One line for `--list`. */
  readonly description: string;
  /** JavaScript engine, for example `V8` or `JavaScriptCore`. */
  readonly engine: string;
  /** npm package that carries the runtime, used to provision versions. */
  readonly npmPackage: string;
  /** Extension of this runtime's server files, which live at `servers/<name>/<workload><ext>` (`.ts`, `.mjs`, `.go`). */
  readonly serverExtension: string;
  /** The binary already on this machine (on `PATH`, or the harness itself), if any. */
  detect(): Promise<string | undefined>;
  /** Paths, relative to an npm install prefix, where the provisioned binary may be. */
  provisionedBinaryPaths(): readonly string[];
  /** Asks a binary for its exact version and engine version. */
  version(binary: string): Promise<RuntimeVersion>;
  /** The argv that runs a file with this runtime, binary first. */
  command(binary: string, file: string, args?: readonly string[]): string[];
  /** The argv that evaluates a line of code with this runtime, binary first. */
  evalCommand(binary: string, code: string): string[];
  /** How this runtime runs a TypeScript file; when absent, {@linkcode RuntimeAdapter.command} runs it natively. */
  typeScriptCommand?(binary: string, file: string): Promise<TypeScriptRun>;
  /**
   * Variables that keep the runtime from phoning home while it is timed: its update check and telemetry
   * (`DENO_NO_UPDATE_CHECK`, `DO_NOT_TRACK`); set for the processes the `startup` workload times, and recorded.
   */
  readonly quietEnv?: Readonly<Record<string, string>>;
  /**
   * Environment variables known to change this runtime (`NODE_OPTIONS`, `BUN_JSC_*`), from its own documentation.
   * rtbench gives none of them to a runtime unless `--pass-env` names it, and a result says what became of each one
   * set in rtbench's environment; the union over the suite's adapters (with the C library's, which no one runtime
   * holds) is that list, so a variable is listed by the adapter of the runtime it belongs to. @default {[]}
   */
  readonly variables?: readonly RuntimeVariable[];
  /** The runtime's own package manager (npm for Node.js, `bun install`, `deno install`). */
  packageManager?(binary: string): Promise<PackageManager>;
  /**
   * Whether this is a native baseline (Go, Rust) that JavaScript runtimes are judged against rather than a
   * runtime under comparison: not in the default `--runtime` list, and grouped apart in reports. @default {false}
   */
  readonly baseline?: boolean;
  /**
   * The release line a user would deploy on `day` (`YYYY-MM-DD`): for Node.js, its Active LTS line. Where absent,
   * the version measured by default is the newest stable release on npm.
   */
  deployLine?(day: string): string | null;
  /**
   * Where the line of `version` stands on `day`, from the runtime's published release schedule (Node.js's, read from
   * `node-releases`). Where absent, npm's releases say: the newest line is `latest`, the others `superseded`.
   */
  support?(version: string, day: string): Omit<RuntimeRelease, "asOf">;
  /** How to get the runtime when it is missing; set for toolchains rtbench does not provision from npm. */
  readonly howToGet?: string;
  /**
   * Compiles the server project that holds `entry` (a native toolchain's servers), into rtbench's cache keyed
   * by a hash of its sources, or finds it there. When present, servers run from the build instead of a staged
   * copy of `entry`: {@linkcode RuntimeAdapter.command} gets the executable as its file.
   */
  build?(binary: string, entry: URL, signal?: AbortSignal): Promise<ServerBuild>;
  /**
   * The runtime's own way to serve on `workers` CPUs (`--server-cpus`): `node:cluster`, Bun processes sharing
   * the port with `reusePort`, `deno serve --parallel`, `GOMAXPROCS`, tokio's worker threads.
   */
  parallel?(binary: string, file: string, args: readonly string[], workers: number, listen: Listen): ParallelServer;
  /**
   * Why the server in `file` cannot run in the multi-core form of {@linkcode RuntimeAdapter.parallel} (a
   * framework's server that does not hand its handler to `deno serve`, or does not share its port), or null
   * when it can. The record is then skipped with this reason.
   */
  parallelUnsupported?(file: string): string | null;
}

/**
 * Where a server listens.
 *
 * @example Loopback, port 3000
 * ```ts
 * import type { Listen } from "@rtbench/rtbench/adapters";
 *
 * const listen: Listen = { host: "127.0.0.1", port: 3000 };
 * ```
 */
export interface Listen {
  /** Interface to bind. */
  readonly host: string;
  /** Port to listen on. */
  readonly port: number;
}

/**
 * A server in its runtime's multi-core form, from {@linkcode RuntimeAdapter.parallel}.
 *
 * @example Node.js on two CPUs
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { node, type ParallelServer } from "@rtbench/rtbench/adapters";
 *
 * const server: ParallelServer = node.parallel!("node", "/tmp/s/http_json.mjs", [], 2, { host: "127.0.0.1", port: 3000 });
 * assertEquals([server.form, server.processes, server.env.RTBENCH_WORKERS], ["node:cluster", 3, "2"]);
 * ```
 */
export interface ParallelServer {
  /** The argv, binary first. */
  readonly argv: string[];
  /** Environment variables the form needs (worker counts). */
  readonly env: Readonly<Record<string, string>>;
  /** Which form this is, for records: `node:cluster`, `deno serve --parallel`, `GOMAXPROCS`... */
  readonly form: string;
  /** Processes the server's tree holds once every worker runs (a primary or launcher counts). */
  readonly processes: number;
  /** A line the server prints with its worker count in the first group (a line without it means one worker). */
  readonly announces?: RegExp;
}

/**
 * A compiled server program, from {@linkcode RuntimeAdapter.build}.
 *
 * @example The Go build of http-json
 * ```ts
 * import type { ServerBuild } from "@rtbench/rtbench/adapters";
 *
 * const build: ServerBuild = {
 *   executable: "/root/.cache/rtbench/native/go-0123abcd/server",
 *   args: ["http_json"],
 *   facts: { toolchain: "go1.26.8", build: "cached" },
 * };
 * ```
 */
export interface ServerBuild {
  /** Absolute path of the compiled program. */
  readonly executable: string;
  /** Arguments that choose the entry's server, before the workload's own. */
  readonly args: readonly string[];
  /** What records say about the build: toolchain, dependency versions, whether it came from the cache. */
  readonly facts: Readonly<Record<string, Fact>>;
}

/**
 * How a runtime runs a TypeScript file.
 *
 * @example How Deno runs a TypeScript file
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { deno, type TypeScriptRun } from "@rtbench/rtbench/adapters";
 *
 * const run: TypeScriptRun = await deno.typeScriptCommand!(Deno.execPath(), "main.ts");
 * assertEquals(run.mode, "native");
 * ```
 */
export interface TypeScriptRun {
  /** The argv that runs the `.ts` file, binary first; null when the runtime needs the file as plain JavaScript. */
  readonly argv: string[] | null;
  /** `native`, `strip-types-flag` (Node.js with `--experimental-strip-types`) or `none`. */
  readonly mode: "native" | "strip-types-flag" | "none";
}

/**
 * The command that installs a project's dependencies.
 *
 * @example npm with a private cache
 * ```ts
 * import type { InstallCommand } from "@rtbench/rtbench/adapters";
 *
 * const install: InstallCommand = { argv: ["npm", "install"], env: { npm_config_cache: "/tmp/rtbench/npm-cache" } };
 * ```
 */
export interface InstallCommand {
  /** The argv, binary first, run in the project directory. */
  readonly argv: string[];
  /** Environment variables that point the manager at its cache directory. */
  readonly env: Record<string, string>;
}

/**
 * A package manager that installs the dependencies of a `package.json`.
 *
 * @example A package manager of your own
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import type { PackageManager } from "@rtbench/rtbench/adapters";
 *
 * const pnpm: PackageManager = {
 *   name: "pnpm",
 *   version: "9.15.0",
 *   lockfile: "pnpm-lock.yaml",
 *   installCommand: (cacheDir) => ({ argv: ["pnpm", "install"], env: { npm_config_store_dir: `${cacheDir}/store` } }),
 * };
 * assertEquals(pnpm.installCommand("/tmp/c").env.npm_config_store_dir, "/tmp/c/store");
 * ```
 */
export interface PackageManager {
  /** Name, for example `npm`, `bun`, `pnpm`. */
  readonly name: string;
  /** Exact version. */
  readonly version: string;
  /** The lockfile it writes, for example `package-lock.json`. */
  readonly lockfile: string;
  /** The install command with every cache this manager keeps inside `cacheDir`. */
  installCommand(cacheDir: string): InstallCommand;
}

/**
 * A runtime ready to run: adapter, binary and exact version.
 *
 * @example Run a file with a resolved runtime
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { type ResolvedRuntime, resolveRuntime } from "@rtbench/rtbench/adapters";
 *
 * const rt: ResolvedRuntime = await resolveRuntime({ name: "deno", requested: "deno" });
 * assertEquals(rt.adapter.command(rt.binary, "server.ts"), [rt.binary, "run", "-A", "server.ts"]);
 * ```
 */
export interface ResolvedRuntime extends RuntimeVersion {
  /** The adapter that found it. */
  readonly adapter: RuntimeAdapter;
  /** Runtime name. */
  readonly name: string;
  /** What the user asked for, for example `bun@1.2.0`. */
  readonly requested: string;
  /** Absolute path of the binary. */
  readonly binary: string;
  /** Where the binary came from. */
  readonly source: RuntimeSource;
  /** JavaScript engine, copied from the adapter. */
  readonly engine: string;
  /** How the version was chosen (see {@linkcode VersionSelection}). */
  readonly selection?: VersionSelection;
  /** Its release line and that line's support on the day it was resolved; null for a native baseline. */
  readonly release?: RuntimeRelease | null;
  /** What a result should say about the choice (a version taken from the cache because npm was out of reach). */
  readonly warnings?: readonly Warning[];
}

/**
 * A parsed `--runtime` entry.
 *
 * @example A requested version
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { parseRuntimeSpecs, type RuntimeSpec } from "@rtbench/rtbench/adapters";
 *
 * const [spec]: RuntimeSpec[] = parseRuntimeSpecs("bun@1.2.0");
 * assertEquals(spec, { name: "bun", version: "1.2.0", requested: "bun@1.2.0" });
 * ```
 */
export interface RuntimeSpec {
  /** Runtime name, for example `bun`. */
  readonly name: string;
  /**
   * Requested version or npm range, or `system` for the binary on this machine (on `PATH`; for Deno, the one running
   * rtbench); absent means the release a user would deploy today (see {@linkcode RuntimeAdapter.deployLine}).
   */
  readonly version?: string;
  /** The entry as written. */
  readonly requested: string;
}
