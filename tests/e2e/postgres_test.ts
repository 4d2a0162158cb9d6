// README walk: shows claims of docs/workloads.md "The postgres workload".
// The postgres workload: an embedded PostgreSQL started, verified against and removed on all three runtimes; a server
// that does not clamp n or that skips queries caught; and with DATABASE_URL, only rtbench's own schema comes and goes.
// Runs alone: it points the process's TMPDIR at its own directory and counts every PostgreSQL backend on the machine.
import { assert, assertEquals, assertMatch, assertStringIncludes } from "@std/assert";
import postgres from "postgres";
import { cacheDir } from "../../adapters/_cache.ts";
import { parseResult } from "../../runners/schema/mod.ts";
import { run } from "../_suite.ts";
import { installDependencies } from "../../runners/platform/workspace.ts";
import { startEmbeddedPostgres } from "../../workloads/_embedded_postgres.ts";
import { databaseCpus, POSTGRES_JS_VERSION, postgresWorkload } from "../../workloads/postgres.ts";
import { restApi } from "../../workloads/rest_api.ts";
import { noClamp, oneQuery } from "../fixtures/postgres_faults.ts";
import { assertNothingLeft, entries, processesMatching, spawnCli, waitFor, withEnv, withTmp } from "../_helpers.ts";

const decoder = new TextDecoder();

/** PostgreSQL processes rtbench starts show `cluster_name` in their titles; the postmaster shows its data dir. */
async function postgresProcesses(): Promise<Set<string>> {
  const lines = await processesMatching("postgres: rtbench");
  return new Set(lines.map((l) => l.trim().split(/\s+/)[0]));
}

/** Runs the CLI while `watch` polls; returns the exit code, output and whether `watch` ever returned true. */
async function cliWatching(args: string[], env: Record<string, string>, watch: () => Promise<boolean>) {
  const child = spawnCli(args, env);
  let done = false;
  const output = child.output().finally(() => done = true);
  let seen = false;
  await waitFor(async () => (seen ||= await watch()) || done, 300_000);
  const out = await output;
  return { code: out.code, stdout: decoder.decode(out.stdout), stderr: decoder.decode(out.stderr), seen };
}

Deno.test("bench --workload postgres on deno,node,bun verifies every runtime and removes its embedded PostgreSQL", async () => {
  await withTmp(async (tmp) => {
    const out = `${tmp}/r.json`;
    const before = await postgresProcesses();
    const run = await cliWatching(
      ["--workload", "postgres", "--runtime", "deno,node,bun", "--duration", "0.3", "--warmup", "0.1", "--out", out],
      { TMPDIR: tmp },
      // While the suite runs, the database lives in the private temporary directory.
      async () =>
        (await entries(tmp)).some((name) => name.startsWith("rtbench-postgres-")) &&
        (await processesMatching(`${tmp}/rtbench-postgres-`)).some((l) => l.includes("postgres -D")),
    );
    assertEquals(run.code, 0, run.stderr + run.stdout);
    assert(run.seen, "the embedded PostgreSQL ran from the private temporary directory");

    const result = parseResult(await Deno.readTextFile(out));
    assertEquals(result.records.map((r) => r.id), [
      "postgres/db/deno",
      "postgres/db/node",
      "postgres/db/bun",
      "postgres/queries/deno",
      "postgres/queries/node",
      "postgres/queries/bun",
    ]);
    for (const record of result.records) {
      assertEquals(record.status, "completed", `${record.id}: ${JSON.stringify(record.error)}`);
      assertEquals(record.facts.database, "embedded");
      assertEquals(record.facts.queriesCountedFrom, "pg_stat_statements");
      assertMatch(String(record.facts.postgresVersion), /^\d+\.\d+/);
      assertEquals(record.facts.driverVersion, POSTGRES_JS_VERSION);
      assertEquals(record.facts.poolSize, 10);
      assertEquals(record.facts.queriesPerRequest, record.variant === "db" ? 1 : 20);
      // docs/workloads.md (postgres): "with fewer than 3 CPUs the database shares the server's, and the record says
      // so".
      const shares = record.warnings.some((w) => w.code === "db-shares-server-cpu");
      assertEquals(shares, navigator.hardwareConcurrency < 3, JSON.stringify(record.warnings));
      if (shares) assertEquals(record.facts.databaseCpus, record.cpus.server);
      else assert(!record.cpus.server?.split(",").includes(String(record.facts.databaseCpus)), "a CPU of its own");
      const checks = new Map(record.verification.checks.map((c) => [c.name, c]));
      // /queries clamps n on every runtime: 0 and abc and nothing give one row, 501 gives 500.
      for (
        const [path, rows] of [["/queries?n=0", 1], ["/queries?n=501", 500], ["/queries?n=abc", 1], ["/queries", 1]]
      ) {
        const check = checks.get(`GET ${path} rows`);
        assertEquals([check?.passed, check?.actual], [true, rows], `${record.id} GET ${path}`);
      }
      const seeded = checks.get("rows match the seeded world table")!;
      assert(seeded.passed && Number(seeded.actual) >= 504, `${record.id}: ${JSON.stringify(seeded)}`);
      // PostgreSQL ran at least one query per row of every response, and not more than the requests in flight explain.
      const counted = checks.get("run 1: queries counted vs expected")!;
      assert(counted.passed, `${record.id}: ${JSON.stringify(counted)}`);
      assert(Number(counted.actual) >= Number(counted.expected) * 0.99, JSON.stringify(counted));
      assert(Number(counted.expected) > 504, "load traffic was counted, not only verification");
    }
    for (const name of ["deno", "node", "bun"]) {
      assertEquals(run.stdout.match(new RegExp(`^${name} \\d\\S*\\s+[\\d,]+/s`, "gm"))?.length, 2, run.stdout);
    }
    // The table shows it beside every figure the database's CPU time is in.
    if (navigator.hardwareConcurrency < 3) assertStringIncludes(run.stdout, "db-shares-server-cpu");

    // Nothing survives: no PostgreSQL process, no data directory, nothing but the result.
    assertEquals(await processesMatching(tmp), []);
    const left = [...await postgresProcesses()].filter((pid) => !before.has(pid));
    assertEquals(left, [], "no PostgreSQL process left");
    assertEquals(await entries(tmp), ["r.json"]);
  }, { database: true });
});

