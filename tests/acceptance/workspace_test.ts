// Server dependencies are installed once per set into the cache; an install that was interrupted leaves a directory
// without its completion mark, which the next install replaces, removing the stale tree without following its links.
import { assert, assertEquals } from "@std/assert";
import { installDependencies } from "../../runners/platform/workspace.ts";
import { BCRYPTJS_VERSION } from "../../workloads/bcrypt.ts";
import { needs, NETWORK } from "../_needs.ts";
import { exists, withTmp } from "../_helpers.ts";

Deno.test(needs(NETWORK, {
  name: "an interrupted install's directory is replaced by a complete one; a link in it is removed, not followed",
  async fn() {
    await withTmp(async (tmp) => {
      const cache = `${tmp}/cache`;
      const deps = { bcryptjs: BCRYPTJS_VERSION };
      const first = await installDependencies(deps, cache);
      const dir = first.slice(0, -"/node_modules".length);
      // What an install cut off after npm began leaves: a node_modules without the mark, deep, with a link outside.
      await Deno.remove(dir, { recursive: true });
      const stale = `${dir}/node_modules/stale/a/b/c/d`;
      await Deno.mkdir(stale, { recursive: true });
      await Deno.writeTextFile(`${stale}/left.js`, "");
      await Deno.mkdir(`${tmp}/outside/kept`, { recursive: true });
      await Deno.writeTextFile(`${tmp}/outside/kept/file`, "kept");
      await Deno.symlink(`${tmp}/outside`, `${dir}/node_modules/stale/a/b/link`);

      assertEquals(await installDependencies(deps, cache), first, "the same set, the same directory");
      await Deno.stat(`${first}/.rtbench-complete`);
      await Deno.stat(`${first}/bcryptjs/package.json`);
      assert(!(await exists(`${first}/stale`)), "the stale tree is gone");
      assertEquals(await Deno.readTextFile(`${tmp}/outside/kept/file`), "kept", "the link's target is untouched");
      assertEquals(
        [...Deno.readDirSync(`${cache}/deps`)].map((e) => e.name),
        [dir.split("/").at(-1)],
        "no staging left",
      );
    });
  },
}));
