// The import rules of rtbench's layers, and a checker that reads the real module graph (`deno info --json`,
// type-only imports included) of every source file under a root. tests/e2e/layering_test.ts runs it on the
// repository and on planted faults.

/** Folder → the folders its files may import, besides their own. A folder not listed takes its parent's rules. */
export const LAYERS: Readonly<Record<string, readonly string[]>> = (() => {
  const base = ["runners/base"];
  const platform = [...base, "runners/platform"];
  const schema = [...platform, "runners/schema"];
  const stats = [...schema, "runners/stats"];
  const samples = [...stats, "runners/samples"];
  const domain = [...samples, "adapters", "workloads", "fixtures"];
  const engine = [...domain, "runners/engine"];
  const drivers = [...engine, "runners/drivers"];
  const kinds = [...drivers, "runners/kinds"];
  const measuring = [...kinds, "runners/report"];
  const composed = [...measuring, "runners/suite", "runners/selfcheck"];
  const everything = [...composed, "runners/cli"];
  return {
    // What every layer shares and that needs nothing of the machine: usage errors, CPU lists, plain shapes.
    "runners/base": [],
    "runners/platform": base,
    "runners/schema": platform,
    "runners/stats": schema,
    // What measuring makes of raw samples (latency histograms, counted rates, resource samples); reading results
    // needs none of it.
    "runners/samples": stats,
    "adapters": stats,
    "fixtures": samples,
    // Workloads build on adapters' types and read fixtures' data.
    "workloads": [...samples, "adapters", "fixtures"],
    // The load engine: a job in, counts out; its program runs on Bun, on this machine or a load machine.
    "runners/engine": domain,
    "runners/drivers": engine,
    "runners/kinds": drivers,
    // A report shows each kind's records as the kind's own module says.
    "runners/report": kinds,
    "runners/suite": measuring,
    "runners/selfcheck": measuring,
    "runners/cli": composed,
    "runners": everything,
    // Tools that measure rtbench itself: at the top, they may use anything; nothing imports them.
    "runners/dev": [...everything, "runners"],
    ".": [...everything, "runners"],
  };
})();

