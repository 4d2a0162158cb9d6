/**
 * The Rust adapter: a native baseline. Servers are a Cargo crate built with
 * the machine's `cargo build --release` into rtbench's cache; the toolchain
 * is never provisioned.
 *
 * @module
 */

import { type RuntimeVariable, which } from "../runners/platform/mod.ts";
import { buildNative, firstExecutable, type NativeToolchain } from "./_native_build.ts";
import { probe } from "./_version.ts";
import type { ParallelServer, RuntimeAdapter, RuntimeVersion, ServerBuild } from "./types.ts";

/** Where rustup puts cargo, for a `cargo` that is not on `PATH`. */
function knownPlaces(): string[] {
  const home = Deno.env.get("CARGO_HOME") ?? `${Deno.env.get("HOME") ?? ""}/.cargo`;
  return [`${home}/bin/cargo`];
}

/** The program the crate in `servers/rust` builds (its `[[bin]]`). */
const PROGRAM = "rtbench-servers";

/** `[dependencies]` names in a Cargo.toml. */
function directDependencies(manifest: string): string[] {
  const section = manifest.split(/^\[dependencies\]\s*$/m)[1]?.split(/^\[/m)[0] ?? "";
  return [...section.matchAll(/^([A-Za-z0-9_-]+)\s*=/gm)].map((m) => m[1]);
}

const RUST: NativeToolchain = {
  name: "rust",
  sources: /^(.+\.rs|Cargo\.toml|Cargo\.lock)$/,
  version: (binary) => probe([binary, "--version"]),
  // --locked: the versions in Cargo.lock, never newer ones; the compiled dependencies stay in the cache.
  build: (binary, _output, cache) => ({
    argv: [binary, "build", "--release", "--locked", "--quiet", "--target-dir", `${cache}/target`],
    env: {},
  }),
  built: (cache) => `${cache}/target/release/${PROGRAM}`,
  dependencies(files) {
    const lock = files.get("Cargo.lock") ?? "";
    return directDependencies(files.get("Cargo.toml") ?? "").map((name) => {
      const locked = new RegExp(`^name = "${name}"\\nversion = "([^"]+)"`, "m").exec(lock);
      return `${name} ${locked?.[1] ?? "?"}`;
    });
  },
};

/**
 * Variables known to change the Rust baseline: cargo's and rustc's that build it, tokio's, and the backtrace ones
 * (read by Deno too, itself a Rust program).
 */
const VARIABLES: readonly RuntimeVariable[] = [
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
 * Rust (`cargo build --release`, hyper on tokio): every workload's server in
 * one program built from `servers/rust`, chosen by its first argument.
 *
 * @example Build the command that runs a built server
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { rust } from "@rtbench/rtbench/adapters";
 *
 * assertEquals(rust.command("cargo", "/cache/server", ["ws_echo"]), ["/cache/server", "ws_echo"]);
 * ```
 */
export const rust: RuntimeAdapter = {
  name: "rust",
  description: "Rust (native baseline: hyper on tokio, built with cargo build --release)",
  engine: "Rust (rustc, LLVM)",
  npmPackage: "",
  serverExtension: ".rs",
  variables: VARIABLES,
  baseline: true,
  howToGet: "install Rust with rustup (https://rustup.rs) and put cargo on PATH",
  detect(): Promise<string | undefined> {
    return Promise.resolve(which("cargo") ?? firstExecutable(knownPlaces()));
  },
  provisionedBinaryPaths(): readonly string[] {
    return [];
  },
  async version(binary: string): Promise<RuntimeVersion> {
    const text = await probe([binary, "--version"]);
    const version = /^cargo (\S+)/.exec(text)?.[1];
    if (!version) throw new Error(`Cannot read the version of ${binary}: unexpected output "${text}"`);
    const rustc = `${binary.slice(0, binary.lastIndexOf("/") + 1)}rustc`;
    const llvm = await probe([firstExecutable([rustc]) ?? "rustc", "-vV"]).then(
      (out) => /^LLVM version: (\S+)/m.exec(out)?.[1] ?? null,
      () => null,
    );
    return { version, engineVersion: llvm ? `LLVM ${llvm}` : null };
  },
  command(_binary: string, file: string, args: readonly string[] = []): string[] {
    return [file, ...args];
  },
  parallel(_binary: string, file: string, args: readonly string[] = [], workers: number): ParallelServer {
    return {
      argv: [file, ...args],
      env: { RTBENCH_WORKERS: String(workers) },
      form: "tokio multi-thread runtime, one worker per CPU",
      processes: 1,
      announces: /^rtbench: workers (\d+)$/m,
    };
  },
  evalCommand(binary: string): string[] {
    throw new TypeError(`Cannot evaluate code with ${binary}: rust runs built servers only`);
  },
  build(binary: string, entry: URL, signal?: AbortSignal): Promise<ServerBuild> {
    return buildNative(RUST, binary, entry, signal);
  },
};
