/**
 * Versions rtbench pins in deno.json's import map, so that the code under test
 * (installed with npm for Node, Deno and Bun) and the harness use the same ones.
 *
 * @module
 */

import denoConfig from "../../deno.json" with { type: "json" };

/** The exact version deno.json's import map pins for an npm package; throws if it pins none. */
export function pinnedVersion(name: keyof typeof denoConfig.imports): string {
  const version = /^npm:(?:@[^/]+\/)?[^@/]+@(\d+\.\d+\.\d+[^/]*)/.exec(denoConfig.imports[name])?.[1];
  if (!version) throw new TypeError(`deno.json pins no exact version for ${name}`);
  return version;
}
