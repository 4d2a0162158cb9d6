// What a test needs from the machine (a tool on PATH, a toolchain rtbench finds, root and network namespaces, two
// CPUs), in one place. A test declares it with `needs()`:
//
//   const WRK = tool("wrk", "apt-get install wrk");
//   Deno.test(needs(WRK, { name: "wrk measures http-json", async fn() { ... } }));
//
// Where something is missing, the test is ignored and the skip is recorded with its reason; the test task's runner
// (tests/_run.ts) lists every skipped test and why at the end of the run. Under CI=true (.ci/run installs everything)
// the same test runs and fails, naming what is missing: CI never passes by skipping what it claims to test.
import { which } from "../runners/platform/process.ts";
import type { RuntimeAdapter } from "../adapters/types.ts";

/** Whether this process runs in CI (`CI=true`, as .ci/run's environment sets it). */
export const IN_CI: boolean = Deno.env.get("CI") === "true";

/** The environment variable naming the file skips are appended to (set by tests/_run.ts). */
export const SKIP_LOG_ENV = "RTBENCH_TEST_SKIPS";

/** Something a test needs; `missing` says why it is not here, or null when it is. */
export interface Need {
  /** What is needed, for messages (`wrk`, `cargo`, `network namespaces`). */
  readonly name: string;
  /** Why it is not available here, with how to get it; null when it is. */
  readonly missing: string | null;
  /** An opt-in the person running the tests chooses (not a tool CI installs): skipped when absent, in CI too. */
  readonly optIn?: boolean;
}

/** A tool on PATH: its path when found. */
export interface ToolNeed extends Need {
  /** The first of the names found on PATH, or null. */
  readonly path: string | null;
}

/** One of `names` on PATH; `how` says how to install it. */
export function tool(names: string | readonly string[], how: string): ToolNeed {
  const list = typeof names === "string" ? [names] : names;
  const path = list.map((n) => which(n)).find((p) => p !== null) ?? null;
  return { name: list[0], path, missing: path ? null : `${list.join(" or ")} is not on PATH (${how})` };
}

/** A runtime or toolchain as rtbench itself finds it (the adapter's own `detect()`, PATH and known places). */
export async function runtime(adapter: RuntimeAdapter): Promise<Need> {
  const found = await adapter.detect();
  return {
    name: adapter.name,
    missing: found ? null : `${adapter.name} is not installed (${adapter.howToGet ?? "put it on PATH"})`,
  };
}

/** Anything else a test needs: `missing` is why it cannot be had here, or null. */
export function condition(name: string, missing: string | null): Need {
  return { name, missing };
}

/**
 * An opt-in: tests that reach a service the machines running CI may not reach run only when `variable` is `1`; absent,
 * they are skipped and listed, in CI too (unlike a missing tool, which CI installs).
 */
export function optIn(name: string, variable: string, what: string): Need {
  return { name, missing: Deno.env.get(variable) === "1" ? null : `${what}: opt in with ${variable}=1`, optIn: true };
}

/**
 * The internet, for the few tests that install from the public npm registry what the suite does not otherwise need
 * (another Bun version, the registry's list of releases): opt in with `RTBENCH_TEST_NETWORK=1` (.ci/run does). Every
 * other test works offline once the README's set-up has run.
 */
export const NETWORK: Need = condition(
  "the npm registry",
  Deno.env.get("RTBENCH_TEST_NETWORK") === "1"
    ? null
    : "installs from registry.npmjs.org: opt in with RTBENCH_TEST_NETWORK=1",
);

/** One skipped test, as the skip log holds it. */
export interface Skip {
  /** The test's name. */
  readonly test: string;
  /** Why it was skipped. */
  readonly why: string;
}

function recordSkip(skip: Skip): void {
  const log = Deno.env.get(SKIP_LOG_ENV);
  if (log) Deno.writeTextFileSync(log, JSON.stringify(skip) + "\n", { append: true });
  else console.log(`skipped: ${skip.test}: ${skip.why}`);
}

/**
 * The test as declared where every need is met. Otherwise, outside CI, the test ignored and its skip recorded
 * (listed at the end of `deno task test`); under CI=true, the test failing with what is missing.
 */
export function needs(required: Need | readonly Need[], test: Deno.TestDefinition): Deno.TestDefinition {
  const list: readonly Need[] = "missing" in required ? [required as Need] : required as readonly Need[];
  const missing = list.flatMap((n) => n.missing === null ? [] : [n.missing]);
  if (missing.length === 0 || test.ignore) return test;
  const why = missing.join("; ");
  const chosen = list.every((n) => n.missing === null || n.optIn);
  if (IN_CI && !chosen) {
    return {
      ...test,
      fn() {
        throw new Error(`${why}: under CI=true a test that needs it runs, it is not ignored`);
      },
    };
  }
  recordSkip({ test: test.name, why });
  return { ...test, ignore: true };
}

/** Runtimes and load generators a machine may lack: a test that needs one completed goes through {@linkcode needs}. */
export const OPTIONAL: Readonly<Record<string, "runtime" | "generator">> = {
  go: "runtime",
  rust: "runtime",
  oha: "generator",
  bombardier: "generator",
  wrk: "generator",
  locust: "generator",
};

/**
 * The tests in a test file's `text` that measure an optional runtime or load generator (named in a string: a runtimes
 * list, a `--runtime` or `--load-generator` value, a `loadGenerator`) and assert a record `completed`, yet are not
 * declared through `needs()` with that runtime's own need (`runtime(…)`) or, for a generator, any need: each would
 * fail on a machine without it. A test that makes the runtime missing itself (an adapter whose `detect()` finds
 * nothing) needs nothing. Returns each such test's first line.
 */
export function unguardedOptional(text: string): string[] {
  const starts = [...text.matchAll(/Deno\.test\(/g)].map((m) => m.index);
  return starts.flatMap((start, i) => {
    const chunk = text.slice(start, starts[i + 1] ?? text.length);
    if (!/["']completed["']/.test(chunk)) return [];
    const madeMissing = /detect:\s*\(\)\s*=>\s*Promise\.resolve\(undefined\)/.test(chunk);
    const need = /^Deno\.test\(needs\(([^{]*?),\s*\{/.exec(chunk)?.[1] ?? null;
    const unguarded = Object.entries(OPTIONAL).filter(([name, what]) => {
      if (!new RegExp(`(?<=["'\`,])${name}(?=["'\`,])`).test(chunk)) return false;
      if (what === "runtime" && madeMissing) return false;
      return need === null || (what === "runtime" && !need.includes("runtime("));
    });
    return unguarded.length > 0 ? [`${chunk.split("\n")[0]} (${unguarded.map(([n]) => n).join(", ")})`] : [];
  });
}
