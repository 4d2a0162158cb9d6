/**
 * Writes the JSON Schema of a result file (`runners/schema/bench_result.schema.json`, the package's `./schema.json`)
 * from its TypeScript types (`BenchResult` of `runners/schema/result.ts` and the types it uses), so that the two
 * never disagree: each description is the type's or the field's JSDoc, each constraint a JSDoc tag the generator
 * reads (`@minimum`, `@exclusiveMinimum`, `@maximum`, `@minLength`, `@minItems`, `@maxItems`, `@pattern`, `@format`,
 * and `@asType integer` for a whole number). Edit the types, then run
 *
 * ```sh
 * deno run -A runners/dev/schema_json.ts          # writes the schema
 * deno run -A runners/dev/schema_json.ts --check  # exit 1 when the committed schema is stale
 * ```
 *
 * `tests/unit/schema_json_test.ts` fails while the committed file differs from what this writes. A development tool:
 * not published, not among the user's tasks.
 *
 * @module
 */

import { createGenerator } from "ts-json-schema-generator";
import { makeTempDir, removeTemp, runEntry } from "../platform/mod.ts";
import { namingFlags, strictFlags } from "../cli/mod.ts";

const ROOT = new URL("../../", import.meta.url);

/** The schema file, from the repository's root. */
export const SCHEMA_FILE = "runners/schema/bench_result.schema.json";

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

const HELP = `Usage: deno run -A runners/dev/schema_json.ts [flags]

  --check      write nothing; exit 1 when the schema is stale
  --debug      show stack traces
  --help, -h   this help`;

async function main(args: string[]): Promise<number> {
  const flags = strictFlags(args, { boolean: ["check"] });
  if (flags.help) {
    console.log(HELP);
    return 0;
  }
  const path = new URL(SCHEMA_FILE, ROOT);
  const text = await schemaJson();
  if (await Deno.readTextFile(path).catch(() => "") === text) {
    console.log(`${SCHEMA_FILE}: current`);
    return 0;
  }
  if (flags.check) {
    console.log(`${SCHEMA_FILE}: stale (run deno run -A runners/dev/schema_json.ts)`);
    return 1;
  }
  await Deno.writeTextFile(path, text);
  console.log(`${SCHEMA_FILE}: written`);
  return 0;
}

if (import.meta.main) {
  await runEntry("rtbench schema-json", Deno.args, namingFlags(() => main(Deno.args)), { spawns: false });
}
