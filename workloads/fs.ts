/**
 * `fs`: write then read back many small files concurrently (10,000 files of
 * 1 KiB by default) in a fresh temporary directory, with each runtime's
 * idiomatic file API, or with the same `node:fs/promises` code everywhere
 * (`node-compat`). rtbench checks every file on disk after each run and
 * removes the directory.
 *
 * @module
 */

import { serverFile } from "../adapters/mod.ts";
import { stageServer } from "../runners/platform/mod.ts";
import { freshDir, spreadingParent } from "./_fresh_dir.ts";
import type { Check, ProcessContext, ProcessTarget, ProcessWorkload, RunInspection, Skip } from "./types.ts";
import { round } from "../runners/stats/mod.ts";

/**
 * The bytes of file `index`: `file <index>\n` repeated and cut to `size`,
 * exactly what every fs script writes.
 *
 * @example
 * ```ts
 * import { fileContent } from "./fs.ts";
 * console.log(new TextDecoder().decode(fileContent(7, 10))); // "file 7\nfil"
 * ```
 */
export function fileContent(index: number, size: number): Uint8Array {
  const line = `file ${index}\n`;
  return new TextEncoder().encode(line.repeat(Math.ceil(size / line.length)).slice(0, size));
}

function equal(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** Checks that `dir` holds exactly `files` files with the expected contents. */
export async function checkFiles(dir: string, files: number, size: number): Promise<Check[]> {
  const names = new Set<string>();
  for await (const entry of Deno.readDir(dir)) names.add(entry.name);
  const missing: string[] = [];
  const wrong: string[] = [];
  const batch = 256;
  for (let start = 0; start < files; start += batch) {
    await Promise.all(Array.from({ length: Math.min(batch, files - start) }, async (_, k) => {
      const i = start + k;
      const name = `f${i}.txt`;
      if (!names.has(name)) return void missing.push(name);
      if (!equal(await Deno.readFile(`${dir}/${name}`), fileContent(i, size))) wrong.push(name);
    }));
  }
  return [
    {
      name: "files on disk",
      passed: names.size === files && missing.length === 0,
      expected: files,
      actual: names.size,
    },
    {
      name: "file contents",
      passed: wrong.length === 0 && missing.length === 0,
      expected: "every file as written",
      actual: wrong.length + missing.length === 0
        ? "every file as written"
        : `${wrong.length} wrong, ${missing.length} missing (first: ${[...wrong, ...missing][0]})`,
    },
  ];
}

interface FsReport {
  files: number;
  bytes: number;
  writeMs: number;
  readMs: number;
  mismatches: number;
}

function parseReport(stdout: string): FsReport | null {
  try {
    const report = JSON.parse(stdout.trim().split("\n").at(-1) ?? "");
    return typeof report.writeMs === "number" && typeof report.readMs === "number" ? report : null;
  } catch {
    return null;
  }
}

/**
 * The fs workload. Figures per run: `writeMs` and `readMs` as each script
 * times them around its `Promise.all`, and their sum `writeReadMs` (the
 * headline); the process's wall time includes runtime start-up and preparing
 * the contents.
 *
 * @example Read the variants
 * ```ts
 * import { fsWorkload } from "./fs.ts";
 * console.log(fsWorkload.variants.map((v) => v.name)); // ["idiomatic", "node-compat"]
 * ```
 */
export const fsWorkload: ProcessWorkload = {
  name: "fs",
  description: "write then read 10,000 files of 1 KiB concurrently in a temporary directory",
  kind: "process",
  variants: [
    {
      name: "idiomatic",
      description: "node:fs/promises on Node.js, Deno.writeFile/readFile on Deno, Bun.write/Bun.file on Bun",
    },
    { name: "node-compat", description: "the same node:fs/promises script on every runtime" },
  ],
  defaults: { runs: 1, warmupSec: 0 },
  options: [
    {
      name: "fs-files",
      description: "files written and read per run",
      type: "number",
      integer: true,
      min: 1,
      max: 1_000_000,
      default: 10_000,
    },
    {
      name: "fs-file-bytes",
      description: "size of each file in bytes",
      type: "number",
      integer: true,
      min: 1,
      max: 16 * 1024 * 1024,
      default: 1024,
    },
    {
      name: "warmup-runs",
      description: "runs before measuring, checked but not timed (startup: 3, fs: 0)",
      type: "number",
      integer: true,
      min: 0,
      max: 1000,
      default: 0,
    },
  ],
  headline: { figure: "writeReadMs", higherIsBetter: false },
  async prepare(ctx: ProcessContext): Promise<ProcessTarget | Skip> {
    // node-compat: Node.js's script, the same node:fs/promises code, on every runtime.
    const script = serverFile(ctx.variant === "node-compat" ? "node" : ctx.runtime.name, "fs");
    if (!script) return { skip: `no fs script for ${ctx.runtime.name}` };
    const file = await stageServer(script, ctx.workDir);
    const files = Number(ctx.options["fs-files"] ?? 10_000);
    const size = Number(ctx.options["fs-file-bytes"] ?? 1024);
    // Each run's files in an ext4 block group of its own: ext4 makes files freed shortly before dearer to create, which
    // would charge one run's 10,000 deletions to whichever runtime runs next.
    const parent = `${ctx.workDir}/spread`;
    const reset = await spreadingParent(parent);
    const dir = `${parent}/files`;
    const remove = () => Deno.remove(dir, { recursive: true }).catch(() => {});
    return {
      command: {
        argv: ctx.runtime.adapter.command(ctx.runtime.binary, file),
        cwd: ctx.workDir,
        env: { FS_DIR: dir, FS_FILES: String(files), FS_FILE_BYTES: String(size), NO_COLOR: "1" },
      },
      plan: {
        warmupRuns: Number(ctx.options["warmup-runs"] ?? 0),
        minRuns: ctx.settings.runs,
        minDurationMs: 0,
        runTimeoutMs: 300_000,
      },
      facts: {
        files,
        fileBytes: size,
        concurrency: "all files at once (Promise.all)",
        api: ctx.variant,
        dirReset: reset,
      },
      beforeRun: () => freshDir(dir),
      async inspect(run): Promise<RunInspection> {
        try {
          const report = parseReport(run.stdout);
          const checks: Check[] = [{
            name: "report",
            passed: report !== null && report.files === files && report.mismatches === 0,
            expected: `${files} files read back as written`,
            actual: report ? `${report.files} files, ${report.mismatches} read back wrong` : run.stdout.slice(0, 200),
          }];
          if (run.exitCode === 0) checks.push(...await checkFiles(dir, files, size));
          await Deno.remove(dir, { recursive: true });
          const gone = await Deno.stat(dir).then(() => false, () => true);
          checks.push({ name: "directory removed", passed: gone });
          if (!report) return { checks };
          return {
            checks,
            figures: {
              writeMs: round(report.writeMs),
              readMs: round(report.readMs),
              writeReadMs: round(report.writeMs + report.readMs),
            },
          };
        } finally {
          await remove();
        }
      },
      dispose: () => Deno.remove(parent, { recursive: true }).catch(() => {}),
    };
  },
};
