/**
 * The load engine as a program of its own: the files it runs with (all it imports, so that a copy runs on its own,
 * on this machine or a load machine), and those files as local files wherever rtbench runs from.
 *
 * @module
 */

import { makeTempDir, removeTemp } from "../platform/mod.ts";

/** The engine's program: its files, relative to this one (all it imports, so that a copy runs on its own). */
export const ENGINE_FILES: readonly string[] = [
  "./_child.ts",
  "./_transport.ts",
  "./clock.ts",
  "./load.ts",
  "./_hung.ts",
  "./_window.ts",
  "./_pump.ts",
  "./tally.ts",
  "./_span.ts",
  "./in_flight.ts",
  "./_http_load.ts",
  "./_http_conn.ts",
  "./_http.ts",
  "./_schedule.ts",
  "./_ws_load.ts",
  "./_ws_conn.ts",
  "./ws_pair.ts",
  "./handshakes.ts",
  "./ws.ts",
  "./_histogram.ts",
  "../stats/random.ts",
  "../../workloads/media_type.ts",
  "../../workloads/expected_headers.ts",
];

/** Where a file of {@linkcode ENGINE_FILES} goes in a copy of the engine: its path in the package. */
export function copiedPath(name: string): string {
  return new URL(name, "file:///runners/engine/").pathname.slice(1);
}

/** The engine's program as local files, for one run of it. */
export interface EngineProgram extends AsyncDisposable {
  /** The folder holding the engine's files in the package's layout (see {@linkcode copiedPath}): the package's root. */
  readonly root: string;
  /** The program's path. */
  readonly path: string;
}

/**
 * The engine's program as local files: where rtbench runs from a remote URL (JSR), its files copied out of the
 * package into a temporary directory that goes when the run is done.
 */
export async function engineProgram(): Promise<EngineProgram> {
  const program = (root: string, dispose: () => Promise<void>): EngineProgram => ({
    root,
    path: `${root}/${copiedPath("./_child.ts")}`,
    [Symbol.asyncDispose]: dispose,
  });
  const root = new URL("../..", import.meta.url);
  if (root.protocol === "file:") return program(root.pathname.replace(/\/$/, ""), () => Promise.resolve());
  const dir = await makeTempDir({ prefix: "rtbench-engine-" });
  try {
    for (const name of ENGINE_FILES) {
      const response = await fetch(new URL(name, import.meta.url));
      if (!response.ok) throw new Error(`Cannot read the load engine's ${name}: HTTP ${response.status}`);
      const path = `${dir}/${copiedPath(name)}`;
      await Deno.mkdir(path.slice(0, path.lastIndexOf("/")), { recursive: true });
      await Deno.writeTextFile(path, await response.text());
    }
  } catch (error) {
    await removeTemp(dir);
    throw error;
  }
  return program(dir, () => removeTemp(dir));
}
