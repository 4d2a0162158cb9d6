/**
 * The load generators rtbench knows and `--load-generator`: `auto` (the
 * default) takes the fastest one installed that can send the workload's
 * traffic; a name forces that one.
 *
 * @module
 */

import { autocannonGenerator } from "./autocannon.ts";
import { engineGenerator } from "./engine.ts";
import { bombardierGenerator } from "./bombardier.ts";
import { ohaGenerator } from "./oha.ts";
import { closesConnections } from "./keep_alive.ts";
import { RequestError } from "../platform/mod.ts";
import type { LoadGenerator, LoadSettings, LoadTarget } from "./types.ts";
import { wrkGenerator } from "./wrk.ts";
import { locustGenerator } from "./locust.ts";

/**
 * Every built-in load generator, fastest first: on one pinned core of the
 * project's machines wrk (C) outruns bombardier (Go) and oha (Rust), which
 * outrun autocannon (JavaScript); Locust (Python, about 400 µs of CPU per request) is last: `auto` never gets
 * to it, it is there for `--load-generator locust`. `deno task calibrate` measures them on yours.
 *
 * @example List the generators, fastest first
 * ```ts
 * import { builtinLoadGenerators } from "./generators.ts";
 * console.log(builtinLoadGenerators.map((g) => g.name)); // ["rtbench", "wrk", "bombardier", "oha", "autocannon", "locust"]
 * ```
 */
export const builtinLoadGenerators: readonly LoadGenerator[] = [
  engineGenerator,
  wrkGenerator,
  bombardierGenerator,
  ohaGenerator,
  autocannonGenerator,
  locustGenerator,
];

/** How to install each native generator, for messages. */
const HOW_TO_INSTALL: Readonly<Record<string, string>> = {
  wrk: "apt-get install wrk, or brew install wrk",
  bombardier: "go install github.com/codesenberg/bombardier@latest",
  oha: "cargo install oha",
  locust: "apt-get install python3 python3-venv; rtbench installs Locust itself",
};

/** The generators a suite may use, in order of preference, and why. */
export interface LoadGeneratorChoice {
  /** `auto` or the name asked for. */
  readonly requested: string;
  /** Candidates, preferred first; a forced generator is the only one. */
  readonly candidates: readonly LoadGenerator[];
}

/**
 * Resolves `--load-generator`: `auto` lists the installed generators fastest
 * first; a name (or a {@linkcode LoadGenerator} object) is used alone. Throws
 * {@linkcode RequestError} naming the field (`loadGenerator`) for an unknown or missing generator.
 *
 * @example
 * ```ts
 * import { chooseLoadGenerators } from "./generators.ts";
 * const choice = await chooseLoadGenerators("autocannon");
 * console.log(choice.candidates[0].name); // "autocannon"
 * ```
 */
export async function chooseLoadGenerators(
  requested: string | LoadGenerator = "auto",
  generators: readonly LoadGenerator[] = builtinLoadGenerators,
): Promise<LoadGeneratorChoice> {
  if (typeof requested !== "string") return { requested: requested.name, candidates: [requested] };
  const names = generators.map((g) => g.name);
  if (requested === "auto") {
    const available: LoadGenerator[] = [];
    for (const g of generators) if (await g.available()) available.push(g);
    if (available.length === 0) throw new RequestError("loadGenerator", `: none of ${names.join(", ")} is available`);
    return { requested, candidates: available };
  }
  const generator = generators.find((g) => g.name === requested);
  if (!generator) {
    throw new RequestError(
      "loadGenerator",
      `: unknown load generator "${requested}" (allowed: auto, ${names.join(", ")})`,
    );
  }
  if (!(await generator.available())) {
    const how = HOW_TO_INSTALL[requested];
    throw new RequestError("loadGenerator", `: ${requested} is not installed${how ? ` (${how})` : ""}`);
  }
  return { requested, candidates: [generator] };
}

/**
 * The first candidate that can send `target` with `settings`, and a sentence
 * saying why it was chosen. Throws a TypeError naming `--load-generator` when
 * none can.
 *
 * @example
 * ```ts
 * import { autocannonGenerator } from "./autocannon.ts";
 * import { pickLoadGenerator } from "./generators.ts";
 * const target = { baseUrl: "http://127.0.0.1:1", requests: [] };
 * const settings = { durationSec: 1, warmupSec: 0, connections: 1, pipelining: 1, requestTimeoutSec: 1 };
 * const choice = { requested: "auto", candidates: [autocannonGenerator] };
 * console.log(pickLoadGenerator(choice, target, settings).generator.name); // "autocannon"
 * ```
 */
export function pickLoadGenerator(
  choice: LoadGeneratorChoice,
  target: LoadTarget,
  settings: LoadSettings,
): { generator: LoadGenerator; selectedBy: string } {
  const passed: string[] = [];
  for (const generator of choice.candidates) {
    const open = settings.rate !== undefined || settings.phases !== undefined;
    const captures = target.requests.some((r) => r.capture !== undefined);
    const reason = open && !generator.openModel
      ? "it cannot send on a schedule (--rate, --phases)"
      : captures && !generator.captures
      ? "it cannot send a value captured from an earlier response"
      : closesConnections(settings) && !generator.closesConnections
      ? "it cannot send each request on a new connection (--keep-alive off)"
      : generator.unsupported?.(target, settings) ?? null;
    if (reason === null) {
      const because = choice.requested === "auto"
        ? `auto: the first generator that can send this traffic, rtbench's engine (every response checked) first ` +
          `(in order: ${choice.candidates.map((g) => g.name).join(", ")})${
            passed.length > 0 ? `; passed over: ${passed.join("; ")}` : ""
          }`
        : `--load-generator ${choice.requested}`;
      return { generator, selectedBy: because };
    }
    passed.push(`${generator.name} (${reason})`);
  }
  throw new TypeError(`--load-generator: cannot send this traffic: ${passed.join("; ")}`);
}
