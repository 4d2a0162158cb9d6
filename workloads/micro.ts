/**
 * `micro`: in-process micro-benchmarks run by tinybench inside each runtime:
 * JSON stringify and parse of a 3.7 KB API response, `crypto.randomUUID()`,
 * a bcrypt hash at cost 4 (bcryptjs) and URL query parsing.
 *
 * @module
 */

import { pinnedVersion } from "../runners/platform/mod.ts";
import type { Check, MicroReport, MicroWorkload, ServerSource, Skip } from "./types.ts";

const SCRIPT = new URL("../servers/shared/micro.mjs", import.meta.url);
const PAYLOAD = new URL("../fixtures/micro/payload.json", import.meta.url);

/** The tinybench version, the same as rtbench's own import map. */
export const TINYBENCH_VERSION: string = pinnedVersion("tinybench");

/** The URL the `url-query` task parses, and what its query must parse to. */
export const QUERY_URL: string =
  "https://shop.example.com/search?q=runtime+benchmarks&page=3&tags=deno&tags=node&tags=bun" +
  "&sort=price%3Aasc&utm_source=rtbench&empty=&emoji=%E2%98%95";

function parseQuery(href: string): Record<string, string[]> {
  const params = new URL(href).searchParams;
  const out: Record<string, string[]> = {};
  for (const key of params.keys()) out[key] = params.getAll(key);
  return out;
}

const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const BCRYPT_COST_4 = /^\$2[aby]\$04\$[./A-Za-z0-9]{53}$/;

let payloadText: Promise<string> | undefined;

async function expectedJson(): Promise<string> {
  payloadText ??= fetch(PAYLOAD).then((r) => r.text());
  return JSON.stringify(JSON.parse(await payloadText));
}

function sampleCheck(name: string, passed: boolean, expected: string, actual: string): Check {
  return { name, passed, expected, actual: actual.slice(0, 300) };
}

/**
 * The micro workload: one variant per task. `--duration` is tinybench's
 * `time` per run and `--warmup` its `warmupTime` (quick: 0.5 s and 0.1 s);
 * every run is a fresh process. The `json` sample is compared with the
 * fixture, `uuid` must be a v4 UUID, `bcrypt` a cost-4 hash that the script
 * verified, and `url-query` must parse to what Deno's URL parses it to.
 *
 * @example Read the tasks
 * ```ts
 * import { micro } from "./micro.ts";
 * console.log(micro.variants.map((v) => v.name)); // ["json", "uuid", "bcrypt", "url-query"]
 * ```
 */
export const micro: MicroWorkload = {
  name: "micro",
  description: "tinybench inside each runtime: JSON round trip, randomUUID, bcrypt cost 4, URL query parsing",
  kind: "micro",
  variants: [
    { name: "json", description: "JSON.parse(JSON.stringify(x)) of a 3.7 KB API response (fixtures/micro)" },
    { name: "uuid", description: "crypto.randomUUID(), 100 per call" },
    { name: "bcrypt", description: "bcryptjs hashSync at cost 4" },
    { name: "url-query", description: "new URL(...).searchParams of a 9-parameter query, 10 per call" },
  ],
  defaults: { runs: 3, durationSec: 0.5, warmupSec: 0.1 },
  dependencies: { tinybench: TINYBENCH_VERSION, bcryptjs: pinnedVersion("bcryptjs") },
  assets: [PAYLOAD],
  script(): ServerSource | Skip {
    return { entry: SCRIPT };
  },
  async verify(report: MicroReport): Promise<Check[]> {
    switch (report.task) {
      case "json": {
        const expected = await expectedJson();
        return [sampleCheck("sample", report.sample === expected, "the fixture, round-tripped", report.sample)];
      }
      case "uuid":
        return [sampleCheck("sample", UUID_V4.test(report.sample), "a v4 UUID", report.sample)];
      case "bcrypt":
        return [sampleCheck("sample", BCRYPT_COST_4.test(report.sample), "a $2b$04$ bcrypt hash", report.sample)];
      case "url-query": {
        const expected = JSON.stringify(parseQuery(QUERY_URL));
        return [sampleCheck("sample", report.sample === expected, expected, report.sample)];
      }
      default:
        return [{ name: "task", passed: false, expected: "a known task", actual: report.task }];
    }
  },
};
