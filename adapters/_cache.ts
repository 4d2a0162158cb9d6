// The per-user cache directory is the platform layer's (its children reaper keeps its ledgers there too); the adapters
// export it for tool authors.
export { cacheDir } from "../runners/platform/mod.ts";
