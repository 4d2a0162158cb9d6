/**
 * The reproduction table: one row per published claim, its published figures
 * and ratio beside rtbench's paired ratio with its 95% interval, whether the
 * ranking holds, and the command that measured it; as plain text for the
 * terminal or as Markdown, from one list of rows.
 *
 * @module
 */

import type { BenchRecord, BenchResult } from "../schema/mod.ts";
import { type PairedRatio, pairedRatio } from "./_paired_ratio.ts";
import type { PublishedVersions } from "./as_published.ts";
import { armLabel, type Claim, type ClaimArm } from "./claims.ts";

/** Whether rtbench ranks the claim's arms as the article did. */
export type Verdict = "yes" | "no" | "tie" | "n/a";

/** One claim, reproduced. */
export interface ReproduceRow {
  readonly claim: string;
  readonly article: string;
  readonly says: string;
  /** `deno` or `node/hash`. */
  readonly a: string;
  readonly b: string;
  readonly published: Claim["published"] & { readonly ratio: number };
  /** a/b over the runs, paired round by round; null when an arm has no figure. */
  readonly measured: PairedRatio | null;
  /** yes: the interval lies on the article's side of 1; no: on the other; tie: it spans 1; n/a: not measured. */
  readonly verdict: Verdict;
  /** Why there is no figure, or what differs from the article. */
  readonly note: string | null;
  readonly command: string;
  /** The arms' versions today (`bun 1.4.5 vs deno 2.9.6`), where both were measured. */
  readonly versions?: string;
  /** The same claim on the article's versions, measured in the same rounds (`--as-published`); absent otherwise. */
  readonly asPublished?: AsPublished;
}

/** A claim measured on the versions its article ran. */
export interface AsPublished {
  /** The arms' versions (`bun 1.2.0 vs deno 2.0.0`), or those the article names where one was not run. */
  readonly versions: string;
  /** a/b over the runs, paired round by round; null when an arm has no figure. */
  readonly measured: PairedRatio | null;
  /** As {@linkcode ReproduceRow.verdict}, on these versions. */
  readonly verdict: Verdict;
  /** Why there is no figure: npm lacks a version, or an arm did not complete. */
  readonly why: string | null;
}

/** A run's value of `figure`: a run figure, or `latencyUs.<percentile>`. */
function valueOf(run: BenchRecord["runs"][number], figure: string): number | undefined {
  if (figure.startsWith("latencyUs.")) {
    return (run.latencyUs as Record<string, number> | null)?.[figure.slice("latencyUs.".length)];
  }
  return run.figures[figure];
}

/** The arm's record in a result: its runtime as requested (`bun`, `bun@1.2.0`), in its variant (or the first). */
function recordOf(
  result: BenchResult,
  arm: ClaimArm,
  variants: readonly string[],
  requested: string,
): BenchRecord | undefined {
  const variant = arm.variant ?? variants[0];
  return result.records.find((r) => r.runtime.requested === requested && r.variant === variant);
}

/** The record's runs' values, in round order (run index where no round is recorded). */
function valuesByRound(record: BenchRecord, figure: string): (number | undefined)[] {
  const values: (number | undefined)[] = [];
  for (const run of record.runs) values[run.round ?? run.index] = valueOf(run, figure);
  return values;
}

/**
 * The verdict of a measured ratio against the article's: the article's arm ranks first when its ratio says so, and
 * rtbench agrees only when its whole interval does (with one run, the ratio alone).
 *
 * @example
 * ```ts
 * import { verdictOf } from "./reproduce_table.ts";
 * console.log(verdictOf(1.25, { ratio: 1.1, low: 1.05, high: 1.16, n: 3 }, true)); // yes
 * console.log(verdictOf(1.25, { ratio: 1.02, low: 0.97, high: 1.07, n: 3 }, true)); // tie
 * console.log(verdictOf(0.5, { ratio: 1.3, low: 1.2, high: 1.4, n: 3 }, false)); // no
 * ```
 */
