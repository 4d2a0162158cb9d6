// Headless Chromium for the tests that check what a report looks like in a real browser.
import { assert } from "@std/assert";
import { runCommand } from "../runners/platform/process.ts";
import { tool, type ToolNeed } from "./_needs.ts";

/** Headless Chromium, for `needs()`: its path where installed. */
export const CHROMIUM: ToolNeed = tool(["chromium", "chromium-browser", "google-chrome"], "apt-get install chromium");

/** Runs headless Chromium with a fresh profile inside `dir`, without any network chatter. */
export async function chromium(dir: string, args: string[]): Promise<string> {
  const profile = await Deno.makeTempDir({ dir, prefix: "chromium-profile-" });
  // Chromium keeps crash-report state under the XDG directories: point them into the profile too.
  const out = await runCommand([
    CHROMIUM.path!,
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--hide-scrollbars",
    "--force-device-scale-factor=1",
    `--user-data-dir=${profile}`,
    ...args,
  ], { timeoutMs: 90_000, keepBytes: 8 << 20, env: { XDG_CONFIG_HOME: profile, XDG_CACHE_HOME: profile } });
  assert(out.success, `chromium ${args[0]} failed (${out.code}): ${out.stderr.slice(-2000)}`);
  await Deno.remove(profile, { recursive: true });
  return out.stdout;
}
