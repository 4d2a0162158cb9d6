/**
 * The platform layer's surface: OS plumbing every other layer uses (processes and their groups, temporary
 * paths, `/proc`, CPU sets, cgroups, ports, ssh, staging files, the environment of child processes). Files named
 * `_x.ts` are private to this folder.
 *
 * @module
 */

export * from "./cache_dir.ts";
export * from "./cgroup.ts";
export * from "./child_env.ts";
export * from "./cpus.ts";
export * from "./entry.ts";
export * from "../base/mod.ts";
export * from "./ledger.ts";
export * from "./limits.ts";
export * from "./listening.ts";
export * from "./machine.ts";
export * from "./pinned.ts";
export * from "./ports.ts";
export * from "./reaper.ts";
export * from "./proc_stat.ts";
export * from "./process.ts";
export * from "./procfs.ts";
export * from "./runtime_variables.ts";
export * from "./ssh.ts";
export * from "./stdout.ts";
export * from "./temp.ts";
export * from "./remove_tree.ts";
export * from "./workspace.ts";
