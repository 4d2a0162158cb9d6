// Where the command line writes: `--out` is checked before any load (a file path whose folder exists or can be
// made, not a folder, writable), and once anything is measured no write failure may lose it — the result then
// goes to a file under results/ (or the system's temporary folder), and the user is told where.

import { UsageError } from "./_usage.ts";
import { type BenchResult, SchemaError, type TempOwner, writeResult } from "../schema/mod.ts";

/** Why a path cannot be written, in words (no Deno permission hints: the tasks run with their permissions). */
export function whyNotWritable(error: unknown): string {
  if (error instanceof Deno.errors.NotCapable) return "rtbench writes no files under /dev, /proc or /sys";
  if (error instanceof Deno.errors.PermissionDenied) return "permission denied";
  if (error instanceof Deno.errors.NotFound) return "no such folder";
  if (error instanceof Deno.errors.NotADirectory) return "a part of the path is a file, not a folder";
  if (error instanceof Deno.errors.IsADirectory) return "it is a folder";
  const message = error instanceof Error ? error.message : String(error);
  return message.split(" (os error")[0].split(":")[0].trim().toLowerCase() || "cannot write";
}

/** The folder of `path` (`.` for a bare name, `/` at the root). */
export function folderOf(path: string): string {
  const slash = path.lastIndexOf("/");
  return slash < 0 ? "." : slash === 0 ? "/" : path.slice(0, slash);
}

/** Folders made for output files, removed again if nothing was written into them. */
const madeFolders: string[] = [];

/**
 * Checks that `path` can take a file rtbench writes, before any work: not a
 * folder, its folder there (made when missing), writable. Throws a
 * {@linkcode UsageError} naming `flag`, the path and why.
 *
 * @param path The file path given.
 * @param flag The flag that gave it (`--out`).
 */
export async function checkWritable(path: string, flag: string): Promise<void> {
  const fail = (why: string): never => {
    throw new UsageError(`${flag}: cannot write ${path} (${why})`);
  };
  if (path.endsWith("/")) fail("it names a folder; give a file path");
  const info = await Deno.stat(path).catch(() => null);
  if (info?.isDirectory) fail(`it is a folder; give a file path, for example ${path.replace(/\/+$/, "")}/rtbench.json`);
  if (info && !info.isFile) fail("it is not a regular file");
  const folder = folderOf(path);
  try {
    await makeFolder(folder);
    const probe = `${folder}/.rtbench-${path.slice(path.lastIndexOf("/") + 1)}.${Deno.pid}.probe`;
    try {
      await Deno.writeTextFile(probe, "");
    } finally {
      await Deno.remove(probe).catch(() => {});
    }
  } catch (error) {
    fail(whyNotWritable(error));
  }
}

/** Makes `folder` and its missing parents, remembering each one made (to remove it again if it stays empty). */
async function makeFolder(folder: string): Promise<void> {
  const missing: string[] = [];
  for (let f = folder; f !== "." && f !== "/" && f !== ""; f = folderOf(f)) {
    const info = await Deno.stat(f).catch((error) =>
      error instanceof Deno.errors.NotFound ? null : Promise.reject(error)
    );
    if (info?.isDirectory) break;
    if (info) throw new Deno.errors.NotADirectory(`${f} is a file`);
    missing.unshift(f);
  }
  for (const f of missing) {
    try {
      await Deno.mkdir(f);
      madeFolders.push(f);
    } catch (error) {
      // Another run made it in the meantime: theirs to remove, ours to use.
      if (!(error instanceof Deno.errors.AlreadyExists) || !(await Deno.stat(f)).isDirectory) throw error;
    }
  }
}

/** Removes the folders made for output that are still empty (non-recursive: a written file keeps its folder). */
export async function removeEmptyFolders(): Promise<void> {
  for (const f of madeFolders.splice(0).reverse()) await Deno.remove(f).catch(() => {});
}

function stamp(): string {
  return new Date().toISOString().replace(/[-:]/g, "").replace("T", "-").slice(0, 15);
}

/** Where the result goes when `--out` is not given: `results/rtbench-<time>.json`. */
export function defaultResultPath(): string {
  return `results/rtbench-${stamp()}.json`;
}

/** Places to keep what was measured when its own file cannot be written, in order. */
function fallbacks(name: string): string[] {
  let tmp = "/tmp";
  try {
    tmp = Deno.env.get("TMPDIR") || tmp;
  } catch {
    // Without --allow-env the system's default is used.
  }
  return [`results/${name}`, `${tmp.replace(/\/+$/, "")}/${name}`];
}

/**
 * A file that keeps what was measured: written after every record (writes
 * in order, one at a time); when its path cannot be written (a full disk, a
 * folder gone), the text moves to a fallback under `results/`, said once.
 */
export class KeptFile {
  #path: string;
  #written = false;
  #queue: Promise<void> = Promise.resolve();
  #moved: string | undefined;
  readonly #say: (line: string) => void;
  readonly #temps: TempOwner | undefined;

  /**
   * @param path Where the file should go.
   * @param say Receives the one line saying where it went instead.
   * @param temps Owns each temporary file while it is written (the platform's ledger, so a killed run's are removed).
   */
  constructor(path: string, say: (line: string) => void, temps?: TempOwner) {
    this.#path = path;
    this.#say = say;
    this.#temps = temps;
  }

  /** Where the file is (or goes). */
  get path(): string {
    return this.#path;
  }

  /** Whether anything was written. */
  get written(): boolean {
    return this.#written;
  }

  /** Why the file is not where it was asked for, when it moved. */
  get moved(): string | undefined {
    return this.#moved;
  }

  /** Writes `result` after the writes before it; a result that fails its schema is a bug and is thrown. */
  writeResult(result: BenchResult): Promise<void> {
    return this.#enqueue((path) => writeResult(path, result, { temps: this.#temps }));
  }

  /** Writes `text` after the writes before it. */
  writeText(text: string): Promise<void> {
    return this.#enqueue((path) => Deno.writeTextFile(path, text));
  }

  /** Waits for every write so far, failed or not. */
  settled(): Promise<void> {
    return this.#queue.catch(() => {});
  }

  #enqueue(write: (path: string) => Promise<void>): Promise<void> {
    // One failed write does not stop the ones after it.
    const next = this.#queue.catch(() => {}).then(() => this.#write(write));
    this.#queue = next;
    return next;
  }

  async #write(write: (path: string) => Promise<void>): Promise<void> {
    try {
      await write(this.#path);
      this.#written = true;
      return;
    } catch (error) {
      if (error instanceof SchemaError) throw error;
      const asked = this.#path;
      const why = whyNotWritable(error);
      const name = `${stamp()}-kept-${asked.slice(asked.lastIndexOf("/") + 1) || "rtbench.json"}`;
      for (const candidate of fallbacks(name.startsWith("rtbench") ? name : `rtbench-${name}`)) {
        try {
          await makeFolder(folderOf(candidate));
          await write(candidate);
        } catch {
          continue;
        }
        this.#path = candidate;
        this.#written = true;
        this.#moved = `${asked}: ${why}`;
        this.#say(`rtbench: cannot write ${asked} (${why}); what was measured is kept in ${candidate} instead`);
        return;
      }
      throw new Error(`Cannot write ${asked} (${why}), nor anywhere under results/ or the temporary folder`);
    }
  }
}
