/**
 * Prisma ORM 7 for the workloads' `prisma` variants: the pinned CLI, client
 * and pg driver adapter from npm (installed once into rtbench's cache, apart
 * from the workload's own packages: Prisma's CLI weighs 300 MB), and a client
 * generated offline for each workload and variant into its own directory.
 *
 * Prisma 7 needs no query engine binary: the client queries PostgreSQL through
 * the `pg` driver adapter. Its schema engine serves only migrations, which
 * rtbench does in SQL, so `PRISMA_SCHEMA_ENGINE_BINARY` names an existing file
 * and `prisma generate` downloads nothing. The generator `prisma-client` writes
 * TypeScript; amaro (the library Node.js strips types with) turns it into
 * JavaScript, so that every runtime and release runs the same files.
 *
 * @module
 */

import { installDependencies, runCommand } from "../runners/platform/mod.ts";
import { cacheDir, node as nodeAdapter } from "../adapters/mod.ts";

/** The Prisma CLI release that generates the client. */
export const PRISMA_VERSION = "7.10.1";

/** The packages a `prisma` variant runs on, pinned (`@prisma/client` 7.10.0 is the newest 7.10 client on npm). */
export const PRISMA_DEPENDENCIES: Readonly<Record<string, string>> = {
  prisma: PRISMA_VERSION,
  "@prisma/client": "7.10.0",
  "@prisma/adapter-pg": "7.10.1",
};

/**
 * The tables the workloads' servers read, as Prisma sees them (rest-api's `users`, postgres's `world`); field order is
 * the JSON's key order, as in the other data layers. rtbench creates the tables in SQL; this only describes them.
 */
const SCHEMA = `generator client {
  provider              = "prisma-client"
  output                = "./client"
  moduleFormat          = "esm"
  runtime               = "nodejs"
  importFileExtension   = "js"
}

datasource db {
  provider = "postgresql"
}

model User {
  id        Int      @id @default(autoincrement())
  name      String
  email     String
  createdAt DateTime @default(now()) @map("created_at") @db.Timestamptz

  @@map("users")
}

model World {
  id           Int @id
  randomNumber Int @map("randomnumber")

  @@map("world")
}
`;

/** What a generated client is: the module servers import (exports `PrismaClient` and `PrismaPg`), and versions. */
export interface PrismaClientFiles {
  /** `file:` URL of the entry module, for `PRISMA_CLIENT`. */
  readonly entry: string;
  /** For the record's `orm` fact: `prisma 7.10.1 (@prisma/client 7.10.0, @prisma/adapter-pg 7.10.1)`. */
  readonly fact: string;
}

async function walk(dir: string): Promise<string[]> {
  const files: string[] = [];
  for await (const e of Deno.readDir(dir)) {
    if (e.isDirectory) files.push(...await walk(`${dir}/${e.name}`));
    // The generated client is TypeScript, whichever runtime later imports it.
    else if (/\.ts$/.test(e.name)) files.push(`${dir}/${e.name}`);
  }
  return files;
}

/**
 * Generates the client into `dir` (made here): Prisma's packages
 * installed or taken from the cache, `prisma generate` run offline, its
 * TypeScript stripped to JavaScript, and an entry module beside it.
 */
export async function generatePrismaClient(dir: string, signal?: AbortSignal): Promise<PrismaClientFiles> {
  const nodeModules = await installDependencies(PRISMA_DEPENDENCIES, cacheDir(), signal);
  const node = await nodeAdapter.detect();
  if (!node) throw new Error("Cannot generate the Prisma client: node is not on PATH (install Node.js)");
  await Deno.mkdir(dir, { recursive: true });
  await Deno.writeTextFile(`${dir}/package.json`, JSON.stringify({ private: true, type: "module" }) + "\n");
  await Deno.symlink(nodeModules, `${dir}/node_modules`);
  const schema = `${dir}/schema.prisma`;
  await Deno.writeTextFile(schema, SCHEMA);
  const out = await runCommand([node, `${nodeModules}/prisma/build/index.js`, "generate", "--schema", schema], {
    cwd: dir,
    timeoutMs: 120_000,
    signal,
    // Any existing file: the schema engine is never started by `generate`, and naming one stops the download.
    env: { PRISMA_SCHEMA_ENGINE_BINARY: schema, PRISMA_HIDE_UPDATE_MESSAGE: "1", CHECKPOINT_DISABLE: "1" },
  });
  signal?.throwIfAborted();
  if (!out.success) {
    const why = (out.stderr + out.stdout).trim().split("\n").filter(Boolean).slice(-2).join(" ");
    throw new Error(`Cannot generate the Prisma client: ${out.timedOut ? "timed out" : why}`);
  }
  // Loaded here, not with the module: amaro's compiler costs every process that loads the workloads about 50 ms.
  const { transformSync } = await import("amaro");
  for (const file of await walk(`${dir}/client`)) {
    const { code } = transformSync(await Deno.readTextFile(file), { mode: "strip-only" });
    await Deno.writeTextFile(file.replace(/\.ts$/, ".js"), code);
    await Deno.remove(file);
  }
  await Deno.writeTextFile(
    `${dir}/entry.js`,
    'export { PrismaClient } from "./client/client.js";\nexport { PrismaPg } from "@prisma/adapter-pg";\n',
  );
  const version = async (name: string) =>
    JSON.parse(await Deno.readTextFile(`${nodeModules}/${name}/package.json`)).version as string;
  return {
    entry: new URL(`file://${dir}/entry.js`).href,
    fact: `prisma ${await version("prisma")} (@prisma/client ${await version("@prisma/client")}, ` +
      `@prisma/adapter-pg ${await version("@prisma/adapter-pg")})`,
  };
}
