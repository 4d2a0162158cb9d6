/**
 * Node.js's release schedule, as the npm package `node-releases` carries it
 * (the data browserslist uses): for each release line, when it came out, when
 * it became LTS, entered maintenance and reaches its end of life. From it,
 * which line is the Active LTS one on a given day, and where any line stands
 * that day. Every function takes the day and the schedule, so that a test
 * fixes both.
 *
 * @example The Active LTS line, and Node.js 20's support, on 28 November 2026
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { activeLtsLine, nodeSupport } from "@rtbench/rtbench/adapters";
 *
 * assertEquals(activeLtsLine("2026-11-28"), "26");
 * assertEquals(nodeSupport("20", "2026-11-28").status, "end-of-life");
 * ```
 *
 * @module
 */

import schedule from "node-releases/data/release-schedule/release-schedule.json" with { type: "json" };
import manifest from "node-releases/package.json" with { type: "json" };
import type { RuntimeRelease } from "../runners/schema/mod.ts";

/**
 * One release line in the schedule; dates are `YYYY-MM-DD`.
 *
 * @example Node.js 26 as node-releases lists it
 * ```ts
 * import type { ScheduledLine } from "@rtbench/rtbench/adapters";
 *
 * const v26: ScheduledLine = { start: "2026-05-05", lts: "2026-10-28", maintenance: "2027-10-20", end: "2029-04-30" };
 * ```
 */
export interface ScheduledLine {
  /** Its first release. */
  readonly start: string;
  /** When it became LTS (even lines only). */
  readonly lts?: string;
  /** When it left active development for maintenance (absent where the schedule has not set it). */
  readonly maintenance?: string;
  /** Its end of life. */
  readonly end: string;
  /** Its LTS code name. */
  readonly codename?: string;
}

/**
 * Release lines by key, `v26` for Node.js 26, as `node-releases` spells them.
 *
 * @example A schedule of one line, to judge a day by
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { activeLtsLine, type NodeSchedule } from "@rtbench/rtbench/adapters";
 *
 * const schedule: NodeSchedule = { v22: { start: "2024-04-24", lts: "2024-10-29", maintenance: "2025-10-21", end: "2027-04-30" } };
 * assertEquals(activeLtsLine("2025-01-01", schedule), "22");
 * ```
 */
export type NodeSchedule = Readonly<Record<string, ScheduledLine>>;

/**
 * The schedule of the pinned `node-releases` package.
 *
 * @example When Node.js 20 reached its end of life
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { NODE_SCHEDULE } from "@rtbench/rtbench/adapters";
 *
 * assertEquals(NODE_SCHEDULE.v20.end, "2026-04-30");
 * ```
 */
export const NODE_SCHEDULE: NodeSchedule = schedule as NodeSchedule;

/**
 * Where {@linkcode NODE_SCHEDULE} comes from, as records name it.
 *
 * @example The package and version records name
 * ```ts
 * import { assertMatch } from "@std/assert";
 * import { NODE_SCHEDULE_SOURCE } from "@rtbench/rtbench/adapters";
 *
 * assertMatch(NODE_SCHEDULE_SOURCE, /^node-releases \d+\.\d+\.\d+$/);
 * ```
 */
export const NODE_SCHEDULE_SOURCE: string = `node-releases ${manifest.version}`;

/**
 * A line's support on a day, before the record adds the line, the day and the source.
 *
 * @example Node.js 20 in late 2026
 * ```ts
 * import type { Support } from "@rtbench/rtbench/adapters";
 *
 * const support: Support = { status: "end-of-life", since: "2026-04-30", lineReleased: "2023-04-18" };
 * ```
 */
export type Support = Pick<RuntimeRelease, "status" | "since" | "lineReleased">;

/**
 * Where a Node.js release line stands on `day`: `current` from its first release, `active-lts` from its LTS date,
 * `maintenance` from its maintenance date, `end-of-life` from its end, each with the day it began. A line the
 * schedule does not list, or one not yet released that day, is `unknown`.
 *
 * @param line The major version, `20`.
 * @param day The day, `YYYY-MM-DD`.
 * @param releases The schedule.
 * @returns The status, the day it began, and the line's first release.
 *
 * @example Node.js 24 on three days
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { nodeSupport } from "@rtbench/rtbench/adapters";
 *
 * assertEquals(nodeSupport("24", "2025-06-01").status, "current");
 * assertEquals(nodeSupport("24", "2026-01-01"), { status: "active-lts", since: "2025-10-28", lineReleased: "2025-05-06" });
 * assertEquals(nodeSupport("24", "2026-11-28").status, "maintenance");
 * ```
 */
export function nodeSupport(line: string, day: string, releases: NodeSchedule = NODE_SCHEDULE): Support {
  const entry = releases[`v${line}`];
  if (!entry || day < entry.start) return { status: "unknown", since: null, lineReleased: entry?.start ?? null };
  const lineReleased = entry.start;
  if (day >= entry.end) return { status: "end-of-life", since: entry.end, lineReleased };
  if (entry.maintenance && day >= entry.maintenance) {
    return { status: "maintenance", since: entry.maintenance, lineReleased };
  }
  if (entry.lts && day >= entry.lts) return { status: "active-lts", since: entry.lts, lineReleased };
  return { status: "current", since: entry.start, lineReleased };
}

/**
 * The Node.js line that is Active LTS on `day`: the release a user would deploy. Where none is (a schedule older than
 * the day), the newest LTS line still supported; null when even that is missing.
 *
 * @param day The day, `YYYY-MM-DD`.
 * @param releases The schedule.
 * @returns The major version, `26`, or null.
 *
 * @example Node.js 26 took over from 24 on 28 October 2026
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { activeLtsLine } from "@rtbench/rtbench/adapters";
 *
 * assertEquals([activeLtsLine("2026-10-27"), activeLtsLine("2026-10-28")], ["24", "26"]);
 * ```
 */
export function activeLtsLine(day: string, releases: NodeSchedule = NODE_SCHEDULE): string | null {
  const lines = Object.keys(releases).map((key) => key.replace(/^v/, "")).filter((l) => /^\d+$/.test(l))
    .sort((a, b) => Number(b) - Number(a));
  const active = lines.find((l) => nodeSupport(l, day, releases).status === "active-lts");
  if (active) return active;
  return lines.find((l) => releases[`v${l}`].lts && nodeSupport(l, day, releases).status === "maintenance") ?? null;
}
