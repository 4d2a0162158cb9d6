/**
 * 002's "each runtime on its own favourite stack" as one rest-api variant,
 * `favourite`: Bun on Elysia, Node.js on Express, Deno on Oak, each with its
 * data through Prisma ORM. One variant, so its arms run interleaved and paired
 * like any other variant's runtimes, rather than as three separate runs.
 *
 * 002 ran Deno's arm on deno-postgres; that driver is not on npm, and its ORM
 * arm here is the same Prisma client the other two use (the driver
 * comparison is postgres's `-native` variants). The frameworks send JSON
 * under different content-types; this variant names one for all three
 * (`REST_JSON_TYPE`), so that the arms answer alike.
 *
 * @module
 */

import { FRAMEWORK_DEPENDENCIES, FRAMEWORKS, frameworkServer } from "./_frameworks.ts";
import type { ServerSource, Skip } from "./types.ts";

/** The variant's name. */
export const FAVOURITE = "favourite";

/** Each runtime's favourite framework, as 002 paired them. */
export const FAVOURITES: Readonly<Record<string, string>> = { bun: "elysia", node: "express", deno: "oak" };

/** The content-type every arm sends JSON with (Express's own; Elysia and Oak are told). */
export const FAVOURITE_JSON_TYPE = "application/json; charset=utf-8";

/**
 * The server of the `favourite` variant on `runtime`: its favourite framework's rest-api server over the modules
 * `beside` it (the Prisma data layer), with the framework and its pinned version as facts.
 *
 * @example
 * ```ts
 * import { favouriteServer } from "./_favourite.ts";
 * const source = favouriteServer("bun", []);
 * console.log("entry" in source && source.facts?.framework); // elysia
 * ```
 */
export function favouriteServer(runtime: string, beside: readonly URL[]): ServerSource | Skip {
  const framework = FAVOURITES[runtime];
  if (!framework) return { skip: `002 names no favourite stack for ${runtime}` };
  const source = frameworkServer("rest_api", runtime, framework, beside);
  if ("skip" in source) return source;
  const packages = FRAMEWORKS[framework].packages;
  return {
    ...source,
    facts: {
      ...source.facts,
      framework,
      frameworkVersion: FRAMEWORK_DEPENDENCIES[packages[0]] ?? null,
      frameworkPackages: packages.map((name) => `${name}@${FRAMEWORK_DEPENDENCIES[name] ?? "?"}`).join(" "),
    },
  };
}
