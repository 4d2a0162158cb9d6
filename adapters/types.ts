/**
 * The `RuntimeAdapter` contract: find or provision one JavaScript runtime,
 * report its version and build the command that runs a file with it.
 *
 * @module
 */

/** A runtime binary and what it reports about itself. */
export interface RuntimeVersion {
  /** Exact runtime version, for example `2.9.6`. */
  readonly version: string;
  /** Engine version when the runtime reports it, for example `13.6.233.17`. */
  readonly engineVersion: string | null;
}

/** Where a resolved runtime binary came from. */
export type RuntimeSource = "harness" | "path" | "cache" | "provisioned";

/** One runtime rtbench can benchmark; one small file per runtime implements it. */
export interface RuntimeAdapter {
  /** Name used with `--runtime`, for example `bun`. */
  readonly name: string;
  /** One line for `--list`. */
  readonly description: string;
  /** JavaScript engine, for example `V8` or `JavaScriptCore`. */
  readonly engine: string;
  /** npm package that carries the runtime, used to provision versions. */
  readonly npmPackage: string;
  /** Extension a server file for this runtime has (`.ts`, `.mjs`). */
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
  /** The runtime's own package manager (npm for Node.js, `bun install`, `deno install`). */
  packageManager?(binary: string): Promise<PackageManager>;
}

/** How a runtime runs a TypeScript file. */
export interface TypeScriptRun {
  /** The argv that runs the `.ts` file, binary first; null when the runtime needs the file as plain JavaScript. */
  readonly argv: string[] | null;
  /** `native`, `strip-types-flag` (Node.js with `--experimental-strip-types`) or `none`. */
  readonly mode: "native" | "strip-types-flag" | "none";
}

/** The command that installs a project's dependencies. */
export interface InstallCommand {
  /** The argv, binary first, run in the project directory. */
  readonly argv: string[];
  /** Environment variables that point the manager at its cache directory. */
  readonly env: Record<string, string>;
}

/** A package manager that installs the dependencies of a `package.json`. */
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

/** A runtime ready to run: adapter, binary and exact version. */
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
}

/** A parsed `--runtime` entry. */
export interface RuntimeSpec {
  /** Runtime name, for example `bun`. */
  readonly name: string;
  /** Requested version or npm range; absent means whatever is on this machine. */
  readonly version?: string;
  /** The entry as written. */
  readonly requested: string;
}
