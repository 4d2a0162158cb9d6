/**
 * The Go adapter: a native baseline. Servers are Go programs built with the
 * machine's `go` into rtbench's cache; the toolchain is never provisioned.
 *
 * @module
 */

import { type RuntimeVariable, which } from "../runners/platform/mod.ts";
import { buildNative, firstExecutable, type NativeToolchain } from "./_native_build.ts";
import { probe } from "./_version.ts";
import type { ParallelServer, RuntimeAdapter, RuntimeVersion, ServerBuild } from "./types.ts";

/** Where Go's own installer puts it, for a `go` that is not on `PATH`. */
const KNOWN_PLACES = ["/usr/local/go/bin/go", "/usr/lib/go/bin/go"];

const GO: NativeToolchain = {
  name: "go",
  sources: /^(.+\.go|go\.mod|go\.sum)$/,
  version: (binary) => probe([binary, "env", "GOVERSION"]),
  // GOTOOLCHAIN=local: build with this machine's Go, never a toolchain go.mod might ask to download.
  build: (binary, output) => ({
    argv: [binary, "build", "-trimpath", "-mod=readonly", "-o", output, "."],
    env: { GOTOOLCHAIN: "local", CGO_ENABLED: "0" },
  }),
  dependencies(files) {
    const mod = files.get("go.mod") ?? "";
    return [...mod.matchAll(/^\s*(?:require\s+)?([\w./-]+\.[\w./-]+)\s+(v\S+)\s*$/gm)].map((m) => `${m[1]} ${m[2]}`);
  },
};

/**
 * Variables known to change the Go baseline: the runtime's (Go's `runtime` package) and the toolchain's that build
 * it.
 */
const VARIABLES: readonly RuntimeVariable[] = [
  { name: "GOMAXPROCS", changes: "go", effect: "threads running Go code at once", example: "1" },
  { name: "GOGC", changes: "go", effect: "the garbage collector's target", example: "50" },
  { name: "GOMEMLIMIT", changes: "go", effect: "the soft memory limit", example: "64MiB" },
  { name: "GODEBUG", changes: "go", effect: "runtime and standard library settings", example: "madvdontneed=1" },
  { name: "GOFLAGS", changes: "go (build)", effect: "flags of the go build of the baseline", example: "-race" },
  { name: "GOAMD64", changes: "go (build)", effect: "the instruction set the baseline is built for", example: "v3" },
  { name: "GOEXPERIMENT", changes: "go (build)", effect: "experimental toolchain features", example: "greenteagc" },
];

/**
 * Go (`go build`, net/http): every workload's server in one program built
 * from `servers/go`, chosen by its first argument.
 *
 * @example Build the command that runs a built server
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { go } from "@rtbench/rtbench/adapters";
 *
 * assertEquals(go.command("/usr/local/go/bin/go", "/cache/server", ["http_json"]), ["/cache/server", "http_json"]);
 * ```
 */
export const go: RuntimeAdapter = {
  name: "go",
  description: "Go (native baseline: net/http, built with go build)",
  engine: "Go (gc)",
  npmPackage: "",
  serverExtension: ".go",
  variables: VARIABLES,
  baseline: true,
  howToGet: "install Go 1.26 or later from https://go.dev/dl/ and put go on PATH",
  detect(): Promise<string | undefined> {
    const found = which("go") ?? firstExecutable(KNOWN_PLACES);
    return Promise.resolve(found ?? undefined);
  },
  provisionedBinaryPaths(): readonly string[] {
    return [];
  },
  async version(binary: string): Promise<RuntimeVersion> {
    const text = await probe([binary, "env", "GOVERSION"]);
    if (!text.startsWith("go")) throw new Error(`Cannot read the version of ${binary}: unexpected output "${text}"`);
    return { version: text.slice(2), engineVersion: null };
  },
  command(_binary: string, file: string, args: readonly string[] = []): string[] {
    return [file, ...args];
  },
  parallel(_binary: string, file: string, args: readonly string[] = [], workers: number): ParallelServer {
    return {
      argv: [file, ...args],
      env: { GOMAXPROCS: String(workers) },
      form: "GOMAXPROCS",
      processes: 1,
      announces: /^rtbench: workers (\d+)$/m,
    };
  },
  evalCommand(binary: string): string[] {
    throw new TypeError(`Cannot evaluate code with ${binary}: go runs built servers only`);
  },
  build(binary: string, entry: URL, signal?: AbortSignal): Promise<ServerBuild> {
    return buildNative(GO, binary, entry, signal);
  },
};
