// Staging a server's files: its assets at their paths relative to it, the files `beside` it next to it, and nothing
// written outside the staging folder.
import { assertEquals, assertRejects, assertThrows } from "@std/assert";
import { withTmp } from "../../tests/_helpers.ts";
import { stagedPaths, stageServer } from "./workspace.ts";

const entry = new URL("file:///project/bench/servers/app/main.mjs");

Deno.test("assets keep their paths relative to the entry, under the deepest folder holding them all", () => {
  const at = (...paths: string[]) => stagedPaths(entry, paths.map((p) => new URL(p, entry)));
  assertEquals(at(), ["main.mjs"]);
  assertEquals(at("./routes.mjs", "./lib/db.mjs"), ["main.mjs", "routes.mjs", "lib/db.mjs"]);
  assertEquals(at("../routes.mjs"), ["app/main.mjs", "routes.mjs"]);
  assertEquals(at("../../shared/a%20b.mjs", "../x.json"), ["servers/app/main.mjs", "shared/a b.mjs", "servers/x.json"]);
});

Deno.test("an asset of another origin, a folder, or a path that would leave the staging folder is refused", () => {
  assertThrows(
    () => stagedPaths(entry, [new URL("https://example.com/routes.mjs")]),
    Error,
    "Cannot stage https://example.com/routes.mjs: an asset must be where the server's entry is",
  );
  assertThrows(() => stagedPaths(entry, [new URL("../lib/", entry)]), Error, "it names a folder, not a file");
  // Encoded separators, a NUL, a malformed escape.
  for (const escape of ["..%2F..%2Fetc%2Fpasswd", "..%5Cx.mjs", "a%00b.mjs", "%E0%A4%A.mjs"]) {
    assertThrows(
      () => stagedPaths(entry, [new URL(escape, entry)]),
      Error,
      "its path would leave the server's staging folder",
      escape,
    );
  }
});

Deno.test("a server is staged with its assets where its imports find them, and a data layer beside it", () =>
  withTmp(async (tmp) => {
    const [source, dir] = [`${tmp}/source`, `${tmp}/staged`];
    await Deno.mkdir(`${source}/app/server`, { recursive: true });
    await Deno.mkdir(`${source}/layers/pg`, { recursive: true });
    const files = { "app/server/main.mjs": "main", "app/routes.mjs": "routes", "layers/pg/db.mjs": "db" };
    for (const [path, text] of Object.entries(files)) await Deno.writeTextFile(`${source}/${path}`, text);
    const main = new URL(`file://${source}/app/server/main.mjs`);
    const staged = await stageServer(main, dir, undefined, {
      assets: [new URL("../routes.mjs", main)],
      beside: [new URL("../../layers/pg/db.mjs", main)],
    });
    assertEquals(staged, `${dir}/server/main.mjs`);
    const read = (path: string) => Deno.readTextFile(`${dir}/${path}`);
    assertEquals(await Promise.all(["server/main.mjs", "routes.mjs", "server/db.mjs"].map(read)), [
      "main",
      "routes",
      "db",
    ]);
    await assertRejects(
      () => stageServer(main, dir, undefined, { assets: [new URL("../%2E%2E%2Fx.mjs", main)] }),
      Error,
      "its path would leave the server's staging folder",
    );
  }));
