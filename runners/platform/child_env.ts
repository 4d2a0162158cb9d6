/**
 * The environment of every process rtbench starts, built rather than
 * inherited: a few names taken from rtbench's own environment where they are
 * set (PATH, HOME, TMPDIR, locale), the variables rtbench sets itself, and,
 * for installs and provisioning only, what a package manager or toolchain
 * needs to reach its registry. Everything else is dropped, so that a variable
 * of the user's shell (`NODE_OPTIONS`, `NODE_EXTRA_CA_CERTS`, `BUN_JSC_*`) cannot
 * change a figure unseen; `--pass-env NAME` keeps one on purpose.
 *
 * Where rtbench's environment holds a variable known to change a runtime, the
 * result says what became of it ({@linkcode variableReport}); the list of such
 * variables is the runtimes' adapters' (their `variables`), given by the caller.
 *
 * @module
 */

import type { VariableFate, VariableReport } from "../base/mod.ts";
import { knownVariable, type RuntimeVariable } from "./runtime_variables.ts";

/**
 * What a process is for, which decides the names it may take from rtbench's environment.
 *
 * - `runtime`: a runtime under test, the load engine, a timer, any tool: {@linkcode INHERITED} only.
 * - `registry`: an install or provisioning step: also {@linkcode REGISTRY_ACCESS}.
 * - `harness`: rtbench's own programs on the harness's Deno: also `DENO_DIR` and {@linkcode REGISTRY_ACCESS},
 *   so that they find (or fetch) the modules rtbench itself was run with.
 * - `ssh`: the local `ssh` (and the `tar` that feeds it): also the agent's socket.
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
  ...["REQUESTS_CA_BUNDLE", "CURL_CA_BUNDLE", "PIP_*"],
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
 * The {@linkcode VariableReport} of an environment.
 *
 * @param source rtbench's own environment.
 * @param pass Names kept with `--pass-env`.
 * @param known The variables known to change a runtime: the union of the adapters' lists (`runtimeVariables()` of
 *   `adapters/`), which the platform layer cannot import.
 * @returns What becomes of its variables.
 */
export function variableReport(
  source: Readonly<Record<string, string>>,
  pass: readonly string[],
  known: readonly RuntimeVariable[],
): VariableReport {
  const fates: VariableFate[] = [];
  let otherDropped = 0;
  for (const name of Object.keys(source).sort()) {
    if (matchesName(name, INHERITED)) continue;
    const entry = knownVariable(name, known);
    if (!entry) {
      if (!pass.includes(name)) otherDropped++;
      continue;
    }
    const fate = pass.includes(name)
      ? "kept (--pass-env)"
      : matchesName(name, REGISTRY_ACCESS)
      ? "installs only"
      : "dropped";
    fates.push({
      name,
      value: recordableValue(name, source[name]),
      fate,
      changes: `${entry.changes}: ${entry.effect}`,
    });
  }
  return { inherited: INHERITED, registry: REGISTRY_ACCESS, passed: [...pass], known: fates, otherDropped };
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
