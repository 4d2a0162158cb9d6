// README walk: shows claims of docs/reference.md "Use rtbench from your own code" (exports, documentation, examples).
// The package as JSR sees it: every entry point's exported symbols are documented (description, parameters,
// return value, a titled example), the `ok` task lints and doc-tests every entry point, and the published file
// list holds what the CLI reads at run time and no tests.

import { assert, assertEquals } from "@std/assert";
import { builtinAdapters } from "../../adapters/mod.ts";
import { builtinWorkloads, isSkip, type ServerSource } from "../../workloads/mod.ts";
import { ROOT } from "../_helpers.ts";
import { allDocs, readDoc } from "../_docs.ts";
// Through the package's own exports map, as a downstream project imports them.
import file from "@rtbench/rtbench/schema.json" with { type: "json" };
import { benchResultSchema, parseResult } from "@rtbench/rtbench/schema";

const config = JSON.parse(await Deno.readTextFile(`${ROOT}deno.json`));
const ENTRY_POINTS: string[] = Object.values(config.exports as Record<string, string>)
  .filter((path) => path.endsWith(".ts"))
  .map((path) => path.replace(/^\.\//, ""));

interface JsDocTag {
  kind: string;
  name?: string;
  doc?: string;
}
interface JsDoc {
  doc?: string;
  tags?: JsDocTag[];
}
interface Param {
  kind: string;
  name?: string;
  left?: Param;
  arg?: Param;
}
interface FunctionDef {
  params: Param[];
  returnType?: TsType;
}
interface Declaration {
  kind: string;
  jsDoc?: JsDoc;
  location: { filename: string; line: number };
  def: {
    params?: Param[];
    returnType?: TsType;
    methods?: { name: string; jsDoc?: JsDoc; functionDef: FunctionDef; accessibility?: string }[];
    constructors?: { jsDoc?: JsDoc; params: Param[]; accessibility?: string }[];
  };
}
interface DocJson {
  nodes: Record<string, { module_doc?: JsDoc; symbols: { name: string; declarations: Declaration[] }[] }>;
}

async function run(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const out = await new Deno.Command(Deno.execPath(), { args, cwd: ROOT, stdout: "piped", stderr: "piped" }).output();
  const dec = new TextDecoder();
  return { code: out.code, stdout: dec.decode(out.stdout), stderr: dec.decode(out.stderr) };
}

function paramName(p: Param): string | undefined {
  if (p.kind === "identifier") return p.name;
  if (p.kind === "assign" && p.left) return paramName(p.left);
  if (p.kind === "rest" && p.arg) return paramName(p.arg);
  return undefined;
}

interface TsType {
  kind?: string;
  value?: unknown;
}

function isVoid(type: TsType): boolean {
  if (type.kind === "keyword") return type.value === "void" || type.value === "undefined";
  const ref = type.value as { typeName?: string; typeParams?: TsType[] } | undefined;
  return type.kind === "typeRef" && ref?.typeName === "Promise" && ref.typeParams?.length === 1 &&
    isVoid(ref.typeParams[0]);
}

/** What is missing from one function's (or method's) JSDoc. */
function functionProblems(jsDoc: JsDoc | undefined, params: Param[], returnType: TsType | undefined) {
  const problems: string[] = [];
  const tags = jsDoc?.tags ?? [];
  for (const p of params) {
    const name = paramName(p);
    if (name === undefined) continue;
    const tag = tags.find((t) => t.kind === "param" && t.name === name);
    if (!tag?.doc?.trim()) problems.push(`@param ${name} with a description`);
  }
  if (returnType !== undefined && !isVoid(returnType)) {
    const tag = tags.find((t) => t.kind === "return");
    if (!tag?.doc?.trim()) problems.push("@returns with a description");
  }
  return problems;
}

function exampleProblems(jsDoc: JsDoc | undefined): string[] {
  const examples = (jsDoc?.tags ?? []).filter((t) => t.kind === "example");
  if (examples.length === 0) return ["a titled @example"];
  const problems: string[] = [];
  for (const e of examples) {
    const doc = e.doc ?? "";
    // `@example Title` or a fence with title="..."; an untitled example is listed as "Example 1".
    const titled = !doc.trimStart().startsWith("```") || /^```\w*[^\n]*\btitle="[^"]+"/.test(doc.trimStart());
    if (!titled) problems.push("a title on every @example");
    if (!/```(ts|typescript)\b/.test(doc)) problems.push("a ```ts snippet in every @example");
  }
  // `deno test --doc` skips a fence marked ignore; every symbol needs one example it really runs.
  // docs/reference.md (Use rtbench from your own code): "every symbol also has one that runs".
  if (examples.every((e) => /```\w*[^\n]*\bignore\b/.test(e.doc ?? ""))) {
    problems.push("an @example that is not `ignore`");
  }
  return problems;
}

Deno.test("every exported symbol of every entry point has a description, @param, @returns and a titled example", async () => {
  const problems: string[] = [];
  let symbols = 0;
  for (const entry of ENTRY_POINTS) {
    // One entry point at a time: given several, deno doc lists a re-exported symbol as a bare reference.
    const out = await run(["doc", "--json", entry]);
    assertEquals(out.code, 0, out.stderr);
    const node = (JSON.parse(out.stdout) as DocJson).nodes[new URL(entry, `file://${ROOT}`).href];
    assert(node, `deno doc did not document ${entry}`);
    if (!node.module_doc?.doc?.trim()) problems.push(`${entry}: a @module doc`);
    for (const symbol of node.symbols) {
      symbols++;
      for (const d of symbol.declarations) {
        // A symbol exported twice through `export *` (the result types are in both `./schema` and `./workloads`)
        // gets a second declaration that only points at the first.
        if (d.kind === "reference") continue;
        const where = `${symbol.name} (${d.location.filename.replace(`file://${ROOT}`, "")}:${d.location.line})`;
        const missing: string[] = [];
        if (!d.jsDoc?.doc?.trim()) missing.push("a description");
        missing.push(...exampleProblems(d.jsDoc));
        if (d.kind === "function") missing.push(...functionProblems(d.jsDoc, d.def.params ?? [], d.def.returnType));
        if (d.kind === "class") {
          for (const c of d.def.constructors ?? []) {
            if (c.accessibility === "private") continue;
            missing.push(...functionProblems(c.jsDoc, c.params, undefined).map((p) => `constructor ${p}`));
          }
          for (const m of d.def.methods ?? []) {
            if (m.accessibility === "private" || m.name.startsWith("#")) continue;
            const own = [
              ...(!m.jsDoc?.doc?.trim() ? ["a description"] : []),
              ...functionProblems(m.jsDoc, m.functionDef.params, m.functionDef.returnType),
              ...exampleProblems(m.jsDoc),
            ];
            missing.push(...own.map((p) => `method ${m.name}: ${p}`));
          }
        }
        for (const m of new Set(missing)) problems.push(`${where}: ${m}`);
      }
    }
  }
  assert(symbols > 0);
  const unique = [...new Set(problems)];
  assertEquals(unique, [], `${unique.length} documentation problems:\n${unique.join("\n")}`);
});

Deno.test("the ok task lints the docs of every entry point and runs the examples", () => {
  const ok: string = config.tasks.ok;
  const lint = /deno doc --lint ([^&]+)/.exec(ok)?.[1].trim().split(/\s+/) ?? [];
  assertEquals(lint.toSorted(), ENTRY_POINTS.toSorted());
  assert(ok.includes("deno task test:doc"), "the ok task runs the doc tests");
  const docTest: string = config.tasks["test:doc"];
  const paths = docTest.split(/\s+/).filter((a) => !a.startsWith("-") && !["deno", "test"].includes(a));
  for (const entry of ENTRY_POINTS) {
    assert(paths.some((p) => entry === p || entry.startsWith(`${p}/`)), `test:doc covers ${entry}`);
  }
});

/** Files `deno publish` would upload, relative to the root. */
async function publishedFiles(): Promise<string[]> {
  const out = await run(["publish", "--dry-run", "--allow-dirty"]);
  const text = out.stdout + out.stderr;
  assertEquals(out.code, 0, text);
  // deno publish colours its output; file names are the lines that hold a file URL.
  // deno-lint-ignore no-control-regex
  const plain = text.replace(/\x1b\[[0-9;]*m/g, "");
  assert(!/\berror\[/.test(plain), plain);
  return [...plain.matchAll(/file:\/\/(\S+) \(/g)].map((m) => m[1].replace(ROOT, ""));
}

Deno.test("the published package holds every file the CLI reads at run time, and no tests", async () => {
  const files = await publishedFiles();
  assert(files.includes("runners/schema/bench_result.schema.json"));
  assertEquals(files.filter((f) => f.startsWith("tests/") || f.endsWith("_test.ts") || f.startsWith(".")), []);

  // Servers and scripts the built-in workloads start, for every runtime and variant.
  const needed = new Set<string>();
  const add = (source: ServerSource | { skip: string }) => {
    if (!isSkip(source) && source.entry.protocol === "file:") needed.add(source.entry.pathname.replace(ROOT, ""));
  };
  for (const w of builtinWorkloads) {
    for (const v of w.variants) {
      for (const a of builtinAdapters) {
        if (w.kind === "http" || w.kind === "websocket") add(w.server(a.name, v.name));
        if (w.kind === "micro") add(w.script(a.name, v.name));
      }
    }
  }
  assert(needed.size >= 15, `found only ${needed.size} server files`);
  // Every other file a published module locates next to itself (child scripts, fixtures, deno.json).
  for (const file of files.filter((f) => f.endsWith(".ts"))) {
    const text = await Deno.readTextFile(`${ROOT}${file}`);
    const code = text.split("\n").filter((line) => !/^\s*(\*|\/\/|\/\*)/.test(line)).join("\n");
    for (const m of code.matchAll(/new URL\("([^"]+)", import\.meta\.url\)/g)) {
      const target = new URL(m[1], `file://${ROOT}${file}`).pathname.replace(ROOT, "");
      if (target.endsWith("/")) {
        assert(files.some((f) => f.startsWith(target)), `${file} reads ${target}, which is not published`);
      } else if (target !== "") {
        needed.add(target);
      }
    }
  }
  const missing = [...needed].filter((f) => !files.includes(f));
  assertEquals(missing, [], "files the CLI needs but the package leaves out");
});

Deno.test("the JSON Schema is exported as a file and as an object, and they are the same document", async () => {
  assertEquals(file, benchResultSchema);
  assertEquals(file.$schema, "http://json-schema.org/draft-07/schema#");
  // The typed parser accepts a stored result and names the first bad field of a broken one.
  const text = await Deno.readTextFile(`${ROOT}fixtures/results/base.json`);
  assertEquals(parseResult(text).records.length, 3);
  const broken = JSON.parse(text);
  delete broken.records[2].runtime.engine;
  let message = "";
  try {
    parseResult(broken);
  } catch (error) {
    message = (error as Error).message;
  }
  assertEquals(message, "Invalid result at /records/2/runtime/engine: is required");
});

// docs/guide.md (Reports and comparisons; At a glance, across versions, over time) and docs/reference.md (The result
// file): "From code: `exportResult()`, … are exported from `mod.ts`", and "exported from `mod.ts` as
// `benchResultSchema` with `validateResult()` and `parseResult()`".
Deno.test("every function the docs say mod.ts exports is exported from mod.ts", async () => {
  const readme = allDocs();
  const mod: Record<string, unknown> = await import(`${ROOT}mod.ts`);
  const claims = [...readme.matchAll(/From code: ([^.]*?) (?:is|are) exported from `mod\.ts`/g)].map((m) => m[1]);
  assert(claims.length >= 2, "the docs' From code sentences");
  const names = claims.flatMap((c) => [...c.matchAll(/`(\w+)\(\)`/g)].map((m) => m[1]));
  names.push("benchResultSchema", "validateResult", "parseResult");
  assert(names.length > 10, names.join(" "));
  for (const name of names) assert(name in mod, `mod.ts exports ${name}`);
});

// docs/reference.md (Use rtbench from your own code): each import of the table holds the functions its row names.
Deno.test("every function the import table of docs/reference.md names is exported by that entry point", async () => {
  const readme = readDoc("docs/reference.md");
  const exportsMap: Record<string, string> = JSON.parse(await Deno.readTextFile(`${ROOT}deno.json`)).exports;
  let checked = 0;
  for (const m of readme.matchAll(/^\| `@rtbench\/rtbench(\/\w+)?` +\| (.*) \|$/gm)) {
    const file = exportsMap[m[1] ? `.${m[1]}` : "."];
    if (!file.endsWith(".ts") || m[1] === "/cli") continue;
    const mod: Record<string, unknown> = await import(`${ROOT}${file.slice(2)}`);
    for (const [, name] of m[2].matchAll(/`(\w+)\(\)`/g)) {
      assert(name in mod, `@rtbench/rtbench${m[1] ?? ""} exports ${name}`);
      checked++;
    }
  }
  assert(checked >= 12, `${checked} names checked`);
});