Deno.test("a server that does not clamp n, or that reads all rows in one query, is invalid", async () => {
  await withTmp(async (tmp) => {
    // The embedded database goes to the system's temporary directory: point it at this test's.
    await withEnv({ TMPDIR: tmp }, async () => {
      const result = await run({
        workloads: [noClamp, oneQuery],
        runtimes: ["node"],
        settings: { durationSec: 0.5, warmupSec: 0, runs: 1 },
        tempDir: tmp,
      });
      const [unclamped, single] = result.records;
      assertEquals(unclamped.status, "invalid");
      assertEquals(unclamped.error?.phase, "verify");
      assertStringIncludes(unclamped.error!.message, "GET /queries?n=501 rows: got 501, expected 500");
      assertEquals(unclamped.runs.length, 0, "an invalid server is not measured");

      assertEquals(single.status, "invalid");
      assertEquals(single.error?.phase, "cleanup");
      assertMatch(single.error!.message, /run 1: queries counted vs expected: got \d+, expected \d+/);
      const counted = single.verification.checks.find((c) => c.name === "run 1: queries counted vs expected")!;
      // One query per request instead of twenty: about a twentieth of the expected count.
      assert(Number(counted.actual) < Number(counted.expected) / 10, JSON.stringify(counted));
      assert(single.verification.checks.find((c) => c.name === "rows match the seeded world table")?.passed);
    });
    await assertNothingLeft(tmp);
  }, { database: true });
});

Deno.test("with DATABASE_URL, rtbench creates, uses and drops only its own schema", async () => {
  await withTmp(async (tmp) => {
    // The embedded database goes to the system's temporary directory: point it at this test's.
    const server = await withEnv({ TMPDIR: tmp }, async () => {
      const nodeModules = await installDependencies(postgresWorkload.dependencies!, cacheDir());
      return await startEmbeddedPostgres({ nodeModules, cpus: null, maxConnections: 40, timeoutMs: 60_000 });
    });
    const sql = postgres(server.url, { max: 1, onnotice: () => {} });
    const schemas = async () => (await sql`select nspname from pg_namespace order by 1`).map((r) => String(r.nspname));
    try {
      const before = await schemas();
      const out = `${tmp}/r.json`;
      const run = await cliWatching(
        ["--workload", "postgres", "--variant", "db", "--runtime", "node", "--duration", "0.3", "--warmup", "0"]
          .concat(["--out", out]),
        { TMPDIR: tmp, DATABASE_URL: server.url },
        async () => (await schemas()).some((s) => /^rtbench_[0-9a-f]{12}$/.test(s)),
      );
      assertEquals(run.code, 0, run.stderr + run.stdout);
      assert(run.seen, "rtbench's schema existed in the given database during the run");
      assertEquals(await schemas(), before, "the schemas are as they were");

      const text = await Deno.readTextFile(out);
      assert(!text.includes(new URL(server.url).password), "the password is not in the result");
      const [record] = parseResult(text).records;
      assertEquals(record.status, "completed", JSON.stringify(record.error));
      assertEquals(record.facts.database, "external");
      // rtbench installs no extension in a database it was given; the table's statistics count instead.
      assertEquals(record.facts.queriesCountedFrom, "pg_stat_user_tables");
      assertEquals(record.options["database-url"], "<secret>");
      assert(record.verification.checks.find((c) => c.name === "run 1: queries counted vs expected")?.passed);
      assertEquals((await entries(tmp)).sort(), [server.dir.split("/").at(-1)!, "r.json"].sort());
    } finally {
      await sql.end();
      await server.stop();
    }
    await assertNothingLeft(tmp, ["r.json"]);
  }, { database: true });
});

