// The embedded PostgreSQL's kept template: a start copies the data directory an earlier start's initdb made instead of
// running initdb, answers to its own password and not the template's, and a template it cannot start from is made
// again by the next start.
import { assertEquals, assertNotEquals, assertRejects } from "@std/assert";
import postgres from "postgres";
import { cacheDir } from "../../adapters/_cache.ts";
import { installDependencies } from "../../runners/platform/workspace.ts";
import { type EmbeddedPostgres, startEmbeddedPostgres } from "../../workloads/_embedded_postgres.ts";
import { postgresWorkload } from "../../workloads/postgres.ts";
import { entries, withTmp } from "../_helpers.ts";

/** The cluster's identifier, which initdb draws afresh and a copied data directory keeps. */
async function systemIdentifier(url: string): Promise<string> {
  const sql = postgres(url, { max: 1, onnotice: () => {} });
  try {
    const [row] = await sql`select system_identifier::text as id from pg_control_system()`;
    return String(row.id);
  } finally {
    await sql.end();
  }
}

/** `fn` with a server started with `templates`, stopped afterwards. */
async function withServer<T>(templates: string, fn: (pg: EmbeddedPostgres) => Promise<T>): Promise<T> {
  const nodeModules = await installDependencies(postgresWorkload.dependencies!, cacheDir());
  const pg = await startEmbeddedPostgres({ nodeModules, cpus: null, maxConnections: 10, timeoutMs: 60_000, templates });
  try {
    return await fn(pg);
  } finally {
    await pg.stop();
  }
}

Deno.test("a second embedded PostgreSQL copies the first's initialised cluster and takes its own password", () =>
  withTmp(async (tmp) => {
    const templates = `${tmp}/templates`;
    const first = await withServer(templates, (pg) => systemIdentifier(pg.url));
    const [kept] = await entries(templates);
    const templatePassword = (await Deno.readTextFile(`${templates}/${kept}/password`)).trim();
    await withServer(templates, async (pg) => {
      assertEquals(await systemIdentifier(pg.url), first, "a copy of the template's cluster");
      const withTemplates = new URL(pg.url);
      withTemplates.password = templatePassword;
      assertNotEquals(withTemplates.password, new URL(pg.url).password);
      await assertRejects(() => systemIdentifier(withTemplates.href), Error, "password authentication failed");
    });
    // A template that no longer starts: that start fails, and the next one runs initdb and keeps a new template.
    await Deno.remove(`${templates}/${kept}/data/PG_VERSION`);
    await assertRejects(() => withServer(templates, () => Promise.resolve()), Error, "Cannot start the embedded");
    assertEquals(await entries(templates), []);
    const again = await withServer(templates, (pg) => systemIdentifier(pg.url));
    assertNotEquals(again, first);
    assertEquals(await entries(templates), [kept]);
  }, { database: true }));
