// The test tiers, read from where a test file is, never from a list: a `*_test.ts` beside the code it tests (anywhere
// outside tests/) or in tests/unit/ is a unit test; tests/e2e/ holds the end-to-end tests (real servers, runtimes,
// the load engine, the CLI); tests/acceptance/ the slow ones that need an optional tool, a toolchain or the network.
// The files of those two run several at a time (tests/_run.ts, `jobsOf`), but for a file whose header holds a line `// Runs alone: <why>`: its
// assertions depend on the machine's CPUs being its own (a measured figure, a deadline), so it runs after them, alone.
import { ROOT } from "./_helpers.ts";

/** A test tier. */
export type Tier = "unit" | "e2e" | "acceptance";

/** The tiers in the order `deno task test` runs them. */
export const TIERS: readonly Tier[] = ["unit", "e2e", "acceptance"];

/** The tier of a test file (a path from the repository's root), or null where it sits in no tier's place. */
export function tierOf(file: string): Tier | null {
  if (!file.startsWith("tests/")) return "unit";
  const folder = file.split("/")[1];
  return (TIERS as readonly string[]).includes(folder) && file.split("/").length > 2 ? folder as Tier : null;
}

/** Every test file of the repository, from its root, sorted. */
export async function testFiles(root: string = ROOT): Promise<string[]> {
  const files: string[] = [];
  const walk = async (dir: string) => {
    for await (const e of Deno.readDir(`${root}${dir}`)) {
      if (e.isDirectory && !["node_modules", ".git", "fixtures", "servers", "docs"].includes(e.name)) {
        await walk(`${dir}${e.name}/`);
      } else if (e.isFile && e.name.endsWith("_test.ts")) files.push(`${dir}${e.name}`);
    }
  };
  await walk("");
  return files.sort();
}

/** The test files of `tier`. */
export async function filesOf(tier: Tier, root: string = ROOT): Promise<string[]> {
  return (await testFiles(root)).filter((f) => tierOf(f) === tier);
}

/** The marker line of a test file that runs alone, and why. */
const ALONE = /^\/\/ Runs alone: \S/m;

/** Whether the test file `file` (absolute, or from `root`) runs alone: its text holds the line `// Runs alone: <why>`. */
export async function runsAlone(file: string, root: string = ROOT): Promise<boolean> {
  return ALONE.test(await Deno.readTextFile(file.startsWith("/") ? file : `${root}${file}`));
}