Deno.test("SIGINT while a postgres server is loaded stops the server and the embedded database, and removes both", async () => {
  await withTmp(async (tmp) => {
    const out = `${tmp}/r.json`;
    const before = await postgresProcesses();
    const child = spawnCli(
      ["--workload", "postgres", "--variant", "db", "--runtime", "node", "--duration", "30", "--out", out],
      { TMPDIR: tmp },
    );
    // Wait for the server under test: by then the database is up and seeded.
    const serverUp = await waitFor(
      async () => (await processesMatching(`${tmp}/rtbench-`)).some((l) => /\/records\/\d+\/postgres\.mjs/.test(l)),
      120_000,
    );
    assert(serverUp, "the node server started");
    assert((await postgresProcesses()).size > before.size, "the embedded PostgreSQL runs");
    child.kill("SIGINT");
    const status = await child.output();
    assertEquals(status.code, 130, decoder.decode(status.stderr));
    assertEquals(await processesMatching(tmp), [], "no server, load generator or PostgreSQL left");
    assertEquals([...await postgresProcesses()].filter((pid) => !before.has(pid)), [], "no PostgreSQL backend left");
    // The file says the suite was interrupted, and by which signal.
    assertEquals(parseResult(await Deno.readTextFile(out)).interrupted?.signal, "SIGINT");
    assertEquals(await entries(tmp), ["r.json"], "the database directory is gone");
  }, { database: true });
});

// docs/workloads.md (postgres): "with 3 or more CPUs the embedded database gets a CPU of its own".
Deno.test("the embedded database takes the last of the server's CPUs when it has two, else shares and says so", () => {
  assertEquals(databaseCpus("0,1"), { database: "1", server: "0", warning: null });
  assertEquals(databaseCpus("0-2"), { database: "2", server: "0,1", warning: null });
  assertEquals(databaseCpus("0").warning?.code, "db-shares-server-cpu");
  assertEquals(databaseCpus("0").server, "0");
  assertEquals(databaseCpus(null).warning?.code, "db-shares-server-cpu");
});

// docs/method.md (Open model): "side effects (postgres's queries, rest-api's rows) are checked against the requests of
// the peak and every rate together": the database's own counts are checked against the peak's and every rate's
// requests, not the peak's alone (before, the rates' queries and rows exceeded what the peak sent, and the record was
// invalid).
Deno.test("--sweep on postgres and rest-api: what PostgreSQL counted matches the requests of every rate", async () => {
  await withTmp(async (tmp) => {
    await withEnv({ TMPDIR: tmp }, async () => {
      const settings = { sweep: true, sweepSteps: 3, durationSec: 0.3, warmupSec: 0.1, runs: 1 };
      const queries = await run({
        workloads: [postgresWorkload],
        runtimes: ["deno"],
        variants: ["db"],
        settings,
        tempDir: tmp,
      });
      const rows = await run({
        workloads: [restApi],
        runtimes: ["deno"],
        variants: ["default"],
        settings,
        tempDir: tmp,
      });
      for (const record of [...queries.records, ...rows.records]) {
        assertEquals(record.status, "completed", `${record.id}: ${JSON.stringify(record.error)}`);
        assertEquals(record.runs[0].steps?.length, 3, `${record.id}: a rate per step asked for`);
      }
      const counted = queries.records[0].verification.checks.find((c) => c.name.startsWith("run 1: queries counted"));
      assert(counted?.passed, JSON.stringify(counted));
      // The rates ran after the peak: PostgreSQL counted more queries than the peak's window answered.
      assert(Number(counted!.actual) > queries.records[0].runs[0].figures.validResponses, JSON.stringify(counted));
      const writes = rows.records[0].verification.checks.filter((c) => c.name.startsWith("run 1: database:"));
      assert(writes.length > 0 && writes.every((c) => c.passed), JSON.stringify(writes));
    });
  }, { database: true });
});