export function verdictOf(published: number, measured: PairedRatio | null, higherIsBetter: boolean): Verdict {
  if (!measured) return "n/a";
  const aFirst = (ratio: number) => higherIsBetter ? ratio > 1 : ratio < 1;
  const low = measured.low ?? measured.ratio;
  const high = measured.high ?? measured.ratio;
  if (low <= 1 && high >= 1) return "tie";
  return aFirst(low) === aFirst(published) ? "yes" : "no";
}

/** Why an arm has no figure: its record's status and error, or that it was not run. */
function missing(arm: ClaimArm, record: BenchRecord | undefined): string {
  if (!record) return `${armLabel(arm)}: not run`;
  const why = record.error?.message ?? record.skipReason ?? "no figure";
  return `${armLabel(arm)} ${record.status}: ${why}`;
}

/** The two arms' paired ratio in a result, or why there is none. */
function measure(
  claim: Claim,
  variants: readonly string[],
  result: BenchResult,
  requested: readonly [string, string],
): { measured: PairedRatio | null; why: string | null; versions: string | undefined } {
  const arms = [claim.a, claim.b] as const;
  const [ra, rb] = arms.map((arm, i) => recordOf(result, arm, variants, requested[i]));
  const measured = ra?.status === "completed" && rb?.status === "completed"
    ? pairedRatio(valuesByRound(ra, claim.figure), valuesByRound(rb, claim.figure))
    : null;
  const why = measured ? null : [ra, rb].map((r, i) => r?.status === "completed" ? null : missing(arms[i], r))
    .filter(Boolean).join("; ") || `no ${claim.figure} in both arms`;
  const versions = ra?.runtime.version && rb?.runtime.version
    ? `${claim.a.runtime} ${ra.runtime.version} vs ${claim.b.runtime} ${rb.runtime.version}`
    : undefined;
  return { measured, why, versions };
}

/** The claim on the article's versions: measured where npm had both, else why not. */
function onPublished(
  claim: Claim,
  variants: readonly string[],
  result: BenchResult,
  published: PublishedVersions,
): AsPublished {
  const arms = [claim.a, claim.b];
  const runs = arms.map((arm) => published.runtimes[arm.runtime]);
  const named = arms.map((arm, i) => runs[i]?.replace("@", " ") ?? `${arm.runtime} (not run)`);
  if (runs[0] === undefined || runs[1] === undefined) {
    const why = arms.flatMap((arm) => published.missing[arm.runtime] ?? []).join("; ");
    return { versions: named.join(" vs "), measured: null, verdict: "n/a", why };
  }
  const { measured, why, versions } = measure(claim, variants, result, [runs[0], runs[1]]);
  return {
    versions: versions ?? named.join(" vs "),
    measured,
    verdict: verdictOf(claim.published.a / claim.published.b, measured, claim.higherIsBetter),
    why,
  };
}

/**
 * A claim's row from the result of its experiment (or the error that stopped the experiment).
 *
 * @param claim The claim.
 * @param article The article's key.
 * @param variants The experiment's variants (an arm without one is in the first).
 * @param outcome The experiment's result, or why it did not run.
 * @param command The command that runs the experiment.
 * @param published The article's versions, when they were measured beside today's (`--as-published`).
 */
export function claimRow(
  claim: Claim,
  article: string,
  variants: readonly string[],
  outcome: BenchResult | Error,
  command: string,
  published?: PublishedVersions,
): ReproduceRow {
  const ratio = claim.published.a / claim.published.b;
  const base = {
    claim: claim.name,
    article,
    says: claim.says,
    a: armLabel(claim.a),
    b: armLabel(claim.b),
    published: { ...claim.published, ratio },
  };
  if (outcome instanceof Error) {
    const why = outcome.message.split("\n")[0];
    const then = published ? { asPublished: { versions: "", measured: null, verdict: "n/a" as const, why } } : {};
    return { ...base, measured: null, verdict: "n/a", note: why, command, ...then };
  }
  const today = measure(claim, variants, outcome, [claim.a.runtime, claim.b.runtime]);
  return {
    ...base,
    measured: today.measured,
    verdict: verdictOf(ratio, today.measured, claim.higherIsBetter),
    note: today.why ?? claim.note ?? null,
    command,
    ...(today.versions ? { versions: today.versions } : {}),
    ...(published ? { asPublished: onPublished(claim, variants, outcome, published) } : {}),
  };
}

