// The postgres workload's data access through Prisma ORM 7 (the `db-prisma` and `queries-prisma` variants): the same
// export as the postgres.js layer of the same name; the query is Prisma Client's.
import { prisma } from "./prisma_client.mjs";

/**
 * `{id, randomNumber}` of the row `id`, one query. Not `findUnique`: Prisma batches the `findUnique` calls of one tick
 * into a single `where id in (...)` query (tried: 20 concurrent reads counted as 1 by PostgreSQL), and the workload
 * asks for one query per row, which rtbench checks against PostgreSQL's own count.
 */
export async function world(id) {
  return await prisma.world.findFirst({ where: { id }, select: { id: true, randomNumber: true } });
}
