/**
 * `deno run -A runners/dev/kinds.ts`: writes the layers below the kinds their view of the kind registry
 * (`runners/kinds/registry.ts`): the kinds' names and what their workloads must have (`runners/schema/kinds.ts`, which
 * validation and the result types read), the JSON Schema's enum of kinds and the schema's validator. Run it after
 * adding a kind to the registry; `tests/e2e/kinds_test.ts` fails while they disagree.
 *
 * Exit codes: 0 written (or `--check`: already current); 1 `--check` and a file is stale; 2 bad input.
 *
 * @module
 */

import { registeredKinds } from "../kinds/mod.ts";
import { runEntry } from "../platform/mod.ts";
import { namingFlags, strictFlags } from "../cli/mod.ts";
import { VALIDATOR_FILE, validatorJs } from "./schema_json.ts";

const ROOT = new URL("../../", import.meta.url);

/** The files it writes, relative to the repository's root. */
export const KIND_FILES = {
  list: "runners/schema/kinds.ts",
  schema: "runners/schema/bench_result.schema.json",
  validator: VALIDATOR_FILE,
} as const;

/**
 * The kinds' names in the order the schema lists them: the names it lists already keep their places (reports and
 * result files do not reorder), a kind added to the registry comes after them.
 */
function orderedKinds(listed: readonly string[]): { readonly name: string; readonly requires: readonly string[] }[] {
  const kinds = registeredKinds();
  const place = (name: string) => listed.includes(name) ? listed.indexOf(name) : listed.length;
  return kinds.map((k, i) => ({ k, i })).sort((a, b) => place(a.k.name) - place(b.k.name) || a.i - b.i)
    .map(({ k }) => k);
}

/** The text of `runners/schema/kinds.ts` for `kinds`. */
function listText(kinds: readonly { readonly name: string; readonly requires: readonly string[] }[]): string {
  const names = kinds.map((k) => JSON.stringify(k.name)).join(", ");
  const requires = kinds.map((k) =>
    `  ${k.name.includes("-") ? JSON.stringify(k.name) : k.name}: [${
      k.requires.map((r) => JSON.stringify(r)).join(", ")
    }],`
  );
  return `// Written by \`deno run -A runners/dev/kinds.ts\` from the kind registry (runners/kinds/registry.ts): edit the registry, not this
// file. The layers below the kinds read the kinds from here; tests/e2e/kinds_test.ts fails while it is stale.

/**
 * Every workload kind: the kind registry's names, each kind after those registered before it.
 *
 * @example The built-in kinds
 * \`\`\`ts
 * import { assertEquals } from "@std/assert";
 * import { WORKLOAD_KINDS } from "@rtbench/rtbench/schema";
 *
 * assertEquals(WORKLOAD_KINDS.slice(0, 4), ["http", "websocket", "process", "micro"]);
 * \`\`\`
 */
export const WORKLOAD_KINDS = [${names}] as const;

/**
 * What a workload of each kind must have beyond the common fields, as its kind's module says: functions by name
 * (\`headline\` is the one object, a figure's name and its direction).
 *
 * @example What an HTTP workload must have
 * \`\`\`ts
 * import { assertEquals } from "@std/assert";
 * import { KIND_REQUIREMENTS } from "@rtbench/rtbench/schema";
 *
 * assertEquals(KIND_REQUIREMENTS.http, ["server", "traffic"]);
 * \`\`\`
 */
export const KIND_REQUIREMENTS: Readonly<Record<(typeof WORKLOAD_KINDS)[number], readonly string[]>> = {
${requires.join("\n")}
};
`;
}

/** The JSON Schema's text with its enum of kinds set to `names`, the rest of the file as it is. */
function schemaText(text: string, names: readonly string[]): string {
  const enumOfKinds = /("kind": \{\n(?:\s*"type": "string",\n)?(\s*)"enum": \[\n)[^\]]*?\n(\s*)\]/;
  const match = enumOfKinds.exec(text);
  if (!match) throw new Error(`${KIND_FILES.schema}: no enum of kinds found`);
  const indent = `${match[2]}  `;
  return text.replace(enumOfKinds, `$1${names.map((n) => `${indent}${JSON.stringify(n)}`).join(",\n")}\n$3]`);
}

/**
 * What the files should hold for the registry as it is, by path; `root` is the repository's root.
 *
 * @example The files are current
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { kindFiles } from "./kinds.ts";
 *
 * for (const [path, text] of await kindFiles()) assertEquals(await Deno.readTextFile(path), text);
 * ```
 */
export async function kindFiles(root: URL = ROOT): Promise<Map<string, string>> {
  const schema = await Deno.readTextFile(new URL(KIND_FILES.schema, root));
  const listed = JSON.parse(schema).definitions.record.properties.kind.enum as string[];
  const kinds = orderedKinds(listed);
  const written = schemaText(schema, kinds.map((k) => k.name));
  return new Map([
    [KIND_FILES.list, listText(kinds)],
    [KIND_FILES.schema, written],
    [KIND_FILES.validator, validatorJs(written)],
  ]);
}

const HELP = `Usage: deno run -A runners/dev/kinds.ts [flags]

  --check      write nothing; exit 1 when a file is stale
  --debug      show stack traces
  --help, -h   this help`;

async function main(args: string[]): Promise<number> {
  const flags = strictFlags(args, { boolean: ["check"] });
  if (flags.help) {
    console.log(HELP);
    return 0;
  }
  const stale: string[] = [];
  for (const [path, text] of await kindFiles()) {
    const url = new URL(path, ROOT);
    if (await Deno.readTextFile(url).catch(() => "") === text) continue;
    stale.push(path);
    if (!flags.check) await Deno.writeTextFile(url, text);
  }
  console.log(stale.length === 0 ? "kinds: current" : `kinds: ${flags.check ? "stale" : "wrote"} ${stale.join(", ")}`);
  return flags.check && stale.length > 0 ? 1 : 0;
}

if (import.meta.main) await runEntry("rtbench kinds", Deno.args, namingFlags(() => main(Deno.args)), { spawns: false });