function ratioText(r: number): string {
  return r >= 10 ? r.toFixed(1) : r.toFixed(2);
}

function measuredText(m: PairedRatio | null): string {
  if (!m) return "n/a";
  if (m.low === null || m.high === null) return `${ratioText(m.ratio)} (1 run, no interval)`;
  return `${ratioText(m.ratio)} [${ratioText(m.low)}–${ratioText(m.high)}]`;
}

function figureText(n: number): string {
  return Number.isInteger(n) ? n.toLocaleString("en-US") : n.toLocaleString("en-US", { maximumFractionDigits: 2 });
}

/** The note column: why the article's versions have no figure, then the row's own note. */
function noteText(r: ReproduceRow): string {
  const why = r.asPublished?.why ? `article's versions: ${r.asPublished.why}` : "";
  return [why, r.note ?? ""].filter(Boolean).join("; ");
}

/** The table's header and cells, the same for every format; with the article's versions when any row has them. */
function cells(rows: readonly ReproduceRow[]): string[][] {
  const commands = [...new Set(rows.map((r) => r.command))];
  const cmd = (r: ReproduceRow) => `[${commands.indexOf(r.command) + 1}]`;
  const published = (r: ReproduceRow) =>
    `${figureText(r.published.a)} vs ${figureText(r.published.b)} ${r.published.unit}`;
  if (rows.some((r) => r.asPublished)) {
    return [
      [
        "claim",
        "a vs b",
        "published",
        "published a/b",
        "article's versions",
        "rtbench a/b, article's versions [95% CI]",
        "today's versions",
        "rtbench a/b, today's versions [95% CI]",
        "same ranking (article's / today's)",
        "cmd",
        "note",
      ],
      ...rows.map((r) => [
        r.claim,
        `${r.a} vs ${r.b}`,
        published(r),
        ratioText(r.published.ratio),
        r.asPublished?.versions ?? "",
        measuredText(r.asPublished?.measured ?? null),
        r.versions ?? "",
        measuredText(r.measured),
        `${r.asPublished?.verdict ?? "n/a"} / ${r.verdict}`,
        cmd(r),
        noteText(r),
      ]),
    ];
  }
  return [
    ["claim", "a vs b", "published", "published a/b", "rtbench a/b [95% CI]", "same ranking", "cmd", "note"],
    ...rows.map((r) => [
      r.claim,
      `${r.a} vs ${r.b}`,
      published(r),
      ratioText(r.published.ratio),
      measuredText(r.measured),
      r.verdict,
      cmd(r),
      r.note ?? "",
    ]),
  ];
}

/**
 * The table as Markdown (`markdown`) or aligned plain text, with the commands listed under it, one per experiment.
 *
 * @example
 * ```ts
 * import { formatReproduce } from "./reproduce_table.ts";
 * console.log(formatReproduce([], "markdown").split("\n")[0].split(" | ").length); // 8
 * ```
 */
export function formatReproduce(rows: readonly ReproduceRow[], format: "text" | "markdown"): string {
  const table = cells(rows);
  let lines: string[];
  if (format === "markdown") {
    const esc = (s: string) => s.replaceAll("|", "\\|");
    lines = table.map((row) => `| ${row.map(esc).join(" | ")} |`);
    lines.splice(1, 0, `| ${table[0].map(() => "---").join(" | ")} |`);
  } else {
    const widths = table[0].map((_, i) => Math.max(...table.map((row) => row[i].length)));
    lines = table.map((row) => row.map((c, i) => c.padEnd(widths[i])).join("  ").trimEnd());
  }
  const commands = [...new Set(rows.map((r) => r.command))];
  if (commands.length === 0) return lines.join("\n");
  const listed = commands.map((c, i) => format === "markdown" ? `${i + 1}. \`${c}\`` : `  [${i + 1}] ${c}`);
  return [...lines, "", "Commands (cmd column):", ...listed].join("\n");
}
