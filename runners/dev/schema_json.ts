/**
 * Writes the JSON Schema of a result file (`runners/schema/bench_result.schema.json`, the package's `./schema.json`)
 * from its TypeScript types (`BenchResult` of `runners/schema/result.ts` and the types it uses), and the schema's
 * validator (`runners/schema/validator.js`: Ajv's code for it, compiled here once instead of in every process that
 * reads or writes a result, about 0.2 s of CPU each), so that the three never disagree: each description is the type's
 * or the field's JSDoc, each constraint a JSDoc tag the generator reads (`@minimum`, `@exclusiveMinimum`, `@maximum`,
 * `@minLength`, `@minItems`, `@maxItems`, `@pattern`, `@format`, and `@asType integer` for a whole number). Edit the
 * types, then run
 *
 * ```sh
 * deno run -A runners/dev/schema_json.ts          # writes the schema and its validator
 * deno run -A runners/dev/schema_json.ts --check  # exit 1 when either committed file is stale
 * ```
 *
 * `tests/unit/schema_json_test.ts` fails while a committed file differs from what this writes. A development tool:
 * not published, not among the user's tasks.
 *
 * @module
 */

import { Ajv } from "ajv";
// CommonJS modules with a default export: `.default` is the function for both TypeScript and Deno.
import standaloneCode from "ajv/dist/standalone/index.js";
import ucs2length from "ajv/dist/runtime/ucs2length.js";
import { createGenerator } from "ts-json-schema-generator";
import { makeTempDir, removeTemp, runEntry } from "../platform/mod.ts";
import { namingFlags, strictFlags } from "../cli/mod.ts";

const ROOT = new URL("../../", import.meta.url);

/** The schema file, from the repository's root. */
export const SCHEMA_FILE = "runners/schema/bench_result.schema.json";

/** The validator's module, from the repository's root. */
export const VALIDATOR_FILE = "runners/schema/validator.js";

/** What the schema says of itself, besides what the types say. */
const HEAD = {
  $schema: "http://json-schema.org/draft-07/schema#",
  $id: "https://jsr.io/@rtbench/rtbench/bench_result.schema.json",
  title: "rtbench BenchResult",
} as const;

/**
 * The published names of the schema's definitions (other schemas refer to them, `#/definitions/record`), by the
 * type each holds; a type not listed here is written in place wherever it is used.
 */
const DEFINITIONS: Readonly<Record<string, string>> = {
  BenchRecord: "record",
  Check: "check",
  EndpointRun: "endpointRun",
  EndpointSummary: "endpointSummary",
  Environment: "environment",
  Fact: "fact",
  LatencyPercentiles: "latency",
  LoadPhase: "loadPhase",
  MachineCalibration: "calibration",
  MachineIdentity: "machineIdentity",
  MeanPeak: "meanPeak",
  ProcessEnvironment: "processEnvironment",
  ResourceSeries: "resourceSeries",
  ResourceSummary: "resourceSummary",
  RoleSeries: "roleSeries",
  RoleSummary: "roleSummary",
  RunAccounting: "accounting",
  RunRecord: "run",
  RunSettings: "settings",
  RuntimeInfo: "runtime",
  Summary: "summary",
  SweepStep: "sweepStep",
  Topology: "topology",
  Warning: "warning",
};

type Schema = { [key: string]: unknown };

/** The type each constraint applies to (JSON Schema ignores it on a value of another type). */
const CONSTRAINED: Readonly<Record<string, readonly string[]>> = {
  minItems: ["array"],
  maxItems: ["array"],
  minLength: ["string"],
  pattern: ["string"],
  format: ["string"],
  minimum: ["number", "integer"],
  exclusiveMinimum: ["number", "integer"],
  maximum: ["number", "integer"],
};

/**
 * A constraint on a union (`@minItems 3` on `number[] | null`) moved into the union's members of its type, where a
 * strict validator (Ajv's strict mode, which rtbench's reader uses) wants it.
 */
function sinkConstraints(node: Schema): Schema {
  if (!Array.isArray(node.anyOf)) return node;
  const moved = Object.keys(node).filter((k) => k in CONSTRAINED);
  if (moved.length === 0) return node;
  const rest = Object.fromEntries(Object.entries(node).filter(([k]) => !moved.includes(k)));
  const anyOf = (node.anyOf as Schema[]).map((member) => {
    const own = moved.filter((k) => CONSTRAINED[k].includes(member.type as string));
    return own.length === 0 ? member : { ...member, ...Object.fromEntries(own.map((k) => [k, node[k]])) };
  });
  return { ...rest, anyOf };
}

/** `{@linkcode X}` and `{@link X}` of JSDoc as `` `X` ``, and the spaces the generator leaves around them. */
function plainDescription(text: string): string {
  return text.replace(/\s*\{@link(?:code|plain)?\s+([^}\s]+)\s*\}\s*/g, (m, name: string) => {
    const before = /^\s/.test(m) ? " " : "";
    const after = /\s$/.test(m) ? " " : "";
    return `${before}\`${name}\`${after}`;
  }).replace(/`\s+([.,;:)])/g, "`$1");
}

