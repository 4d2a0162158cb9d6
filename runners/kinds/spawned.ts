/**
 * What the processes of one record got: every process started while the
 * record is opened, run or closed is told here (`withChildEnv`), and the
 * record lists each kind of process once — its role, program, host and every
 * variable it got, secrets hidden — with the names whose values differed
 * between its processes (a port per run).
 *
 * @module
 */

import { recordableValue, type SpawnNotice } from "../platform/mod.ts";
import type { ProcessEnvironment } from "../schema/mod.ts";

/** Processes started for one record, grouped by role, program, host and the names they got. */
export class SpawnedProcesses {
  readonly #groups = new Map<string, { notice: SpawnNotice; varying: Set<string> }>();

  /** Takes one process (the listener given to `withChildEnv`). */
  readonly add = (notice: SpawnNotice): void => {
    const names = Object.keys(notice.env).sort();
    const key = JSON.stringify([notice.role, notice.program, notice.host ?? null, names]);
    const group = this.#groups.get(key);
    if (!group) {
      this.#groups.set(key, { notice, varying: new Set() });
      return;
    }
    for (const name of names) if (group.notice.env[name] !== notice.env[name]) group.varying.add(name);
  };

  /**
   * Each kind of process once, in the order first started: every variable with its first process's value
   * (`<secret>` for a credential), and the names whose values differed.
   *
   * @example
   * ```ts
   * import { assertEquals } from "@std/assert";
   * import { SpawnedProcesses } from "./spawned.ts";
   * const seen = new SpawnedProcesses();
   * seen.add({ role: "server", program: "node", env: { PATH: "/usr/bin", PORT: "4001" } });
   * seen.add({ role: "server", program: "node", env: { PATH: "/usr/bin", PORT: "4002" } });
   * assertEquals(seen.list(), [
   *   { role: "server", program: "node", env: { PATH: "/usr/bin", PORT: "4001" }, varying: ["PORT"] },
   * ]);
   * ```
   */
  list(): ProcessEnvironment[] {
    return [...this.#groups.values()].map(({ notice, varying }) => ({
      role: notice.role,
      program: notice.program,
      ...(notice.host ? { host: notice.host } : {}),
      env: Object.fromEntries(
        Object.keys(notice.env).sort().map((name) => [name, recordableValue(name, notice.env[name])]),
      ),
      ...(varying.size > 0 ? { varying: [...varying].sort() } : {}),
    }));
  }
}
