/**
 * The published comparisons' claims and the experiments that measure them,
 * from one data file (`fixtures/reproduce/claims.json`): each article's
 * settings (connections, duration, load generator, variants), what rtbench
 * runs for them (durations scaled down unless `full`), and the equivalent
 * `deno task bench` command.
 *
 * @module
 */

import type { PublishedVersions } from "./as_published.ts";

/** One arm of a claim: a runtime, in a variant (the experiment's first when absent). */
export interface ClaimArm {
  /** Runtime name. */
  readonly runtime: string;
  /** Variant name. */
  readonly variant?: string;
}

/** One published claim: arm `a` against arm `b` on one figure, with the article's figures. */
export interface Claim {
  /** Unique name, `<article>-<what>` (for `--claim`). */
  readonly name: string;
  /** The experiment that measures it. */
  readonly experiment: string;
  /** What the article says, in one line. */
  readonly says: string;
  /** The figure compared: a run figure (`requestsPerSecond`) or a latency percentile (`latencyUs.p50`). */
  readonly figure: string;
  /** Whether more of the figure is better. */
  readonly higherIsBetter: boolean;
  readonly a: ClaimArm;
  readonly b: ClaimArm;
  /** The article's figures for a and b, in its unit. */
  readonly published: { readonly a: number; readonly b: number; readonly unit: string };
  /**
   * What differs from the article, or how its figure was read. `{ran}` stands for the seconds a run of this
   * reproduction lasts and `{article}` for the article's (see {@linkcode claimNote}): a note never names a duration
   * that did not run.
   */
  readonly note?: string;
}

/** An article's experiment: what rtbench runs to measure its claims. */
export interface Experiment {
  /** The article, a key of {@linkcode ClaimsFile.articles}. */
  readonly article: string;
  readonly workload: string;
  readonly variants: readonly string[];
  readonly runtimes: readonly string[];
  /** The article's settings: connections, duration, runs. */
  readonly settings: { readonly connections?: number; readonly durationSec?: number; readonly runs?: number };
  /** What the scaled-down default run changes (shorter durations). */
  readonly scaled?: { readonly durationSec?: number };
  /** The article's load generator, when it used one rtbench has. */
  readonly loadGenerator?: string;
  /** Workload options (`--fs-files`). */
  readonly options?: Readonly<Record<string, string | number | boolean>>;
  /** Options only the full run sets (a message count that takes minutes). */
  readonly fullOptions?: Readonly<Record<string, string | number | boolean>>;
}

/** A published comparison: what it is, its seed in `/work/shared/seeds`, what it ran, on which versions. */
export interface Article {
  readonly title: string;
  readonly seed: string;
  /** Its setup in words. */
  readonly ran: string;
  /** The versions it ran, by runtime name (`node` → `22.0.0`); absent where it names none. */
  readonly versions?: Readonly<Record<string, string>>;
}

/** The data file: articles, experiments, claims. */
export interface ClaimsFile {
  readonly articles: Readonly<Record<string, Article>>;
  readonly experiments: Readonly<Record<string, Experiment>>;
  readonly claims: readonly Claim[];
}

/** What one experiment asks the suite for. */
export interface ExperimentRun {
  readonly workload: string;
  readonly runtimes: readonly string[];
  readonly variants: readonly string[];
  readonly settings: {
    connections?: number;
    durationSec?: number;
    warmupSec?: number;
    runs: number;
    cpuRate?: number;
    idleConnections?: number;
  };
  readonly options: Readonly<Record<string, string | number | boolean>>;
  readonly loadGenerator?: string;
  /** The article's versions, measured beside today's (`--as-published`); absent otherwise. */
  readonly published?: PublishedVersions;
}

/** How to run the experiments: the article's durations (`full`) or scaled down, and runs per arm. */
export interface ReproduceOptions {
  /** The article's full durations and message counts. @default {false} */
  readonly full?: boolean;
  /** Runs per arm; at least 2 for an interval. @default {3} (full: the article's, else 5) */
  readonly runs?: number;
  /**
   * The articles' versions, by article, each experiment measuring them in the same rounds as today's releases
   * (`--as-published`); absent: today's only.
   */
  readonly asPublished?: Readonly<Record<string, PublishedVersions>>;
}

/** The default claims file. */
export const CLAIMS_FILE: URL = new URL("../../fixtures/reproduce/claims.json", import.meta.url);

/**
 * Reads and checks a claims file: every claim names a known experiment and an arm it runs.
 *
 * @example
 * ```ts
 * import { readClaims } from "./claims.ts";
 * const file = await readClaims();
 * console.log(Object.keys(file.articles)); // ["000", "001", "002", "003", "004"]
 * ```
 */
