/**
 * `startup`: how long a runtime takes from spawn to exit, hyperfine-style.
 * `hello` evaluates one line that prints `ready`; `script` runs a small
 * TypeScript program with a few local imports from `fixtures/startup/`.
 *
 * @module
 */

import type { ProcessCommand, ProcessContext, ProcessTarget, ProcessWorkload, Skip } from "./types.ts";

/** What the `hello` variant prints. */
export const HELLO_OUTPUT = "ready\n";
/** What the `script` variant prints: `ready` and a checksum of what its imports computed. */
export const SCRIPT_OUTPUT = "ready ee72873f\n";

const HELLO_CODE = 'console.log("ready")';
const SCRIPT_FILES = ["main.ts", "lib/checksum.ts", "lib/config.ts", "lib/greeting.ts"];
const FIXTURES = new URL("../fixtures/startup/", import.meta.url);

async function fetchText(url: URL): Promise<string> {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`Cannot read ${url.href}: HTTP ${response.status}`);
  return await response.text();
}

/**
 * Copies the script fixture into `dir`: as TypeScript, or, for a runtime that
 * cannot run TypeScript, as the same files with their types stripped (by
 * amaro, the library Node.js itself strips types with) and `.ts` imports
 * pointed at `.js`. Returns the entry file.
 */
async function stageScript(dir: string, javascript: boolean): Promise<string> {
  // Loaded here, not with the module: amaro's compiler costs every process that loads the workloads about 50 ms.
  const { transformSync } = await import("amaro");
  for (const name of SCRIPT_FILES) {
    let code = await fetchText(new URL(name, FIXTURES));
    let target = name;
    if (javascript) {
      code = transformSync(code, { mode: "strip-only" }).code.replace(/(from\s+["'][^"']+)\.ts(["'])/g, "$1.js$2");
      target = name.replace(/\.ts$/, ".js");
    }
    const path = `${dir}/${target}`;
    await Deno.mkdir(path.slice(0, path.lastIndexOf("/")), { recursive: true });
    await Deno.writeTextFile(path, code);
  }
  await Deno.writeTextFile(`${dir}/package.json`, JSON.stringify({ private: true, type: "module" }) + "\n");
  return `${dir}/${javascript ? "main.js" : "main.ts"}`;
}

const TYPESCRIPT_FACT = {
  native: "native",
  "strip-types-flag": "--experimental-strip-types",
  none: "pre-stripped: plain JavaScript, types stripped by amaro before the runs (not timed)",
} as const;

async function command(ctx: ProcessContext): Promise<[ProcessCommand, Record<string, string>]> {
  const { adapter, binary } = ctx.runtime;
  // No update check or telemetry inside a timed run; what was set is recorded.
  const quiet = adapter.quietEnv ?? {};
  const env = { NO_COLOR: "1", ...quiet };
  const quietFact = {
    quietEnv: Object.entries(quiet).map(([k, v]) => `${k}=${v}`).join(" ") || "none (nothing to turn off)",
  };
  if (ctx.variant === "hello") {
    return [{ argv: adapter.evalCommand(binary, HELLO_CODE), cwd: ctx.workDir, env }, quietFact];
  }
  const dir = `${ctx.workDir}/script`;
  const ts = adapter.typeScriptCommand
    ? await adapter.typeScriptCommand(binary, `${dir}/main.ts`)
    : { mode: "native" as const, argv: adapter.command(binary, `${dir}/main.ts`) };
  const entry = await stageScript(dir, ts.argv === null);
  const argv = ts.argv ?? adapter.command(binary, entry);
  return [{ argv, cwd: dir, env }, { ...quietFact, typeScript: TYPESCRIPT_FACT[ts.mode] }];
}

/**
 * The startup workload: warm-up runs (`--warmup-runs`, default 3), then at
 * least `--runs` (default 10) measured runs and at least `--duration`
 * (default 3 s) of measured time. Every run must exit 0 and print exactly
 * the expected line.
 *
 * @example Read the variants
 * ```ts
 * import { startup } from "./startup.ts";
 * console.log(startup.variants.map((v) => v.name)); // ["hello", "script"]
 * ```
 */
export const startup: ProcessWorkload = {
  name: "startup",
  description: "a whole process from spawn to exit: print ready, or run a small TypeScript program",
  kind: "process",
  variants: [
    { name: "hello", description: 'evaluate console.log("ready") (node -e, bun -e, deno eval)' },
    { name: "script", description: "run a TypeScript entry file with three local imports (fixtures/startup)" },
  ],
  defaults: { runs: 10, durationSec: 1, warmupSec: 0 },
  options: [{
    name: "warmup-runs",
    description: "runs before measuring, checked but not timed (startup: 3, fs: 0)",
    type: "number",
    integer: true,
    min: 0,
    max: 1000,
    default: 3,
  }],
  headline: { figure: "wallMs", higherIsBetter: false },
  async prepare(ctx: ProcessContext): Promise<ProcessTarget | Skip> {
    const [cmd, facts] = await command(ctx);
    const expected = ctx.variant === "hello" ? HELLO_OUTPUT : SCRIPT_OUTPUT;
    return {
      command: cmd,
      plan: {
        warmupRuns: Number(ctx.options["warmup-runs"] ?? 3),
        minRuns: ctx.settings.runs,
        minDurationMs: ctx.settings.durationSec * 1000,
        runTimeoutMs: ctx.settings.startTimeoutSec * 1000,
      },
      facts,
      inspect: (run) => ({
        checks: [{ name: "stdout", passed: run.stdout === expected, expected, actual: run.stdout.slice(0, 200) }],
      }),
    };
  },
};
