/**
 * The postgres workload's article variants (002): each runtime's own
 * PostgreSQL driver (`-native`: pg on Node.js, Bun.sql on Bun, pgwire on
 * Deno; Go and Rust already use theirs), and 002's own query, `SELECT * FROM
 * users LIMIT 1000` on the seeded `users` table (`users`, `users-native`),
 * beside the one-row and 20-query forms.
 *
 * Deno's driver: 002 used deno-postgres (`deno.land/x/postgres`), which is
 * published on JSR only (`@db/postgres`), not on npm; pgwire is a PostgreSQL
 * driver written for Deno (on `Deno.connect`) that is on npm, so it stands in.
 *
 * @module
 */

import { seededUsers } from "../fixtures/mod.ts";
import type { Fact } from "./types.ts";

/** The suffix of the variants whose JavaScript servers use their runtime's own driver. */
export const NATIVE = "-native";

/** The pg (node-postgres) release Node.js's `-native` servers use. */
export const PG_VERSION = "8.23.1";
/** The pgwire release Deno's `-native` servers use. */
export const PGWIRE_VERSION = "0.8.1";

/** Each JavaScript runtime's own driver: the data layer staged as `world_db.mjs`, and the record's facts. */
const DRIVERS: Readonly<Record<string, { readonly layer: string; readonly facts: Record<string, Fact> }>> = {
  node: { layer: "pg", facts: { driver: "pg (node-postgres)", driverVersion: PG_VERSION } },
  bun: { layer: "bun_sql", facts: { driver: "Bun.sql (built into Bun)", driverVersion: null } },
  deno: {
    layer: "pgwire",
    facts: {
      driver: "pgwire (Deno build, on Deno.connect; deno-postgres is not on npm)",
      driverVersion: PGWIRE_VERSION,
    },
  },
};

/** The npm packages the `-native` layers import, installed with the workload. */
export const NATIVE_DRIVER_DEPENDENCIES: Readonly<Record<string, string>> = { pg: PG_VERSION, pgwire: PGWIRE_VERSION };

/** Whether a variant asks for 002's `GET /users` (`users`, `users-native`). */
export function isUsersVariant(variant: string): boolean {
  return variant === "users" || variant === `users${NATIVE}`;
}

/**
 * The data layer and facts of a `-native` variant on a JavaScript runtime, or null for another variant or runtime.
 *
 * @example
 * ```ts
 * import { nativeDriver } from "./_postgres_drivers.ts";
 * console.log(nativeDriver("bun", "db-native")?.facts.driver); // Bun.sql (built into Bun)
 * console.log(nativeDriver("bun", "db")); // null
 * ```
 */
export function nativeDriver(
  runtime: string,
  variant: string,
): { readonly beside: URL[]; readonly facts: Record<string, Fact> } | null {
  const driver = DRIVERS[runtime];
  if (!driver || !variant.endsWith(NATIVE)) return null;
  return {
    beside: [new URL(`../servers/shared/${driver.layer}/world_db.mjs`, import.meta.url)],
    facts: driver.facts,
  };
}

/** The exact body of `GET /users`: the 1,000 seeded users in id order, as every server writes them. */
export function usersBody(): string {
  return JSON.stringify(seededUsers().slice(0, 1000));
}
