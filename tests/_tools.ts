// Tests that need a command-line tool: on a developer's machine without it they are ignored, and say so; under
// CI=true (where .ci/run installs every tool) a missing tool is a failure, so CI never passes by skipping.
import { which } from "../runners/platform/process.ts";

/** Whether this process runs in CI (`CI=true`, as .ci/run's environment sets it). */
export const IN_CI: boolean = Deno.env.get("CI") === "true";

/**
 * Looks for one of `names` on PATH; the first found, or null. Without any: outside CI a line says what is skipped
 * and how to install it; under CI=true a failing test says the same, so the run fails instead of skipping.
 */
export function requireTool(names: string | readonly string[], how: string): string | null {
  const list = typeof names === "string" ? [names] : names;
  for (const name of list) {
    const path = which(name);
    if (path !== null) return path;
  }
  const message = `${list.join(" or ")} is not on PATH (${how})`;
  if (IN_CI) {
    Deno.test(`${list[0]} is installed, as CI requires`, () => {
      throw new Error(`${message}: under CI=true a test that needs it must run, not be ignored`);
    });
  } else {
    console.log(`skipping the tests that need ${list[0]}: ${message}`);
  }
  return null;
}

/**
 * For tests that need more than a tool (root, network namespaces, sshd): `reason` is why they cannot run here, or
 * null. Outside CI a line says what is skipped; under CI=true a failing test says it, as {@linkcode requireTool} does.
 * Returns whether the tests must be ignored.
 */
export function unavailableIn(what: string, reason: string | null): boolean {
  if (reason === null) return false;
  if (IN_CI) {
    Deno.test(`${what} can run, as CI requires`, () => {
      throw new Error(`${what}: ${reason}: under CI=true these tests must run, not be ignored`);
    });
  } else {
    console.log(`skipping ${what}: ${reason}`);
  }
  return true;
}
