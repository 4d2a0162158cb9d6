// The rest-api workload's data layer through Prisma ORM 7 (the `prisma` variant): the same exports as the tagged-SQL
// layer of the same name, so every server runs on either unchanged; the queries are Prisma Client's, on PostgreSQL
// through its pg driver adapter (no query engine binary; see prisma_client.mjs).
import { idOf, pageOf, validUser } from "./users_http.mjs";
import { prisma } from "./prisma_client.mjs";

export * from "./users_http.mjs";

/** GET /users?page&limit: `{page, limit, users}` in id order. */
export async function listUsers(page, limit) {
  const q = pageOf(page, limit);
  const users = await prisma.user.findMany({ orderBy: { id: "asc" }, take: q.limit, skip: (q.page - 1) * q.limit });
  return { page: q.page, limit: q.limit, users };
}

/** GET /users/:id: the user, or null. */
export async function getUser(id) {
  const n = idOf(id);
  if (n === null) return null;
  return await prisma.user.findUnique({ where: { id: n } });
}

/** POST /users: the created user, or null when the body is not a valid user. */
export async function createUser(body) {
  const u = validUser(body);
  if (u === null) return null;
  return await prisma.user.create({ data: u });
}

/** Prisma's "no record found" for an update or delete of a missing row. */
const NOT_FOUND = "P2025";

/** PUT /users/:id: the updated user, null when there is none, "invalid" when the body is not a valid user. */
export async function updateUser(id, body) {
  const u = validUser(body);
  if (u === null) return "invalid";
  const n = idOf(id);
  if (n === null) return null;
  try {
    return await prisma.user.update({ where: { id: n }, data: u });
  } catch (error) {
    if (error?.code === NOT_FOUND) return null;
    throw error;
  }
}

/** DELETE /users/:id: whether a row was deleted. */
export async function deleteUser(id) {
  const n = idOf(id);
  if (n === null) return false;
  const { count } = await prisma.user.deleteMany({ where: { id: n } });
  return count === 1;
}
