import { assertEquals } from "@std/assert";
import { exists, withTmp } from "../../tests/_helpers.ts";
import { removeTree } from "./remove_tree.ts";

Deno.test("removeTree removes a tree deeper than its split, files at every level, and only the links of links", () =>
  withTmp(async (root) => {
    const outside = `${root}/outside`;
    await Deno.mkdir(outside);
    await Deno.writeTextFile(`${outside}/kept`, "kept");
    const tree = `${root}/tree`;
    // Six levels (the split lists three), two directories and a file at each, 127 directories in all.
    const make = async (dir: string, depth: number): Promise<void> => {
      await Deno.mkdir(dir, { recursive: true });
      await Deno.writeTextFile(`${dir}/file`, "x");
      if (depth > 0) { for (const name of ["a", "b"]) await make(`${dir}/${name}`, depth - 1); }
    };
    await make(tree, 6);
    // Links to a directory outside, at the first level and below the split: each goes, what it points to stays.
    await Deno.symlink(outside, `${tree}/link`);
    await Deno.symlink(outside, `${tree}/a/b/a/b/link`);
    await Deno.symlink(`${root}/nowhere`, `${tree}/a/dangling`);
    await removeTree(tree);
    assertEquals(await exists(tree), false);
    assertEquals(await Deno.readTextFile(`${outside}/kept`), "kept");
  }));

Deno.test("removeTree removes a file, a link to a directory (not the directory), and takes a missing path", () =>
  withTmp(async (root) => {
    await Deno.writeTextFile(`${root}/file`, "x");
    await removeTree(`${root}/file`);
    assertEquals(await exists(`${root}/file`), false);
    // Deeper than the split: listed through the link, its deepest directories would go.
    await Deno.mkdir(`${root}/dir/a/b/c/d`, { recursive: true });
    await Deno.symlink(`${root}/dir`, `${root}/link`);
    await removeTree(`${root}/link`);
    assertEquals([await exists(`${root}/link`), await exists(`${root}/dir/a/b/c/d`)], [false, true]);
    await removeTree(`${root}/missing`);
  }));
