// Seeded "random" workload traffic: every runtime gets the same requests, so
// their responses can be compared and a run repeated.

export { seededRandom } from "../runners/stats/mod.ts";

/** A string of `min`..`max` code points picked from `alphabet` (iterated by code point). */
export function randomText(random: () => number, alphabet: string, min: number, max: number): string {
  const chars = [...alphabet];
  const length = min + Math.floor(random() * (max - min + 1));
  let text = "";
  for (let i = 0; i < length; i++) text += chars[Math.floor(random() * chars.length)];
  return text;
}
