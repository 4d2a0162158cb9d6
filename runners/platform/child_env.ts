/**
 * The environment of every process rtbench starts, built rather than
 * inherited: a few names taken from rtbench's own environment where they are
 * set (PATH, HOME, TMPDIR, locale), the variables rtbench sets itself, and,
 * for installs and provisioning only, what a package manager or toolchain
 * needs to reach its registry. Everything else is dropped, so that a variable
 * of the user's shell (`NODE_OPTIONS`, `NODE_EXTRA_CA_CERTS`, `BUN_JSC_*`) cannot
 * change a figure unseen; `--pass-env NAME` keeps one on purpose.
 *
 * {@linkcode RUNTIME_VARIABLES} is the one list of variables known to change a
 * runtime: where rtbench's environment holds one, the result says what became
 * of it.
 *
 * @module
 */

/**
 * What a process is for, which decides the names it may take from rtbench's environment.
 *
 * - `runtime`: a runtime under test, the load engine, a timer, any tool: {@linkcode INHERITED} only.
 * - `registry`: an install or provisioning step: also {@linkcode REGISTRY_ACCESS}.
 * - `harness`: rtbench's own programs on the harness's Deno: also `DENO_DIR` and {@linkcode REGISTRY_ACCESS},
 *   so that they find (or fetch) the modules rtbench itself was run with.
 * - `ssh`: the local `ssh` and `scp`: also the agent's socket.
 */
export type EnvPurpose = "runtime" | "registry" | "harness" | "ssh";

/**
 * Names every process takes from rtbench's environment when set there; a trailing `*` is a prefix.
 *
 * @example
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { INHERITED } from "./child_env.ts";
 * assertEquals(INHERITED.includes("PATH"), true);
 * ```
 */
export const INHERITED: readonly string[] = ["PATH", "HOME", "TMPDIR", "LANG", "LANGUAGE", "LC_*"];

/**
 * What installs and provisioning also take: proxies, CA bundles, the package managers' and toolchains' own
 * configuration and credentials, and where their caches live.
 *
 * @example
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { REGISTRY_ACCESS } from "./child_env.ts";
 * assertEquals(REGISTRY_ACCESS.includes("npm_config_*"), true);
 * ```
 */
export const REGISTRY_ACCESS: readonly string[] = [
  ...["http_proxy", "HTTP_PROXY", "https_proxy", "HTTPS_PROXY", "no_proxy", "NO_PROXY", "all_proxy", "ALL_PROXY"],
  ...["NODE_EXTRA_CA_CERTS", "NODE_USE_SYSTEM_CA", "SSL_CERT_FILE", "SSL_CERT_DIR", "DENO_CERT", "DENO_TLS_CA_STORE"],
  ...["npm_config_*", "NPM_CONFIG_*", "NPM_TOKEN", "NODE_AUTH_TOKEN", "YARN_*", "COREPACK_*", "DENO_AUTH_TOKENS"],
  ...["BUN_CONFIG_REGISTRY", "BUN_CONFIG_TOKEN", "BUN_INSTALL_CACHE_DIR", "XDG_CACHE_HOME", "XDG_CONFIG_HOME"],
  ...["CARGO_HOME", "RUSTUP_HOME", "CARGO_HTTP_*", "CARGO_NET_*", "CARGO_REGISTRIES_*"],
  ...["GOPATH", "GOMODCACHE", "GOCACHE", "GOPROXY", "GOPRIVATE", "GONOPROXY", "GONOSUMDB", "GOSUMDB", "GOINSECURE"],
];

const HARNESS: readonly string[] = ["DENO_DIR", ...REGISTRY_ACCESS];
const SSH: readonly string[] = ["SSH_AUTH_SOCK", "SSH_AGENT_PID", "KRB5CCNAME"];

/** The names (patterns) a process for `purpose` takes from rtbench's environment, before `--pass-env`. */
export function allowedNames(purpose: EnvPurpose): readonly string[] {
  const extra = purpose === "registry"
    ? REGISTRY_ACCESS
    : purpose === "harness"
    ? HARNESS
    : purpose === "ssh"
    ? SSH
    : [];
  return [...INHERITED, ...extra];
}

/**
 * A variable (or a family, `BUN_JSC_*`) known to change a runtime: what it changes, and an example setting.
 *
 * @example
 * ```ts
 * import type { RuntimeVariable } from "./child_env.ts";
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
 * import { knownVariable } from "./child_env.ts";
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
 * import { knownVariable } from "./child_env.ts";
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

/**
 * Whether `name` matches one of `patterns` (a name, or a prefix ending in `*`).
 *
 * @example
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { matchesName } from "./child_env.ts";
 * assertEquals([matchesName("LC_ALL", ["LC_*"]), matchesName("LANG", ["LC_*"])], [true, false]);
 * ```
 */
export function matchesName(name: string, patterns: readonly string[]): boolean {
  return patterns.some((p) => p.endsWith("*") ? name.startsWith(p.slice(0, -1)) : name === p);
}

const VARIABLE_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/**
 * Whether `name` can name an environment variable (`--pass-env` takes only such names).
 *
 * @example
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { isVariableName } from "./child_env.ts";
 * assertEquals([isVariableName("NODE_OPTIONS"), isVariableName("A-B"), isVariableName("")], [true, false, false]);
 * ```
 */
export function isVariableName(name: string): boolean {
  return VARIABLE_NAME.test(name);
}

