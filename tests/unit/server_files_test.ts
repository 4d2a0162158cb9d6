// What a runtime is (its binary, how it runs a file, its servers' extension, how it serves on many CPUs) lives in its
// adapter only; a workload's server is found by one convention, `servers/<runtime>/<workload><ext>`.

import { assert, assertEquals } from "@std/assert";
import { builtinAdapters, serverFile } from "../../adapters/mod.ts";
import { builtinWorkloads, isSkip, type ServerSource, type Skip, type Workload } from "../../workloads/mod.ts";

const ROOT = new URL("../../", import.meta.url);

function sourceOf(workload: Workload, runtime: string, variant: string): ServerSource | Skip | null {
  if (workload.kind === "http" || workload.kind === "websocket") return workload.server(runtime, variant);
  if (workload.kind === "micro") return workload.script(runtime, variant);
  return null;
}

Deno.test("every workload × runtime it has a server for resolves to an existing file, by the adapter's convention", () => {
  const served: Record<string, string[]> = {};
  for (const workload of builtinWorkloads) {
    for (const variant of workload.variants) {
      for (const adapter of builtinAdapters) {
        const source = sourceOf(workload, adapter.name, variant.name);
        if (source === null || isSkip(source)) continue;
        const path = decodeURIComponent(source.entry.pathname);
        assert(Deno.statSync(path).isFile, `${workload.name}/${variant.name}/${adapter.name}: ${path} is missing`);
        const own = `${decodeURIComponent(ROOT.pathname)}servers/${adapter.name}/`;
        if (path.startsWith(own)) {
          // A runtime's own server has the runtime's extension, as its adapter says.
          assert(path.endsWith(adapter.serverExtension), `${path} does not end with ${adapter.serverExtension}`);
        }
        if (variant.name === workload.variants[0].name) (served[workload.name] ??= []).push(adapter.name);
      }
    }
  }
  // The runtimes each workload's default variant runs on, as before the convention (written out by hand).
  const all = ["deno", "node", "bun", "go", "rust"];
  const js = ["deno", "node", "bun"];
  assertEquals(served, {
    "http-json": all,
    "uuid-file": all,
    postgres: all,
    "rest-api": all,
    signup: js,
    bcrypt: js,
    ws: all,
    // The micro script is one JavaScript file for every runtime; its kind skips the runtimes that cannot run it.
    micro: all,
  });
});

Deno.test("serverFile: servers/<runtime>/<workload><ext>, undefined for a runtime without that file or unknown", () => {
  assertEquals(serverFile("deno", "ws_echo")?.href, new URL("servers/deno/ws_echo.ts", ROOT).href);
  assertEquals(serverFile("node", "ws_echo")?.href, new URL("servers/node/ws_echo.mjs", ROOT).href);
  assertEquals(serverFile("rust", "ws_echo")?.href, new URL("servers/rust/ws_echo.rs", ROOT).href);
  assertEquals(serverFile("go", "signup"), undefined);
  assertEquals(serverFile("quickjs", "ws_echo"), undefined);
  // Another runtime's adapter with its own extension finds its own folder.
  const node = builtinAdapters.find((a) => a.name === "node")!;
  assertEquals(serverFile("node", "ws_echo", [{ ...node, serverExtension: ".cjs" }]), undefined);
});

/**
 * What in a workload's code (comments left out) says what a runtime is: a path into a runtime's server folder, its
 * binary looked up, or an extension standing alone as a string, as a choice of extension is written.
 */
function runtimeKnowledge(source: string): string[] {
  const text = source.split("\n").filter((line) => !/^\s*(\/\/|\/\*\*|\*)/.test(line)).join("\n");
  const found: string[] = [];
  for (const adapter of builtinAdapters) {
    const name = adapter.name;
    if (text.includes(`servers/${name}/`)) found.push(`names servers/${name}/`);
    if (new RegExp(`which\\(\\s*["'\`]${name}["'\`]`).test(text)) found.push(`looks up the ${name} binary`);
    const ext = adapter.serverExtension.replace(/^\./, "").replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
    if (new RegExp(`["'\`]\\.?${ext}["'\`]`).test(text)) found.push(`names the extension ${adapter.serverExtension}`);
  }
  return [...new Set(found)];
}

Deno.test("no workload file names a runtime's server folder, extension or binary (a source scan)", async () => {
  const findings: string[] = [];
  let files = 0;
  for await (const entry of Deno.readDir(new URL("workloads/", ROOT))) {
    if (!entry.name.endsWith(".ts") || entry.name.endsWith("_test.ts")) continue;
    files++;
    const text = await Deno.readTextFile(new URL(`workloads/${entry.name}`, ROOT));
    for (const f of runtimeKnowledge(text)) findings.push(`workloads/${entry.name}: ${f}`);
  }
  assert(files > 10);
  assertEquals(findings, []);
  // The scan finds each kind of fault when planted (what workloads/_frameworks.ts and the tables held before).
  assertEquals(runtimeKnowledge('const ext = runtime === "node" ? "mjs" : "ts";'), [
    "names the extension .ts",
    "names the extension .mjs",
  ]);
  assertEquals(runtimeKnowledge('const s = { go: "../servers/go/ws_echo.go" };'), ["names servers/go/"]);
  assertEquals(runtimeKnowledge('const node = which("node");'), ["looks up the node binary"]);
});
