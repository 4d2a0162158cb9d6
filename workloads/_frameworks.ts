/**
 * The framework axis of the HTTP workloads: each runtime's own server
 * (`default`), then the web frameworks people deploy, each at an exact
 * version from npm, each server written the way its framework's guide writes
 * it (its router, its JSON helper). A framework's server is one file run on
 * every runtime; a combination that does not run is skipped with the reason
 * found by trying it.
 *
 * @module
 */

import { serverFile } from "../adapters/mod.ts";
import { driverVersion } from "./_database.ts";
import type { Fact, ServerSource, Skip } from "./types.ts";

/** One framework: what it is, what its JSON helper sends as content-type, and its npm packages. */
export interface Framework {
  /** One line for the variant. */
  readonly description: string;
  /** The `content-type` its JSON helper sends (bodies are byte-identical across frameworks; this header is not). */
  readonly contentType: string;
  /** Its npm packages, the first being the framework itself. */
  readonly packages: readonly string[];
  /** Runtimes it does not run on, with what happened when it was tried. */
  readonly skip?: Readonly<Record<string, string>>;
  /** The HTTP server underneath on each runtime, recorded as the `server` fact. */
  readonly serves: Readonly<Record<string, string>>;
}

/** The runtime's own server for `default`, by runtime. */
const OWN: Readonly<Record<string, string>> = { deno: "Deno.serve", node: "node:http", bun: "Bun.serve" };

/** Express and Fastify sit on node:http: Node's own, Deno's and Bun's implementations of it. */
const NODE_HTTP: Readonly<Record<string, string>> = {
  deno: "node:http (Deno's)",
  node: "node:http",
  bun: "node:http (Bun's)",
};

/** The frameworks, `default` (no framework) first. */
export const FRAMEWORKS: Readonly<Record<string, Framework>> = {
  default: { description: "the runtime's own HTTP server", contentType: "application/json", packages: [], serves: OWN },
  express: {
    description: "Express 5: its router, express.json() and res.json()",
    contentType: "application/json; charset=utf-8",
    packages: ["express"],
    serves: NODE_HTTP,
  },
  fastify: {
    description: "Fastify 5: its router, body parser and reply serializer",
    contentType: "application/json; charset=utf-8",
    packages: ["fastify"],
    serves: NODE_HTTP,
  },
  hono: {
    description: "Hono: app.fetch on Deno.serve and Bun.serve, @hono/node-server on Node.js",
    contentType: "application/json",
    packages: ["hono", "@hono/node-server"],
    serves: { deno: "Deno.serve(app.fetch)", node: "@hono/node-server", bun: "Bun.serve(app.fetch)" },
  },
  elysia: {
    description: "Elysia: native on Bun, @elysiajs/node on Node.js, app.fetch on Deno.serve",
    contentType: "application/json",
    packages: ["elysia", "@elysiajs/node"],
    serves: { deno: "Deno.serve(app.fetch)", node: "@elysiajs/node", bun: "Bun.serve (Elysia's own)" },
  },
  oak: {
    description: "Oak: its Router and Application, ctx.response.body",
    contentType: "application/json; charset=UTF-8",
    packages: ["@oakserver/oak"],
    // npm's build of Oak takes its Node.js path wherever `process` exists, Deno 2 included (JSR's Oak, which
    // serves through Deno.serve, is not reachable from every machine).
    serves: { deno: "node:http (npm build of Oak)", node: "node:http", bun: "Bun.serve" },
  },
};

/**
 * The environment every framework's server runs with, on every runtime, as it runs deployed: `NODE_ENV=production`,
 * which Express's and Fastify's production guides tell users to set (Express then caches view templates and answers
 * errors without stack traces; Elysia and Bun read it too). A runtime's own server reads no such variable and runs
 * without it. `--pass-env NODE_ENV` keeps the user's value instead.
 */
export const DEPLOYED_ENV: Readonly<Record<string, string>> = { NODE_ENV: "production" };

/** The environment of `framework`'s servers: {@linkcode DEPLOYED_ENV}, or none for the runtime's own (`default`). */
export function deployedEnv(framework: string): Record<string, string> {
  return framework !== "default" && framework in FRAMEWORKS ? { ...DEPLOYED_ENV } : {};
}

/** Exact versions of every framework package, installed with the workloads that have framework variants. */
export const FRAMEWORK_DEPENDENCIES: Readonly<Record<string, string>> = {
  express: "5.3.0",
  fastify: "5.12.8",
  hono: "4.13.19",
  "@hono/node-server": "2.1.9",
  elysia: "1.4.30",
  "@elysiajs/node": "1.4.5",
  "@oakserver/oak": "14.1.0",
};

/** The facts a variant's records carry: the framework and the exact version installed. */
export async function frameworkVersions(
  variant: string,
  nodeModules: string | undefined,
): Promise<Record<string, Fact>> {
  const framework = FRAMEWORKS[variant];
  if (!framework || framework.packages.length === 0) return { framework: "none" };
  const versions = await Promise.all(
    framework.packages.map(async (name) => nodeModules ? await driverVersion(nodeModules, name) : null),
  );
  return {
    framework: variant,
    frameworkVersion: versions[0],
    frameworkPackages: framework.packages.map((name, i) => `${name}@${versions[i] ?? "?"}`).join(" "),
  };
}

/**
 * The server of `workload` (`rest_api`, `http_json`) for a runtime and variant: the runtime's own where its adapter
 * says (`servers/<runtime>/<workload><ext>`), a framework's under `servers/frameworks/<framework>/`, one JavaScript
 * module run on every JavaScript runtime. `beside` are the modules it imports as `./<name>` (a data layer).
 */
export function frameworkServer(
  workload: string,
  runtime: string,
  variant: string,
  beside: readonly URL[] = [],
): ServerSource | Skip {
  const framework = FRAMEWORKS[variant];
  if (!framework) return { skip: `no ${variant} server` };
  if (variant === "default") {
    const entry = serverFile(runtime, workload);
    if (!entry) return { skip: `no ${workload} server for ${runtime}` };
    return { entry, beside, ...(OWN[runtime] ? { facts: { server: OWN[runtime] } } : {}) };
  }
  const why = framework.skip?.[runtime];
  if (why) return { skip: why };
  if (!OWN[runtime]) return { skip: `no ${variant} server for ${runtime}` };
  return {
    entry: new URL(`../servers/frameworks/${variant}/${workload}.mjs`, import.meta.url),
    beside,
    facts: { server: framework.serves[runtime] ?? variant },
  };
}