/** `node` with every definition not published written in place, published ones renamed, JSDoc links plain. */
function rewrite(node: unknown, definitions: Readonly<Record<string, Schema>>): unknown {
  if (Array.isArray(node)) return node.map((n) => rewrite(n, definitions));
  if (node === null || typeof node !== "object") return node;
  const object = node as Schema;
  const out: Schema = {};
  if (typeof object.$ref === "string") {
    const name = decodeURIComponent(object.$ref.slice("#/definitions/".length));
    if (!(name in DEFINITIONS)) {
      // In place: the definition's keys, then what the reference adds (a field's own description wins).
      const { $ref: _, ...rest } = object;
      return rewrite({ ...definitions[name], ...rest }, definitions);
    }
    out.$ref = `#/definitions/${DEFINITIONS[name]}`;
  }
  for (const [key, value] of Object.entries(object)) {
    if (key === "$ref") continue;
    // `@default` in the types documents a profile's value for a reader of the code, not a value a file may omit.
    if (key === "default") continue;
    out[key] = key === "description" && typeof value === "string"
      ? plainDescription(value)
      : key === "properties" || key === "definitions"
      ? Object.fromEntries(Object.entries(value as Schema).map(([k, v]) => [k, rewrite(v, definitions)]))
      : rewrite(value, definitions);
  }
  return sinkConstraints(out);
}

/**
 * The schema's text as the types say it should be; `root` is the repository's root.
 *
 * @example The committed schema is current
 * ```ts ignore
 * import { assertEquals } from "@std/assert";
 * import { SCHEMA_FILE, schemaJson } from "./schema_json.ts";
 * assertEquals(await Deno.readTextFile(SCHEMA_FILE), await schemaJson());
 * ```
 */
export async function schemaJson(root: URL = ROOT): Promise<string> {
  const dir = await makeTempDir({ prefix: "rtbench-schema-json-" });
  try {
    const entry = new URL("runners/schema/result.ts", root).pathname;
    const tsconfig = `${dir}/tsconfig.json`;
    const compilerOptions = {
      strict: true,
      target: "ES2022",
      module: "ESNext",
      moduleResolution: "bundler",
      allowImportingTsExtensions: true,
      resolveJsonModule: true,
      noEmit: true,
    };
    await Deno.writeTextFile(tsconfig, JSON.stringify({ compilerOptions, files: [entry] }));
    const generated = createGenerator({
      path: entry,
      tsconfig,
      type: "BenchResult",
      expose: "export",
      topRef: false,
      jsDoc: "extended",
      sortProps: false,
      additionalProperties: false,
      skipTypeCheck: true,
    }).createSchema("BenchResult") as Schema;
    const { $schema: _, definitions = {}, ...body } = generated as Schema & { definitions?: Record<string, Schema> };
    const published = Object.entries(DEFINITIONS).map(([type, name]) => {
      if (!(type in definitions)) throw new Error(`${SCHEMA_FILE}: the types have no ${type} (the definition ${name})`);
      return [name, rewrite(definitions[type], definitions)] as const;
    });
    const schema = {
      ...HEAD,
      ...(rewrite(body, definitions) as Schema),
      definitions: Object.fromEntries(published.sort(([a], [b]) => a.localeCompare(b))),
    };
    return JSON.stringify(schema, null, 2) + "\n";
  } finally {
    await removeTemp(dir);
  }
}

/** Timestamps as rtbench writes them (`new Date().toISOString()`) and as RFC 3339 allows them with an offset. */
const ISO_DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;

/**
 * The validator module's text for the schema `schemaText`: Ajv's standalone code (every error, strict), an ES module
 * exporting `validate`, typed by `validator.d.ts` beside it.
 */
export function validatorJs(schemaText: string): string {
  const ajv = new Ajv({
    allErrors: true,
    strict: true,
    allowUnionTypes: true,
    formats: { "date-time": ISO_DATE_TIME },
    code: { source: true, esm: true },
  });
  // Ajv's code requires its helper for string lengths; a published module may import only what its package maps, so
  // the helper's own code goes in its place.
  const code = standaloneCode.default(ajv, ajv.compile(JSON.parse(schemaText)))
    .replaceAll(ucs2length.default.code, `(${ucs2length.default})`);
  if (code.includes("require(")) throw new Error(`${VALIDATOR_FILE}: Ajv's code requires a module not inlined here`);
  return `// Generated by runners/dev/schema_json.ts from bench_result.schema.json: do not edit.
/* @ts-self-types="./validator.d.ts" */
// deno-lint-ignore-file
// deno-fmt-ignore-file
${code.replace(/^"use strict";/, "")}
`;
}

const HELP = `Usage: deno run -A runners/dev/schema_json.ts [flags]

  --check      write nothing; exit 1 when the schema or its validator is stale
  --debug      show stack traces
  --help, -h   this help`;

async function main(args: string[]): Promise<number> {
  const flags = strictFlags(args, { boolean: ["check"] });
  if (flags.help) {
    console.log(HELP);
    return 0;
  }
  const schema = await schemaJson();
  let stale = false;
  for (const [file, text] of [[SCHEMA_FILE, schema], [VALIDATOR_FILE, validatorJs(schema)]]) {
    const path = new URL(file, ROOT);
    if (await Deno.readTextFile(path).catch(() => "") === text) {
      console.log(`${file}: current`);
    } else if (flags.check) {
      console.log(`${file}: stale (run deno run -A runners/dev/schema_json.ts)`);
      stale = true;
    } else {
      await Deno.writeTextFile(path, text);
      console.log(`${file}: written`);
    }
  }
  return stale ? 1 : 0;
}

if (import.meta.main) {
  await runEntry("rtbench schema-json", Deno.args, namingFlags(() => main(Deno.args)), { spawns: false });
}
