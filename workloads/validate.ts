/**
 * Checks that a value really is a {@linkcode Workload} before rtbench runs it:
 * workloads can come from users' own modules, and a malformed one must be a
 * one-line error naming the module and the field, not a crash mid-suite.
 *
 * @module
 */

import { UsageError } from "../runners/platform/mod.ts";
import { KIND_REQUIREMENTS, WORKLOAD_KINDS } from "../runners/schema/mod.ts";
import type { Workload, WorkloadKind } from "./types.ts";

export { WORKLOAD_KINDS };

/** A required field that is not a function: its test, and what the message says a workload needs. */
const OBJECTS: Readonly<Record<string, readonly [(value: unknown) => boolean, string]>> = {
  headline: [
    (h) => isObject(h) && typeof h.figure === "string" && typeof h.higherIsBetter === "boolean",
    `a "headline" with a "figure" name and "higherIsBetter"`,
  ],
};

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * Returns `value` typed as a workload, or throws {@linkcode UsageError}
 * naming `source` and the first field that is wrong.
 *
 * @param value Whatever a module exported.
 * @param source Where it came from, for the message (a file name, a flag).
 * @returns `value`, typed as a workload.
 *
 * @example Reject an object that is not a workload
 * ```ts
 * import { validateWorkload } from "./validate.ts";
 * try {
 *   validateWorkload({ name: "x" }, "my_workload.ts");
 * } catch (e) {
 *   console.log((e as Error).message); // my_workload.ts: not a workload: "description" must be a non-empty string
 * }
 * ```
 */
export function validateWorkload(value: unknown, source: string): Workload {
  const fail = (what: string): never => {
    throw new UsageError(`${source}: not a workload: ${what}`);
  };
  if (!isObject(value)) return fail("expected an object");
  if (typeof value.name !== "string" || !/^[a-z0-9][a-z0-9-]*$/.test(value.name)) {
    fail(`"name" must be kebab-case letters and digits, got ${JSON.stringify(value.name)}`);
  }
  if (typeof value.description !== "string" || value.description.trim() === "") {
    fail(`"description" must be a non-empty string`);
  }
  if (!WORKLOAD_KINDS.includes(value.kind as WorkloadKind)) {
    fail(`"kind" must be one of ${WORKLOAD_KINDS.join(", ")}, got ${JSON.stringify(value.kind)}`);
  }
  if (!Array.isArray(value.variants) || value.variants.length === 0) fail(`"variants" must be a non-empty array`);
  const names = new Set<string>();
  for (const [i, v] of (value.variants as unknown[]).entries()) {
    if (!isObject(v) || typeof v.name !== "string" || v.name === "" || typeof v.description !== "string") {
      fail(`"variants[${i}]" must have a non-empty "name" and a "description"`);
    }
    const name = (v as { name: string }).name;
    if (names.has(name)) fail(`variant "${name}" appears twice`);
    names.add(name);
  }
  // What the kind's module says its workloads need (runners/kinds/registry.ts, written here by `runners/dev/kinds.ts`).
  for (const field of KIND_REQUIREMENTS[value.kind as WorkloadKind]) {
    const [ok, needs] = OBJECTS[field] ?? [(v: unknown) => typeof v === "function", `a "${field}" function`];
    if (!ok(value[field])) fail(`a ${value.kind} workload needs ${needs}`);
  }
  for (const fn of ["setup", "verify"]) {
    if (value[fn] !== undefined && typeof value[fn] !== "function") fail(`"${fn}" must be a function when present`);
  }
  if (value.options !== undefined) {
    if (!Array.isArray(value.options)) fail(`"options" must be an array`);
    for (const [i, o] of (value.options as unknown[]).entries()) {
      if (!isObject(o) || typeof o.name !== "string" || !/^[a-z][a-z0-9-]*$/.test(o.name)) {
        fail(`"options[${i}].name" must be a kebab-case flag name`);
      }
      if ((o as { type?: unknown }).type !== "number" && (o as { type?: unknown }).type !== "string") {
        fail(`"options[${i}].type" must be "number" or "string"`);
      }
    }
  }
  if (value.dependencies !== undefined) {
    if (!isObject(value.dependencies) || Object.values(value.dependencies).some((v) => typeof v !== "string")) {
      fail(`"dependencies" must map npm package names to version strings`);
    }
  }
  return value as unknown as Workload;
}

/**
 * Imports a module and returns the workloads it exports (its default export
 * and every named export that looks like a workload, each validated). Throws
 * {@linkcode UsageError} when the module cannot be imported, throws on import,
 * or exports no workload.
 *
 * @param path A file path (relative to the working directory) or a URL.
 * @returns Every workload the module exports, each validated.
 *
 * @example Load workloads from a user's file
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { loadWorkloadModule } from "@rtbench/rtbench/workloads";
 *
 * const dir = await Deno.makeTempDir();
 * await Deno.writeTextFile(
 *   `${dir}/ping.ts`,
 *   `export const ping = {
 *     name: "ping",
 *     description: "GET /ping answers pong",
 *     kind: "http",
 *     variants: [{ name: "default", description: "one server per runtime" }],
 *     server: (runtime) => ({ entry: new URL(\`./servers/\${runtime}.ts\`, import.meta.url) }),
 *     traffic: () => ({ requests: [{ path: "/ping", expect: { status: 200, contentType: "text/plain", body: "pong" } }] }),
 *   };`,
 * );
 * const workloads = await loadWorkloadModule(`${dir}/ping.ts`);
 * assertEquals(workloads.map((w) => w.name), ["ping"]);
 * await Deno.remove(dir, { recursive: true });
 * ```
 */
export async function loadWorkloadModule(path: string): Promise<Workload[]> {
  const url = /^[a-z][a-z0-9+.-]*:/i.test(path) ? new URL(path) : new URL(path, `file://${Deno.cwd()}/`);
  let mod: Record<string, unknown>;
  try {
    mod = await import(url.href);
  } catch (error) {
    const message = error instanceof Error ? error.message.split("\n")[0] : String(error);
    throw new UsageError(`--workload-file ${path}: cannot import (${message})`, { cause: error });
  }
  const candidates = Object.entries(mod).filter(([key, v]) =>
    key === "default" || (isObject(v) && typeof v.kind === "string" && typeof v.name === "string")
  );
  if (candidates.length === 0) throw new UsageError(`--workload-file ${path}: exports no workload`);
  const workloads: Workload[] = [];
  for (const [key, v] of candidates) {
    const w = validateWorkload(v, `--workload-file ${path} (export ${key})`);
    if (!workloads.includes(w)) workloads.push(w);
  }
  return workloads;
}
