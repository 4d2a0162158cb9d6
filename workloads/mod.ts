/**
 * Workloads: the typed contract a benchmark is written against
 * ({@linkcode HttpWorkload}, {@linkcode WebSocketWorkload},
 * {@linkcode ProcessWorkload}, {@linkcode MicroWorkload}), the workloads that
 * ship with rtbench, and checks for workloads that come from users' own
 * modules. A workload is a plain object: define one in your own file, with
 * your own servers, and pass it to `run()`; nothing is registered globally.
 *
 * @example Pick built-in workloads by name
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { selectWorkloads } from "@rtbench/rtbench/workloads";
 *
 * assertEquals(selectWorkloads("http-json,bcrypt").map((w) => w.kind), ["http", "http"]);
 * ```
 *
 * @example Define a workload of your own
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { type HttpWorkload, validateWorkload } from "@rtbench/rtbench/workloads";
 *
 * const ping: HttpWorkload = {
 *   name: "ping",
 *   description: "GET /ping answers pong",
 *   kind: "http",
 *   variants: [{ name: "default", description: "one server per runtime" }],
 *   server: (runtime) => ({ entry: new URL(`./servers/${runtime}.ts`, import.meta.url) }),
 *   traffic: () => ({
 *     requests: [{ path: "/ping", expect: { status: 200, contentType: "text/plain", body: "pong" } }],
 *   }),
 * };
 * assertEquals(validateWorkload(ping, "ping.ts").name, "ping");
 * ```
 *
 * @module
 */

import { RequestError } from "../runners/platform/mod.ts";
import { bcrypt } from "./bcrypt.ts";
import { httpJson } from "./http_json.ts";
import { uuidFile } from "./uuid_file.ts";
import { postgresWorkload } from "./postgres.ts";
import { restApi } from "./rest_api.ts";
import { signup } from "./signup.ts";
import { fsWorkload } from "./fs.ts";
import { install } from "./install.ts";
import { micro } from "./micro.ts";
import { startup } from "./startup.ts";
import type { Workload } from "./types.ts";
import { wsEcho } from "./ws_echo.ts";

export * from "./types.ts";
export { loadWorkloadModule, validateWorkload, WORKLOAD_KINDS } from "./validate.ts";
export { bcrypt, fsWorkload, httpJson, install, micro, postgresWorkload, restApi, signup, startup, uuidFile, wsEcho };

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
  restApi,
  signup,
  startup,
  install,
  fsWorkload,
  micro,
  wsEcho,
];

/**
 * Picks workloads by name from a comma-separated list; throws
 * {@linkcode RequestError} naming the field (`workloads`) and the allowed names.
 *
 * @param list Workload names, comma-separated, as given to `--workload`.
 * @param from The workloads to choose from.
 * @returns The named workloads, in the order named, each once.
 *
 * @example Pick one workload by name
 * ```ts
 * import { selectWorkloads } from "./mod.ts";
 * console.log(selectWorkloads("http-json")[0].kind); // "http"
 * ```
 */
export function selectWorkloads(list: string, from: readonly Workload[] = builtinWorkloads): Workload[] {
  const names = list.split(",").map((s) => s.trim()).filter(Boolean);
  if (names.length === 0) {
    throw new RequestError("workloads", `: no workload given (allowed: ${from.map((w) => w.name).join(", ")})`);
  }
  const picked: Workload[] = [];
  for (const name of names) {
    const workload = from.find((w) => w.name === name);
    if (!workload) {
      throw new RequestError(
        "workloads",
        `: unknown workload "${name}" (allowed: ${from.map((w) => w.name).join(", ")})`,
      );
    }
    if (!picked.includes(workload)) picked.push(workload);
  }
  return picked;
}
export * from "./checks.ts";
export { comparedMediaType, sameMediaType } from "./media_type.ts";
export { type HeaderRule, headerRules, headerRuleText, headerTest } from "./expected_headers.ts";