/**
 * The environment of a child: the names `purpose` allows (and `pass`) taken from `source` where set there,
 * then `own`, the variables rtbench sets itself, over them.
 *
 * @param source rtbench's own environment.
 * @param own What rtbench sets for this process.
 * @param purpose What the process is for.
 * @param pass Names the user kept with `--pass-env`.
 * @returns Every variable the child gets.
 *
 * @example NODE_EXTRA_CA_CERTS does not reach a runtime, but reaches an install
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { buildChildEnv } from "./child_env.ts";
 * const shell = { PATH: "/usr/bin", NODE_EXTRA_CA_CERTS: "/etc/ca.pem", EDITOR: "vi" };
 * assertEquals(buildChildEnv(shell, { PORT: "3000" }, "runtime", []), { PATH: "/usr/bin", PORT: "3000" });
 * assertEquals(buildChildEnv(shell, {}, "registry", []), { PATH: "/usr/bin", NODE_EXTRA_CA_CERTS: "/etc/ca.pem" });
 * ```
 */
export function buildChildEnv(
  source: Readonly<Record<string, string>>,
  own: Readonly<Record<string, string>> | undefined,
  purpose: EnvPurpose,
  pass: readonly string[],
): Record<string, string> {
  const allowed = allowedNames(purpose);
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(source)) {
    if (matchesName(name, allowed) || pass.includes(name)) env[name] = value;
  }
  return { ...env, ...own };
}

/** Names whose values are credentials. */
const SECRET_NAME = /TOKEN|SECRET|PASSW|CREDENTIAL|COOKIE|SESSION|AUTH|(^|_)KEY($|_)|_PWD$/i;

/**
 * A variable's value as a result may hold it: a credential's value is `<secret>`, a password inside a URL
 * (a proxy's, a database's) is replaced by `<secret>`.
 *
 * @param name The variable's name.
 * @param value Its value.
 * @returns The value to record.
 *
 * @example
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { recordableValue } from "./child_env.ts";
 * assertEquals(recordableValue("NPM_TOKEN", "abc"), "<secret>");
 * assertEquals(recordableValue("HTTPS_PROXY", "http://me:pw@proxy:3128"), "http://me:<secret>@proxy:3128");
 * assertEquals(recordableValue("PATH", "/usr/bin"), "/usr/bin");
 * ```
 */
export function recordableValue(name: string, value: string): string {
  if (SECRET_NAME.test(name)) return "<secret>";
  return value.replace(/([A-Za-z][A-Za-z0-9+.-]*:\/\/[^\s:/@]*:)[^\s@/]*@/g, "$1<secret>@");
}

/**
 * What became of one variable of rtbench's environment that is known to change a runtime.
 *
 * @example A CA bundle given to installs only
 * ```ts
 * import type { VariableFate } from "./child_env.ts";
 * const fate: VariableFate = { name: "NODE_EXTRA_CA_CERTS", value: "/etc/ca.pem", fate: "installs only", changes: "node, deno: a CA bundle" };
 * ```
 */
export interface VariableFate {
  /** Its name. */
  readonly name: string;
  /** Its value (see {@linkcode recordableValue}). */
  readonly value: string;
  /**
   * `dropped`: no process got it; `installs only`: installs and provisioning got it (to reach a registry), no
   * runtime did; `kept (--pass-env)`: every process got it, because the user asked.
   */
  readonly fate: "dropped" | "installs only" | "kept (--pass-env)";
  /** What it changes, from {@linkcode RUNTIME_VARIABLES}. */
  readonly changes: string;
}

/**
 * What rtbench does with its own environment: the names every process and every install may take, the
 * variables kept on request, and the fate of each variable known to change a runtime.
 *
 * @example NODE_OPTIONS in the user's shell is dropped
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { variableReport } from "./child_env.ts";
 * const report = variableReport({ PATH: "/usr/bin", NODE_OPTIONS: "--inspect", EDITOR: "vi" }, []);
 * assertEquals(report.known.map((k) => [k.name, k.fate]), [["NODE_OPTIONS", "dropped"]]);
 * assertEquals(report.otherDropped, 1);
 * ```
 */
export interface VariableReport {
  /** Names every process takes from rtbench's environment where set ({@linkcode INHERITED}). */
  readonly inherited: readonly string[];
  /** Names installs and provisioning also take ({@linkcode REGISTRY_ACCESS}). */
  readonly registry: readonly string[];
  /** Names kept for every process with `--pass-env`. */
  readonly passed: readonly string[];
  /** Every variable of rtbench's environment known to change a runtime, and what became of it. */
  readonly known: readonly VariableFate[];
  /** How many other variables of rtbench's environment no runtime got. */
  readonly otherDropped: number;
}

/**
 * The {@linkcode VariableReport} of an environment.
 *
 * @param source rtbench's own environment.
 * @param pass Names kept with `--pass-env`.
 * @returns What becomes of its variables.
 */
export function variableReport(source: Readonly<Record<string, string>>, pass: readonly string[]): VariableReport {
  const known: VariableFate[] = [];
  let otherDropped = 0;
  for (const name of Object.keys(source).sort()) {
    if (matchesName(name, INHERITED)) continue;
    const entry = knownVariable(name);
    if (!entry) {
      if (!pass.includes(name)) otherDropped++;
      continue;
    }
    const fate = pass.includes(name)
      ? "kept (--pass-env)"
      : matchesName(name, REGISTRY_ACCESS)
      ? "installs only"
      : "dropped";
    known.push({
      name,
      value: recordableValue(name, source[name]),
      fate,
      changes: `${entry.changes}: ${entry.effect}`,
    });
  }
  return { inherited: INHERITED, registry: REGISTRY_ACCESS, passed: [...pass], known, otherDropped };
}

/**
 * rtbench's own environment, or an empty one where it may not be read (no `--allow-env`).
 *
 * @example
 * ```ts
 * import { harnessEnv } from "./child_env.ts";
 * console.log("PATH" in harnessEnv()); // true
 * ```
 */
export function harnessEnv(): Record<string, string> {
  try {
    return Deno.env.toObject();
  } catch {
    return {};
  }
}