export async function readClaims(url: URL = CLAIMS_FILE): Promise<ClaimsFile> {
  const file = JSON.parse(await Deno.readTextFile(url)) as ClaimsFile;
  const names = new Set<string>();
  for (const claim of file.claims) {
    const e = file.experiments[claim.experiment];
    if (!e) throw new TypeError(`${url.pathname}: claim ${claim.name} names unknown experiment ${claim.experiment}`);
    if (names.has(claim.name)) throw new TypeError(`${url.pathname}: claim ${claim.name} is listed twice`);
    names.add(claim.name);
    for (const field of claim.note?.match(/\{[^}]*\}/g) ?? []) {
      if (!(field in NOTE_FIELDS) || e.settings.durationSec === undefined) {
        throw new TypeError(
          `${url.pathname}: claim ${claim.name}: its note's ${field} names no duration of its experiment`,
        );
      }
    }
    for (const arm of [claim.a, claim.b]) {
      if (!e.runtimes.includes(arm.runtime) || (arm.variant && !e.variants.includes(arm.variant))) {
        throw new TypeError(`${url.pathname}: claim ${claim.name}: ${armLabel(arm)} is not run by ${claim.experiment}`);
      }
    }
  }
  return file;
}

// What a note's fields stand for: the durations of this reproduction's runs and of the article's.
const NOTE_FIELDS: Readonly<Record<string, (e: Experiment, run: ExperimentRun) => number | undefined>> = {
  "{ran}": (_, run) => run.settings.durationSec,
  "{article}": (e) => e.settings.durationSec,
};

/**
 * A claim's note for one reproduction: `{ran}` is the seconds each run lasted (scaled down, or the article's with
 * `full`), `{article}` the article's.
 *
 * @example 001's note, scaled and full
 * ```ts
 * import { claimNote, experimentRun, readClaims } from "./claims.ts";
 * const file = await readClaims();
 * const claim = file.claims.find((c) => c.name === "001-rust-vs-go")!;
 * const e = file.experiments[claim.experiment];
 * console.log(claimNote(claim, e, experimentRun(e, {}))?.slice(0, 38)); // "runs of 5 s here, the article's of 300"
 * ```
 */
export function claimNote(claim: Claim, e: Experiment, run: ExperimentRun): string | undefined {
  return claim.note?.replace(/\{[^}]*\}/g, (field) => `${NOTE_FIELDS[field]?.(e, run) ?? "?"} s`);
}

/** `bun` or `bun/url-parse`. */
export function armLabel(arm: ClaimArm): string {
  return arm.variant ? `${arm.runtime}/${arm.variant}` : arm.runtime;
}

/**
 * What the suite runs for an experiment: the article's connections, load generator and variants; its durations, or
 * (by default) the scaled-down ones with a one-second warm-up.
 *
 * @example 000's autocannon run, scaled
 * ```ts
 * import { experimentRun, readClaims } from "./claims.ts";
 * const file = await readClaims();
 * const run = experimentRun(file.experiments["000-http"], {});
 * console.log(run.settings.durationSec, run.settings.connections); // 5 100
 * ```
 */
export function experimentRun(e: Experiment, options: ReproduceOptions): ExperimentRun {
  const full = options.full ?? false;
  const runs = options.runs ?? (full ? e.settings.runs ?? 5 : Math.max(3, Math.min(e.settings.runs ?? 3, 5)));
  const durationSec = full ? e.settings.durationSec : e.scaled?.durationSec ?? e.settings.durationSec;
  const timed = durationSec !== undefined;
  const published = options.asPublished?.[e.article];
  return {
    workload: e.workload,
    // Today's releases, then the article's: one suite, so that both are measured in the same rounds.
    runtimes: [...e.runtimes, ...e.runtimes.flatMap((r) => published?.runtimes[r] ?? [])],
    variants: e.variants,
    settings: {
      ...(e.settings.connections !== undefined ? { connections: e.settings.connections } : {}),
      // The claims are closed-model figures: no fixed-rate window or idle connections after each run (minutes saved).
      ...(timed ? { durationSec, warmupSec: 1, cpuRate: 0, idleConnections: 0 } : {}),
      runs,
    },
    options: { ...e.options, ...(full ? e.fullOptions : {}) },
    ...(e.loadGenerator ? { loadGenerator: e.loadGenerator } : {}),
    ...(published ? { published } : {}),
  };
}

/** The `deno task bench` command that runs the same experiment. */
export function commandOf(run: ExperimentRun): string {
  const s = run.settings;
  const parts = [
    "deno task bench",
    `--workload ${run.workload}`,
    `--variant ${run.variants.join(",")}`,
    `--runtime ${run.runtimes.join(",")}`,
    ...(s.connections !== undefined ? [`--connections ${s.connections}`] : []),
    ...(s.durationSec !== undefined ? [`--duration ${s.durationSec}`, `--warmup ${s.warmupSec}`] : []),
    ...(s.cpuRate !== undefined ? [`--cpu-rate ${s.cpuRate}`, `--idle-connections ${s.idleConnections}`] : []),
    `--runs ${s.runs}`,
    ...(run.loadGenerator ? [`--load-generator ${run.loadGenerator}`] : []),
    ...Object.entries(run.options).map(([k, v]) => `--${k} ${v}`),
  ];
  return parts.join(" ");
}
