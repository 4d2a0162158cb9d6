/**
 * The one list of environment variables known to change a runtime — Node.js,
 * Deno, Bun, the C library under all of them, the native baselines' runtimes
 * and toolchains — each with what it changes and a setting that takes effect.
 * rtbench gives none of them to a runtime unless `--pass-env` names it
 * (`child_env.ts`), and its result says what became of each one set.
 *
 * @module
 */

/**
 * A variable (or a family, `BUN_JSC_*`) known to change a runtime: what it changes, and an example setting.
 *
 * @example
 * ```ts
 * import type { RuntimeVariable } from "./runtime_variables.ts";
 * const entry: RuntimeVariable = { name: "UV_THREADPOOL_SIZE", changes: "node", effect: "libuv's thread pool", example: "8" };
 * ```
 */
export interface RuntimeVariable {
  /** The name, or a prefix ending in `*`. */
  readonly name: string;
  /** The runtimes or programs it changes. */
  readonly changes: string;
  /** How, in a few words. */
  readonly effect: string;
  /** A value that takes effect (for a family, `NAME=value` of one member). */
  readonly example: string;
}

/**
 * Variables known to change a runtime, from the runtimes' own documentation (`node --help`, `deno --help`, Bun's
 * "Environment variables" page, glibc's manual, the Go and Rust runtimes'). An exact name is matched before a
 * family. Each has a test (tests/child_env_test.ts).
 *
 * @example Where the user's shell holds one
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { knownVariable } from "./runtime_variables.ts";
 * assertEquals(knownVariable("NODE_EXTRA_CA_CERTS")?.changes, "node, deno");
 * assertEquals(knownVariable("BUN_JSC_useJIT")?.name, "BUN_JSC_*");
 * ```
 */
export const RUNTIME_VARIABLES: readonly RuntimeVariable[] = [
  // Node.js (`node --help`, doc/api/cli.md)
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
  { name: "TZ", changes: "every runtime", effect: "the time zone of Date and Intl", example: "America/New_York" },
  // Deno (`deno --help`)
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
  // Bun (docs/runtime/environment-variables.mdx; bun's --help on JSC options)
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
  // The C library and loader: every runtime (glibc manual, ld.so(8))
  {
    name: "MALLOC_*",
    changes: "every runtime (glibc)",
    effect: "malloc's arenas and thresholds",
    example: "MALLOC_ARENA_MAX=1",
  },
  {
    name: "GLIBC_TUNABLES",
    changes: "every runtime (glibc)",
    effect: "glibc's tunables: malloc, CPU features",
    example: "glibc.malloc.arena_max=1",
  },
  {
    name: "LD_PRELOAD",
    changes: "every runtime",
    effect: "libraries loaded into every process (another allocator)",
    example: "/usr/lib/x86_64-linux-gnu/libjemalloc.so.2",
  },
  {
    name: "LD_LIBRARY_PATH",
    changes: "every runtime",
    effect: "which shared libraries (OpenSSL, libstdc++) are loaded",
    example: "/opt/lib",
  },
  { name: "LD_BIND_NOW", changes: "every runtime", effect: "every symbol bound at start", example: "1" },
  // Libraries the servers use
  {
    name: "DEBUG",
    changes: "node, bun, deno (the debug package: Express)",
    effect: "debug logging on matching namespaces",
    example: "express:*",
  },
  // The native baselines (Go's runtime package; cargo and rustc; tokio)
  { name: "GOMAXPROCS", changes: "go", effect: "threads running Go code at once", example: "1" },
  { name: "GOGC", changes: "go", effect: "the garbage collector's target", example: "50" },
  { name: "GOMEMLIMIT", changes: "go", effect: "the soft memory limit", example: "64MiB" },
  { name: "GODEBUG", changes: "go", effect: "runtime and standard library settings", example: "madvdontneed=1" },
  { name: "GOFLAGS", changes: "go (build)", effect: "flags of the go build of the baseline", example: "-race" },
  { name: "GOAMD64", changes: "go (build)", effect: "the instruction set the baseline is built for", example: "v3" },
  { name: "GOEXPERIMENT", changes: "go (build)", effect: "experimental toolchain features", example: "greenteagc" },
  {
    name: "RUSTFLAGS",
    changes: "rust (build)",
    effect: "rustc flags of the baseline (target-cpu)",
    example: "-C target-cpu=native",
  },
  {
    name: "CARGO_BUILD_RUSTFLAGS",
    changes: "rust (build)",
    effect: "rustc flags of the baseline",
    example: "-C target-cpu=native",
  },
  {
    name: "CARGO_ENCODED_RUSTFLAGS",
    changes: "rust (build)",
    effect: "rustc flags of the baseline",
    example: "-Ctarget-cpu=native",
  },
  {
    name: "CARGO_PROFILE_*",
    changes: "rust (build)",
    effect: "the release profile (opt-level, lto)",
    example: "CARGO_PROFILE_RELEASE_OPT_LEVEL=1",
  },
  {
    name: "RUSTUP_TOOLCHAIN",
    changes: "rust (build)",
    effect: "which toolchain builds the baseline",
    example: "nightly",
  },
  { name: "TOKIO_WORKER_THREADS", changes: "rust", effect: "tokio's worker threads", example: "1" },
  {
    name: "RUST_BACKTRACE",
    changes: "deno, rust",
    effect: "a backtrace captured with every error (anyhow)",
    example: "1",
  },
  {
    name: "RUST_LIB_BACKTRACE",
    changes: "deno, rust",
    effect: "a backtrace captured with every error (anyhow)",
    example: "1",
  },
];

/**
 * The entry of {@linkcode RUNTIME_VARIABLES} a variable falls under: its exact name, else the longest family.
 *
 * @param name A variable's name.
 * @returns The entry, or undefined for a variable not known to change a runtime.
 *
 * @example
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { knownVariable } from "./runtime_variables.ts";
 * assertEquals(knownVariable("MALLOC_ARENA_MAX")?.name, "MALLOC_*");
 * assertEquals(knownVariable("EDITOR"), undefined);
 * ```
 */
export function knownVariable(name: string): RuntimeVariable | undefined {
  const exact = RUNTIME_VARIABLES.find((v) => v.name === name);
  if (exact) return exact;
  return RUNTIME_VARIABLES.filter((v) => v.name.endsWith("*") && name.startsWith(v.name.slice(0, -1)))
    .sort((a, b) => b.name.length - a.name.length)[0];
}