/** Files that are not part of the layered code: tests, the servers under test (separate programs), generated output. */
const OUTSIDE = [/^tests\//, /^servers\//, /_test\.ts$/, /^results\//, /^node_modules\//];

/**
 * Programs of their own, whose files import exactly the files they run with: a program under test kept among the
 * fixtures, and the child programs rtbench starts (the load engine's files, which are copied to other machines as
 * they are, and the `_*_child.ts` drivers), which load no more than they need.
 */
const PROGRAMS = /^fixtures\/startup\/|^runners\/engine\/(?!mod\.ts)|^runners\/(drivers|platform)\/_\w+_child\.ts$/;

/** The layer a folder belongs to: the longest key of {@linkcode LAYERS} that contains it. */
export function layerOf(folder: string): string | null {
  let best: string | null = null;
  for (const key of Object.keys(LAYERS)) {
    const inside = key === "."
      ? !folder.includes("/") && folder === "."
      : folder === key || folder.startsWith(`${key}/`);
    if (inside && (best === null || key.length > best.length)) best = key;
  }
  return best;
}

function dirOf(path: string): string {
  const slash = path.lastIndexOf("/");
  return slash === -1 ? "." : path.slice(0, slash);
}

/** Every source file under `root` (relative paths), tests and servers left out. */
export async function sourceFiles(root: string): Promise<string[]> {
  const files: string[] = [];
  const walk = async (dir: string) => {
    for await (const entry of Deno.readDir(`${root}/${dir}`)) {
      const path = dir === "." ? entry.name : `${dir}/${entry.name}`;
      if (entry.name.startsWith(".")) continue;
      if (entry.isDirectory) await walk(path);
      else if (/\.(ts|mts|mjs|js)$/.test(path) && !OUTSIDE.some((re) => re.test(path))) files.push(path);
    }
  };
  await walk(".");
  return files.sort();
}

/** Every import between files under `root` (code and type imports), as relative paths. */
export async function importGraph(root: string): Promise<Map<string, string[]>> {
  const files = await sourceFiles(root);
  const entry = await Deno.makeTempFile({ suffix: ".ts" });
  try {
    const base = new URL(`file://${Deno.realPathSync(root)}/`);
    await Deno.writeTextFile(entry, files.map((f) => `import "${new URL(f, base).href}";`).join("\n") + "\n");
    const config = `${root}/deno.json`;
    const args = ["info", "--json", ...(await exists(config) ? ["--config", config] : ["--no-config"]), entry];
    const out = await new Deno.Command(Deno.execPath(), { args, stdout: "piped", stderr: "piped" }).output();
    if (!out.success) throw new Error(`deno info failed: ${new TextDecoder().decode(out.stderr)}`);
    const info = JSON.parse(new TextDecoder().decode(out.stdout)) as {
      modules: { specifier: string; dependencies?: { code?: { specifier: string }; type?: { specifier: string } }[] }[];
    };
    const graph = new Map<string, string[]>();
    const local = (specifier: string) => specifier.startsWith(base.href) ? specifier.slice(base.href.length) : null;
    for (const m of info.modules) {
      const from = local(m.specifier);
      if (from === null || !files.includes(from)) continue;
      const to = (m.dependencies ?? []).flatMap((d) => [d.code?.specifier, d.type?.specifier])
        .flatMap((s) => (s ? [local(s)] : [])).filter((s): s is string => s !== null && s !== from);
      graph.set(from, [...new Set(to)]);
    }
    return graph;
  } finally {
    await Deno.remove(entry);
  }
}

async function exists(path: string): Promise<boolean> {
  return await Deno.stat(path).then(() => true, () => false);
}

/**
 * What breaks the rules in `graph`: an import that points up (or sideways) a layer, a private `_file` used from
 * outside its folder, a file of another folder reached other than through that folder's `mod.ts` (its surface), a
 * cycle. `deno.json` (configuration every layer may read) is not code.
 */
export function violations(graph: ReadonlyMap<string, readonly string[]>): string[] {
  const found: string[] = [];
  for (const [from, targets] of graph) {
    const fromLayer = layerOf(dirOf(from));
    for (const to of targets) {
      if (to === "deno.json") continue;
      const toDir = dirOf(to);
      const name = to.slice(to.lastIndexOf("/") + 1);
      if (name.startsWith("_") && toDir !== dirOf(from)) found.push(`private: ${from} imports ${to}`);
      else if (toDir !== dirOf(from) && name !== "mod.ts" && !PROGRAMS.test(from)) {
        found.push(`surface: ${from} imports ${to} (import ${toDir}/mod.ts)`);
      }
      const toLayer = layerOf(toDir);
      if (fromLayer === null || toLayer === null) {
        found.push(`unlisted: ${from} imports ${to} (add the folder to LAYERS)`);
      } else if (toLayer !== fromLayer && !LAYERS[fromLayer].includes(toLayer)) {
        found.push(`upward: ${from} (${fromLayer}) imports ${to} (${toLayer})`);
      }
    }
  }
  // Cycles: depth-first search, reporting each cycle once by its path.
  const state = new Map<string, "open" | "done">();
  const stack: string[] = [];
  const visit = (file: string) => {
    state.set(file, "open");
    stack.push(file);
    for (const next of graph.get(file) ?? []) {
      if (state.get(next) === "open") found.push(`cycle: ${[...stack.slice(stack.indexOf(next)), next].join(" → ")}`);
      else if (!state.has(next) && graph.has(next)) visit(next);
    }
    stack.pop();
    state.set(file, "done");
  };
  for (const file of [...graph.keys()].sort()) if (!state.has(file)) visit(file);
  return found;
}

/** A function declared in `text` (top level or a method) that is longer than `max` lines: `name (n lines)`. */
export function longFunctions(text: string, max: number): string[] {
  const lines = text.split("\n");
  const opens =
    /^(\s*)(?:export\s+)?(?:async\s+)?(?:function\*?\s+(\w+)|(?:const|let)\s+(\w+)\s*=\s*(?:async\s*)?\(.*=>\s*\{$|(?:(?:static|private|public|readonly|get|set|async)\s+)*#?(\w+)\s*\(.*\)\s*(?::\s*[^{]*)?\{$)/;
  const found: string[] = [];
  lines.forEach((line, i) => {
    const m = opens.exec(line);
    if (!m || /^\s*(if|for|while|switch|catch|return|else)\b/.test(line)) return;
    const indent = m[1];
    const end = lines.findIndex((l, j) => j > i && l.startsWith(`${indent}}`) && !l.startsWith(`${indent} `));
    const length = (end === -1 ? lines.length : end) - i + 1;
    if (length > max) found.push(`${m[2] ?? m[3] ?? m[4]} (${length} lines)`);
  });
  return found;
}
