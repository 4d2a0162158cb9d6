/**
 * rtbench: benchmark JavaScript runtimes (Node.js, Deno, Bun) on the same
 * verified workloads and get every number in one versioned result schema.
 *
 * This module is everything at once; the same symbols are split by concern in
 * the sub-entry points:
 *
 * - `@rtbench/rtbench/workloads` — the workload contract and the built-in workloads;
 * - `@rtbench/rtbench/adapters` — runtime adapters and runtime resolution;
 * - `@rtbench/rtbench/runners` — {@linkcode run}, load generators, exporters, comparison;
 * - `@rtbench/rtbench/schema` — the result types, the JSON Schema and {@linkcode parseResult};
 * - `@rtbench/rtbench/schema.json` — the JSON Schema file itself;
 * - `@rtbench/rtbench/cli` — the command line (`deno run -A jsr:@rtbench/rtbench/cli`).
 *
 * @example Run one workload on two runtimes
 * ```ts ignore
 * import { httpJson, run } from "@rtbench/rtbench";
 *
 * const result = await run({ workloads: [httpJson], runtimes: ["deno", "node"] });
 * for (const r of result.records) console.log(r.runtime.name, r.summary.requestsPerSecond?.median);
 * ```
 *
 * @example Read a stored result and compare two
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { compareResults, parseResult } from "@rtbench/rtbench";
 *
 * const base = parseResult(await Deno.readTextFile("fixtures/results/base.json"));
 * const head = parseResult(await Deno.readTextFile("fixtures/results/head.json"));
 * const node = compareResults(base, head).figures.find((f) => f.runtime === "node" && f.figure === "latencyUs.p99");
 * assertEquals(node?.verdict, "slower");
 * ```
 *
 * @module
 */

export * from "./workloads/mod.ts";
export * from "./adapters/mod.ts";
export * from "./runners/mod.ts";
export * from "./runners/schema/mod.ts";
