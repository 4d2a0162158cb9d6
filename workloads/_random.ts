// A small seeded generator for workload traffic: every runtime gets the same
// "random" requests, so their responses can be compared and a run repeated.

/** Returns a function yielding numbers in [0, 1) from `seed` (mulberry32). */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A string of `min`..`max` code points picked from `alphabet` (iterated by code point). */
export function randomText(random: () => number, alphabet: string, min: number, max: number): string {
  const chars = [...alphabet];
  const length = min + Math.floor(random() * (max - min + 1));
  let text = "";
  for (let i = 0; i < length; i++) text += chars[Math.floor(random() * chars.length)];
  return text;
}
